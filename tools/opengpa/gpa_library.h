// The CLI as a GPA client: one libGPUPerfAPI<X>.so loaded the way every OpenGPA client loads one
// (client/loaded_gpa_library.h), initialised through opengpa::Library (opengpa/opengpa.hpp), and destroyed and
// unloaded when the object goes; plus RAII holders for the context and session ids it hands out, which report
// failures as error text rather than opengpa.hpp's exceptions (the CLI prints them and exits).
#ifndef OPENGPA_TOOLS_OPENGPA_GPA_LIBRARY_H_
#define OPENGPA_TOOLS_OPENGPA_GPA_LIBRARY_H_

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "client/gpa_library_search.h"  // ApiNumber
#include "client/loaded_gpa_library.h"
#include "gpu_performance_api/gpu_perf_api.h"
#include "opengpa/opengpa.hpp"

namespace opengpa::cli {

using client::OpenGpaExtensions;

class GpaLibrary {
 public:
  // Looks in <directory of the executable>/../lib first, then the dynamic loader's search path
  // (LD_LIBRARY_PATH, ...). GPA's own log messages go to stderr: errors always, messages when verbose.
  static std::unique_ptr<GpaLibrary> Load(client::ApiNumber api, bool verbose, std::string* error);

  struct PrivateKey {  // only Load constructs one
   private:
    PrivateKey() = default;
    friend class GpaLibrary;
  };
  GpaLibrary(PrivateKey, client::ApiNumber api, std::unique_ptr<client::LoadedGpaLibrary> loaded);
  ~GpaLibrary();
  GpaLibrary(const GpaLibrary&) = delete;
  GpaLibrary& operator=(const GpaLibrary&) = delete;

  const GpaFunctionTable& Gpa() const { return loaded_->Table(); }
  const OpenGpaExtensions& Extensions() const { return loaded_->Extensions(); }
  client::ApiNumber Api() const { return api_; }

  // True for kGpaStatusOk; otherwise false and *error = "<what>: <GPA status string> (<status number>)".
  bool Succeeded(GpaStatus status, std::string_view what, std::string* error) const;

 private:
  client::ApiNumber api_;
  std::unique_ptr<client::LoadedGpaLibrary> loaded_;  // declared first: unloaded after GpaDestroy
  std::optional<opengpa::Library> initialized_;       // GpaInitialize done; GpaDestroy when reset
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

}  // namespace opengpa::cli

#endif  // OPENGPA_TOOLS_OPENGPA_GPA_LIBRARY_H_
