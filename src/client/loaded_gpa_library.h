// A libGPUPerfAPI<X>.so loaded the way GPA applications load one (dlopen, then GpaGetFuncTable), with the
// OpenGPA extensions it exports, kept loaded while the object lives. The one way OpenGPA's own clients (the
// CLI, the samples, the tests of a library's public face) load GPA; opengpa/opengpa.hpp then works over
// Table(). AMD's interface loader (gpu_perf_api_interface_loader.h) stays for applications written against
// GPA, and the samples in samples/clients show it.
#ifndef OPENGPA_CLIENT_LOADED_GPA_LIBRARY_H_
#define OPENGPA_CLIENT_LOADED_GPA_LIBRARY_H_

#include <memory>
#include <string>
#include <vector>

#include "gpu_performance_api/gpu_perf_api.h"
#include "gpu_performance_api/opengpa_ext.h"
#include "platform/dynamic_library.h"

namespace opengpa::client {

// OpenGPA extensions (opengpa_ext.h) the loaded library exports; null where it does not. They are not in
// GpaFunctionTable (its layout is GPA's), so they are looked up by name in the same library.
struct OpenGpaExtensions {
  OpenGpaGetCounterFormulaPtrType get_counter_formula = nullptr;
  OpenGpaGetCounterHardwareUnitPtrType get_counter_hardware_unit = nullptr;
};

class LoadedGpaLibrary {
 public:
  // Tries each path in order (a file path, or a bare name for the dynamic loader's search path). nullptr
  // when none loads, with *error listing every attempt ("\n  <path>: <reason>" each).
  static std::unique_ptr<LoadedGpaLibrary> Load(const std::vector<std::string>& paths, std::string* error);

  struct PrivateKey {  // only Load constructs one
   private:
    PrivateKey() = default;
    friend class LoadedGpaLibrary;
  };
  LoadedGpaLibrary(PrivateKey, std::unique_ptr<DynamicLibrary> library, const GpaFunctionTable& table);
  LoadedGpaLibrary(const LoadedGpaLibrary&) = delete;
  LoadedGpaLibrary& operator=(const LoadedGpaLibrary&) = delete;

  // GPA's function table (GpaInitialize not yet called: opengpa::Library or the caller does that).
  const GpaFunctionTable& Table() const { return table_; }
  const OpenGpaExtensions& Extensions() const { return extensions_; }
  // The path (or name) it was loaded from.
  const std::string& Path() const { return library_->Name(); }

 private:
  std::unique_ptr<DynamicLibrary> library_;
  GpaFunctionTable table_{};
  OpenGpaExtensions extensions_;
};

}  // namespace opengpa::client

#endif  // OPENGPA_CLIENT_LOADED_GPA_LIBRARY_H_
