#include "loaded_modules.h"

#include <link.h>

#include <climits>
#include <cstdlib>

namespace opengpa::doctor {
namespace {

struct Search {
  const std::vector<std::string>* prefixes;
  nlohmann::json found = nlohmann::json::array();
};

int Visit(dl_phdr_info* info, size_t /*size*/, void* data) {
  auto* search = static_cast<Search*>(data);
  if (info->dlpi_name == nullptr || info->dlpi_name[0] == '\0') return 0;  // the program itself
  const std::string path = info->dlpi_name;
  const std::string name = path.substr(path.find_last_of('/') + 1);
  for (const std::string& prefix : *search->prefixes) {
    if (name.compare(0, prefix.size(), prefix) != 0) continue;
    char resolved[PATH_MAX];
    search->found.push_back({{"name", name}, {"path", realpath(path.c_str(), resolved) ? resolved : path}});
    break;
  }
  return 0;
}

}  // namespace

nlohmann::json LoadedModules(const std::vector<std::string>& prefixes) {
  Search search{&prefixes};
  dl_iterate_phdr(&Visit, &search);
  return search.found;
}

}  // namespace opengpa::doctor
