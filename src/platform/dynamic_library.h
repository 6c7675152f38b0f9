// A dlopen'ed library (libnvidia-ml, libcuda, libcupti, libvulkan, libEGL, libOpenCL), closed when the object
// goes. The monitor and the CLI reach every vendor library this way, so they load and report a clean status on
// machines that lack one, and the CLI binary needs no graphics or compute library of its own.
#ifndef OPENGPA_PLATFORM_DYNAMIC_LIBRARY_H_
#define OPENGPA_PLATFORM_DYNAMIC_LIBRARY_H_

#include <memory>
#include <string>
#include <vector>

namespace opengpa {

class DynamicLibrary {
 public:
  enum class Unload { kOnDestruction, kNever };

  // Tries each candidate (a soname or a path) in order. On failure returns nullptr and sets *error to
  // every candidate's dlerror(), so the log says exactly what was tried. Unload::kNever (RTLD_NODELETE)
  // is for libraries that cannot be unloaded and loaded again in one process: libcupti registers itself
  // with the CUDA driver, and a second load is then refused (CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED,
  // seen on the H100).
  static std::unique_ptr<DynamicLibrary> Open(const std::vector<std::string>& candidates, std::string* error,
                                              Unload unload = Unload::kOnDestruction);
  // The library only if the process has already loaded it (RTLD_NOLOAD), else nullptr: for the window
  // system and API loaders an application brings, which a GPA library must share rather than load anew.
  static std::unique_ptr<DynamicLibrary> OpenIfLoaded(const std::string& name, Unload unload = Unload::kOnDestruction);

  class Key {  // only Open constructs one, so every DynamicLibrary holds a live handle
    friend class DynamicLibrary;
    Key() = default;
  };
  DynamicLibrary(Key, void* handle, std::string name) : handle_(handle), name_(std::move(name)) {}
  ~DynamicLibrary();
  DynamicLibrary(const DynamicLibrary&) = delete;
  DynamicLibrary& operator=(const DynamicLibrary&) = delete;

  // nullptr when the library does not export `name`.
  void* Symbol(const char* name) const;
  template <typename Function>
  bool Resolve(const char* name, Function* function) const {
    *function = reinterpret_cast<Function>(Symbol(name));
    return *function != nullptr;
  }
  template <typename Function>
  Function Get(const char* name) const {
    return reinterpret_cast<Function>(Symbol(name));
  }
  const std::string& Name() const { return name_; }

 private:
  void* handle_;
  std::string name_;
};

// Fills a table of entry points from `library`, one call per entry point, remembering the first the library
// lacks: how every table of OpenGPA is filled (libcuda, libcupti, the profiler's optional groups).
class EntryPointResolver {
 public:
  explicit EntryPointResolver(const DynamicLibrary& library) : library_(library) {}
  template <typename Function>
  void operator()(const char* name, Function* function) {
    if (!library_.Resolve(name, function) && missing_.empty()) missing_ = name;
  }
  bool Complete() const { return missing_.empty(); }
  // The first entry point not found; empty when all were.
  const std::string& Missing() const { return missing_; }

 private:
  const DynamicLibrary& library_;
  std::string missing_;
};

// Candidates for a library: the environment variable's value first when it is set (an explicit path
// for unusual installs), then the defaults. An explicit list from the caller replaces both.
std::vector<std::string> LibraryCandidates(const std::vector<std::string>& explicit_candidates,
                                           const char* environment_variable, const std::vector<std::string>& defaults);

}  // namespace opengpa

#endif  // OPENGPA_PLATFORM_DYNAMIC_LIBRARY_H_
