#include "platform/dynamic_library.h"

#include <dlfcn.h>
#include <sys/auxv.h>

#include <cstdlib>

#include "platform/logging.h"

namespace opengpa {

std::unique_ptr<DynamicLibrary> DynamicLibrary::Open(const std::vector<std::string>& candidates, std::string* error,
                                                     Unload unload) {
  const int flags = RTLD_NOW | RTLD_LOCAL | (unload == Unload::kNever ? RTLD_NODELETE : 0);
  std::string errors;
  for (const std::string& candidate : candidates) {
    // RTLD_LOCAL: the vendor's symbols must not leak into the process's global namespace.
    void* handle = dlopen(candidate.c_str(), flags);
    if (handle != nullptr) return std::make_unique<DynamicLibrary>(Key{}, handle, candidate);
    const char* message = dlerror();
    if (!errors.empty()) errors += "; ";
    errors += message != nullptr ? message : candidate + ": unknown dlopen error";
  }
  if (candidates.empty()) errors = "no library candidates given";
  if (error != nullptr) *error = errors;
  return nullptr;
}

std::unique_ptr<DynamicLibrary> DynamicLibrary::OpenIfLoaded(const std::string& name, Unload unload) {
  const int flags = RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD | (unload == Unload::kNever ? RTLD_NODELETE : 0);
  void* handle = dlopen(name.c_str(), flags);
  if (handle == nullptr) return nullptr;
  return std::make_unique<DynamicLibrary>(Key{}, handle, name);
}

DynamicLibrary::~DynamicLibrary() { dlclose(handle_); }

void* DynamicLibrary::Symbol(const char* name) const { return dlsym(handle_, name); }

std::vector<std::string> LibraryCandidates(const std::vector<std::string>& explicit_candidates,
                                           const char* environment_variable, const std::vector<std::string>& defaults) {
  if (!explicit_candidates.empty()) return explicit_candidates;
  std::vector<std::string> candidates;
  // secure_getenv: in a privileged process (set-user-ID or set-group-ID, file capabilities: the kernel's
  // AT_SECURE) the variable is ignored, as the dynamic loader ignores LD_LIBRARY_PATH there, so that whoever
  // runs such a program cannot make it load a library of their choosing.
  const char* from_environment = environment_variable != nullptr ? secure_getenv(environment_variable) : nullptr;
  if (from_environment == nullptr && environment_variable != nullptr && getauxval(AT_SECURE) != 0 &&
      std::getenv(environment_variable) != nullptr) {
    Log(kGpaLoggingMessage,
        "{} is ignored in a privileged (set-user-ID, set-group-ID or capability) process; "
        "loading {}",
        environment_variable, defaults.empty() ? std::string("nothing") : defaults.front());
  }
  if (from_environment != nullptr && *from_environment != '\0') candidates.emplace_back(from_environment);
  candidates.insert(candidates.end(), defaults.begin(), defaults.end());
  return candidates;
}

}  // namespace opengpa
