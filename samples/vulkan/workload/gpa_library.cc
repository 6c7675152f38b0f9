#include "gpa_library.h"

#include <unistd.h>

#include <climits>

namespace opengpa::vkwork {

std::vector<std::string> GpaLibrary::DefaultPaths(const std::string& file_name) {
  std::vector<std::string> paths;
  char executable[PATH_MAX] = {};
  const ssize_t length = readlink("/proc/self/exe", executable, sizeof(executable) - 1);
  if (length > 0) {
    std::string folder(executable, static_cast<std::size_t>(length));
    folder = folder.substr(0, folder.find_last_of('/'));
    paths.push_back(folder + "/" + file_name);
    paths.push_back(folder + "/../lib/" + file_name);
    paths.push_back(folder + "/../../lib/" + file_name);
  }
  paths.push_back(file_name);
  return paths;
}

std::unique_ptr<GpaLibrary> GpaLibrary::Load(const std::vector<std::string>& paths, std::string* error) {
  error->clear();
  for (const std::string& path : paths) {
    std::string load_error;
    std::unique_ptr<DynamicLibrary> loaded = DynamicLibrary::Open({path}, &load_error);
    if (loaded == nullptr) {
      *error += "\n  " + load_error;
      continue;
    }
    auto get_table = loaded->Get<GpaGetFuncTablePtrType>("GpaGetFuncTable");
    auto library = std::make_unique<GpaLibrary>();
    library->library_ = std::move(loaded);
    library->path_ = path;
    if (get_table == nullptr) {
      *error += "\n  " + path + ": no GpaGetFuncTable";
      continue;
    }
    library->table_.major_version = GPA_FUNCTION_TABLE_MAJOR_VERSION_NUMBER;
    library->table_.minor_version = GPA_FUNCTION_TABLE_MINOR_VERSION_NUMBER;
    const GpaStatus status = get_table(&library->table_);
    if (status != kGpaStatusOk) {
      *error += "\n  " + path + ": GpaGetFuncTable returned " + std::to_string(static_cast<int>(status));
      continue;
    }
    return library;
  }
  *error = "could not load a GPA library:" + *error;
  return nullptr;
}

}  // namespace opengpa::vkwork
