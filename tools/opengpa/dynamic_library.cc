#include "dynamic_library.h"

#include <dlfcn.h>

namespace opengpa::cli {

std::unique_ptr<DynamicLibrary> DynamicLibrary::Open(const std::vector<std::string>& names, std::string* error) {
  std::string failures;
  for (const std::string& name : names) {
    if (void* handle = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL)) {
      return std::make_unique<DynamicLibrary>(PrivateKey{}, handle, name);
    }
    const char* why = dlerror();
    if (!failures.empty()) failures += "; ";
    failures += why ? why : name + ": unknown dlopen error";
  }
  *error = failures;
  return nullptr;
}

DynamicLibrary::~DynamicLibrary() { dlclose(handle_); }

void* DynamicLibrary::Symbol(const char* name) const { return dlsym(handle_, name); }

}  // namespace opengpa::cli
