#include "client/gpa_library_search.h"

#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <utility>

#include "platform/this_process.h"

namespace opengpa::client {
namespace {

bool IsFolder(const std::string& path) {
  struct stat info {};
  return stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}

bool IsReadableFile(const std::string& path) { return !IsFolder(path) && access(path.c_str(), R_OK) == 0; }

}  // namespace

std::string GpaLibraryFileName(ApiNumber api) {
  switch (api) {
    case kGpaApiVulkan: return "libGPUPerfAPIVK.so";
    case kGpaApiOpengl: return "libGPUPerfAPIGL.so";
    case kGpaApiOpencl: return "libGPUPerfAPICL.so";
    case kApiCuda: return "libGPUPerfAPICUDA.so";
    default: return "libGPUPerfAPI?.so";
  }
}

std::string ExecutableDirectory() {
  const std::string path = ExecutablePath();
  if (path.empty()) return {};
  return path.substr(0, path.find_last_of('/'));
}

std::vector<std::string> FoldersBesideExecutable() {
  const std::string folder = ExecutableDirectory();
  if (folder.empty()) return {};
  return {folder, folder + "/../lib", folder + "/../../lib"};
}

std::vector<std::string> GpaLibraryPaths(const std::string& file_name, const std::string& explicit_path,
                                         const std::vector<std::string>& folders) {
  if (!explicit_path.empty()) {
    return {IsFolder(explicit_path) ? explicit_path + "/" + file_name : explicit_path};
  }
  std::vector<std::string> paths;
  for (const std::string& folder : folders) {
    std::string path = folder;
    path.append("/").append(file_name);
    if (IsReadableFile(path)) paths.push_back(std::move(path));
  }
  paths.push_back(file_name);
  return paths;
}

}  // namespace opengpa::client
