#include "entry/nvpmapi/gpa_backend.h"

#include <dlfcn.h>
#include <unistd.h>

#include <map>
#include <memory>

#include "entry/nvpmapi/nvpm_log.h"

namespace opengpa::nvpm {
namespace {

const char* LibraryFile(Api api) { return api == Api::kCuda ? "libGPUPerfAPICUDA.so" : "libGPUPerfAPIGL.so"; }

// The folder of this library, with a trailing '/'; empty when unknown.
std::string OwnFolder() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&OwnFolder), &info) == 0 || info.dli_fname == nullptr) return {};
  std::string path = info.dli_fname;
  std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
}

// The core's errors reach NvPmApi's message, so a refused GpaOpenContext says why.
void ForwardGpaLog(GpaLoggingType type, const char* message) {
  if ((type & kGpaLoggingError) != 0 && message != nullptr) {
    RecordMessage(LastResult(), std::string("GPA: ") + message);
  }
}

// By the path the library was opened by (one GPA library is initialized once however many contexts use it).
std::map<std::string, std::unique_ptr<GpaBackend>>& Loaded() {
  static std::map<std::string, std::unique_ptr<GpaBackend>> loaded;
  return loaded;
}

GpaBackend* Load(Api api, const std::string& path, const std::string& file, std::string* why) {
  std::unique_ptr<GpaBackend>& slot = Loaded()[path];
  if (slot) return slot.get();
  std::string error;
  std::unique_ptr<client::LoadedGpaLibrary> library = client::LoadedGpaLibrary::Load({path}, &error);
  if (library == nullptr) {
    // One path tried: its line of the loader's list ("\n  <path>: <reason>").
    const std::size_t start = error.find_first_not_of("\n ");
    *why = file + " does not load as a GPA v3 library: " + (start == std::string::npos ? error : error.substr(start));
    Loaded().erase(path);
    return nullptr;
  }
  auto backend = std::make_unique<GpaBackend>();
  backend->api = api;
  backend->gpa = library->Table();
  backend->library = std::move(library);
  backend->gpa.GpaRegisterLoggingCallback(kGpaLoggingError, ForwardGpaLog);
  GpaStatus status = backend->gpa.GpaInitialize(kGpaInitializeDefaultBit);
  backend->initialized_here = status != kGpaStatusErrorGpaAlreadyInitialized;
  if (status != kGpaStatusOk && status != kGpaStatusErrorGpaAlreadyInitialized) {
    *why = file + ": GpaInitialize failed: " + GpaStatusText(*backend, status);
    Loaded().erase(path);
    return nullptr;
  }
  slot = std::move(backend);
  return slot.get();
}

}  // namespace

const char* ApiName(Api api) {
  switch (api) {
    case Api::kCuda: return "CUDA";
    case Api::kOpenGl: return "OpenGL";
    case Api::kOther: break;
  }
  return "GPA library";
}

GpaBackend* LoadBackend(Api api, std::string* why) {
  const std::string file = LibraryFile(api);
  const std::string beside = OwnFolder() + file;
  // Beside this library first (the build's lib/, an installation's lib/), then the loader's path.
  return Load(api, access(beside.c_str(), R_OK) == 0 ? beside : file, file, why);
}

GpaBackend* LoadBackendFile(const std::string& path, std::string* why) { return Load(Api::kOther, path, path, why); }

void UnloadBackends() {
  for (auto& [path, slot] : Loaded()) {
    if (slot->initialized_here) slot->gpa.GpaDestroy();
    slot->gpa.GpaRegisterLoggingCallback(kGpaLoggingNone, nullptr);
  }
  Loaded().clear();
}

std::string GpaStatusText(const GpaBackend& backend, GpaStatus status) {
  const char* text = backend.gpa.GpaGetStatusAsStr != nullptr ? backend.gpa.GpaGetStatusAsStr(status) : nullptr;
  return text != nullptr ? text : std::to_string(static_cast<int>(status));
}

}  // namespace opengpa::nvpm
