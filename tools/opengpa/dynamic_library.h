// A dlopen'ed shared library, closed when the object goes. The CLI reaches every graphics/compute
// API (libvulkan, libEGL, libOpenCL, libcuda) this way so the binary itself needs none of them: it runs
// on a machine that only has the driver of the API the user asked for.
#ifndef OPENGPA_TOOLS_OPENGPA_DYNAMIC_LIBRARY_H_
#define OPENGPA_TOOLS_OPENGPA_DYNAMIC_LIBRARY_H_

#include <memory>
#include <string>
#include <vector>

namespace opengpa::cli {

class DynamicLibrary {
 public:
  // Tries each name in turn; nullptr and *error listing every dlerror() when none loads.
  static std::unique_ptr<DynamicLibrary> Open(const std::vector<std::string>& names, std::string* error);

  struct PrivateKey {  // only Open constructs one
   private:
    PrivateKey() = default;
    friend class DynamicLibrary;
  };
  DynamicLibrary(PrivateKey, void* handle, std::string name) : handle_(handle), name_(std::move(name)) {}
  ~DynamicLibrary();
  DynamicLibrary(const DynamicLibrary&) = delete;
  DynamicLibrary& operator=(const DynamicLibrary&) = delete;

  void* Symbol(const char* name) const;
  template <typename Function>
  Function Get(const char* name) const {
    return reinterpret_cast<Function>(Symbol(name));
  }
  const std::string& Name() const { return name_; }

 private:
  void* handle_;
  std::string name_;
};

}  // namespace opengpa::cli

#endif  // OPENGPA_TOOLS_OPENGPA_DYNAMIC_LIBRARY_H_
