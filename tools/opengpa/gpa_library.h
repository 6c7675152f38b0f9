// The CLI as a GPA client: one libGPUPerfAPI<X>.so loaded through gpu_perf_api_interface_loader.h (the
// path every GPA user takes), initialised, and destroyed and unloaded when the object goes; plus RAII
// holders for the context and session ids it hands out.
#ifndef OPENGPA_TOOLS_OPENGPA_GPA_LIBRARY_H_
#define OPENGPA_TOOLS_OPENGPA_GPA_LIBRARY_H_

#include <memory>
#include <string>
#include <string_view>

#include "gpu_performance_api/gpu_perf_api.h"
#include "gpu_performance_api/opengpa_ext.h"

namespace opengpa::cli {

// OpenGPA extensions (opengpa_ext.h) the loaded library exports; null where it does not.
struct OpenGpaExtensions {
  OpenGpaGetCounterFormulaPtrType get_counter_formula = nullptr;
  OpenGpaGetCounterHardwareUnitPtrType get_counter_hardware_unit = nullptr;
};

class GpaLibrary {
 public:
  // Looks in <directory of the executable>/../lib first, then the dynamic loader's search path
  // (LD_LIBRARY_PATH, ...). GPA's own log messages go to stderr: errors always, messages when verbose.
  static std::unique_ptr<GpaLibrary> Load(GpaApiType api, bool verbose, std::string* error);

  struct PrivateKey {  // only Load constructs one
   private:
    PrivateKey() = default;
    friend class GpaLibrary;
  };
  GpaLibrary(PrivateKey, GpaApiType api, GpaFunctionTable* table, void* library_handle);
  ~GpaLibrary();
  GpaLibrary(const GpaLibrary&) = delete;
  GpaLibrary& operator=(const GpaLibrary&) = delete;

  const GpaFunctionTable& Gpa() const { return *table_; }
  const OpenGpaExtensions& Extensions() const { return extensions_; }
  GpaApiType Api() const { return api_; }

  // True for kGpaStatusOk; otherwise false and *error = "<what>: <GPA status string> (<status number>)".
  bool Succeeded(GpaStatus status, std::string_view what, std::string* error) const;

 private:
  GpaApiType api_;
  GpaFunctionTable* table_;
  OpenGpaExtensions extensions_;
  bool initialized_ = true;
};

// "GPA status <n>" for statuses reported before a function table exists.
std::string GpaStatusText(GpaStatus status);

// While one exists, GPA's error messages are not printed (for calls whose failure the CLI expects and
// handles, such as trial counter sets in `opengpa passes`).
class GpaErrorLogMute {
 public:
  GpaErrorLogMute();
  ~GpaErrorLogMute();
  GpaErrorLogMute(const GpaErrorLogMute&) = delete;
  GpaErrorLogMute& operator=(const GpaErrorLogMute&) = delete;
};

// GpaCloseContext at scope exit.
class GpaContext {
 public:
  static std::unique_ptr<GpaContext> Open(const GpaLibrary& library, void* api_context, GpaOpenContextFlags flags,
                                          std::string* error);
  GpaContext(const GpaLibrary& library, GpaContextId id) : library_(library), id_(id) {}
  ~GpaContext();
  GpaContext(const GpaContext&) = delete;
  GpaContext& operator=(const GpaContext&) = delete;
  GpaContextId Id() const { return id_; }

 private:
  const GpaLibrary& library_;
  GpaContextId id_;
};

// GpaDeleteSession at scope exit.
class GpaSession {
 public:
  static std::unique_ptr<GpaSession> Create(const GpaLibrary& library, const GpaContext& context, std::string* error);
  GpaSession(const GpaLibrary& library, GpaSessionId id) : library_(library), id_(id) {}
  ~GpaSession();
  GpaSession(const GpaSession&) = delete;
  GpaSession& operator=(const GpaSession&) = delete;
  GpaSessionId Id() const { return id_; }

 private:
  const GpaLibrary& library_;
  GpaSessionId id_;
};

// libGPUPerfAPIVK.so, libGPUPerfAPICUDA.so, ...
std::string GpaLibraryFileName(GpaApiType api);

}  // namespace opengpa::cli

#endif  // OPENGPA_TOOLS_OPENGPA_GPA_LIBRARY_H_
