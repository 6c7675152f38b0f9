#include "gpa_library.h"

#include <atomic>
#include <cstdio>
#include <string>
#include <vector>

#include "client/gpa_library_search.h"
#include "library_path.h"

namespace opengpa::cli {
namespace {

std::atomic<bool> verbose_logging{false};
std::atomic<int> error_mutes{0};
// The loaded library's registration, so that a mute also tells the library that nobody reads its errors: it then
// skips work done only to explain one (the CUDA backend's search for the metric CUPTI refuses, seconds on a large
// refused set).
GpaRegisterLoggingCallbackPtrType register_logging = nullptr;

void PrintGpaLog(GpaLoggingType type, const char* message) {
  if ((type & kGpaLoggingError) != 0) {
    if (error_mutes > 0) return;
    std::fprintf(stderr, "opengpa: GPA error: %s\n", message);
  } else if (verbose_logging) {
    std::fprintf(stderr, "opengpa: GPA: %s\n", message);
  }
}

}  // namespace

GpaErrorLogMute::GpaErrorLogMute() {
  if (error_mutes++ == 0 && register_logging != nullptr) {
    if (verbose_logging) {
      register_logging(kGpaLoggingMessage, &PrintGpaLog);
    } else {
      register_logging(kGpaLoggingNone, nullptr);
    }
  }
}
GpaErrorLogMute::~GpaErrorLogMute() {
  if (--error_mutes == 0 && register_logging != nullptr) {
    register_logging(verbose_logging ? kGpaLoggingErrorAndMessage : kGpaLoggingError, &PrintGpaLog);
  }
}

std::unique_ptr<GpaLibrary> GpaLibrary::Load(client::ApiNumber api, bool verbose, std::string* error) {
  verbose_logging = verbose;
  const std::string beside = LibraryDirectoryBesideExecutable();
  const std::string file = client::GpaLibraryFileName(api);
  // <executable>/../lib (an install's relative libdir), the executable's own folder (where GPA's loader
  // looks), then the dynamic loader's search path.
  std::vector<std::string> folders;
  if (!beside.empty()) folders.push_back(beside);
  if (const std::string own = client::ExecutableDirectory(); !own.empty()) folders.push_back(own);
  std::unique_ptr<client::LoadedGpaLibrary> loaded =
      client::LoadedGpaLibrary::Load(client::GpaLibraryPaths(file, "", folders), error);
  if (loaded == nullptr) {
    *error = "cannot load " + file + " (looked in " + (beside.empty() ? std::string("-") : beside) +
             " and the loader's search path, LD_LIBRARY_PATH):" + *error;
    return nullptr;
  }
  const GpaFunctionTable& table = loaded->Table();
  auto library = std::make_unique<GpaLibrary>(PrivateKey{}, api, std::move(loaded));
  table.GpaRegisterLoggingCallback(verbose ? kGpaLoggingErrorAndMessage : kGpaLoggingError, &PrintGpaLog);
  register_logging = table.GpaRegisterLoggingCallback;
  try {
    library->initialized_.emplace(&table);
  } catch (const opengpa::Error& failure) {
    *error = "GpaInitialize failed: " + GpaStatusText(failure.status());
    return nullptr;
  }
  return library;
}

GpaLibrary::GpaLibrary(PrivateKey, client::ApiNumber api, std::unique_ptr<client::LoadedGpaLibrary> loaded)
    : api_(api), loaded_(std::move(loaded)) {}

GpaLibrary::~GpaLibrary() { initialized_.reset(); }

bool GpaLibrary::Succeeded(GpaStatus status, std::string_view what, std::string* error) const {
  if (status == kGpaStatusOk) return true;
  const char* text = Gpa().GpaGetStatusAsStr ? Gpa().GpaGetStatusAsStr(status) : nullptr;
  *error = std::string(what) + ": " + (text ? text : "unknown status") + " (" + std::to_string(status) + ")";
  return false;
}

std::string GpaStatusText(GpaStatus status) { return "GPA status " + std::to_string(static_cast<int>(status)); }

std::unique_ptr<GpaContext> GpaContext::Open(const GpaLibrary& library, void* api_context, GpaOpenContextFlags flags,
                                             std::string* error) {
  GpaContextId id = nullptr;
  if (!library.Succeeded(library.Gpa().GpaOpenContext(api_context, flags, &id), "GpaOpenContext", error)) {
    return nullptr;
  }
  return std::make_unique<GpaContext>(library, id);
}

GpaContext::~GpaContext() { library_.Gpa().GpaCloseContext(id_); }

std::unique_ptr<GpaSession> GpaSession::Create(const GpaLibrary& library, const GpaContext& context,
                                               std::string* error) {
  GpaSessionId id = nullptr;
  if (!library.Succeeded(library.Gpa().GpaCreateSession(context.Id(), kGpaSessionSampleTypeDiscreteCounter, &id),
                         "GpaCreateSession", error)) {
    return nullptr;
  }
  return std::make_unique<GpaSession>(library, id);
}

GpaSession::~GpaSession() { library_.Gpa().GpaDeleteSession(id_); }

}  // namespace opengpa::cli
