#include "entry/nvpmapi/gpa_backend.h"

#include <dlfcn.h>

#include <array>
#include <memory>

#include "entry/nvpmapi/nvpm_log.h"

namespace opengpa::nvpm {
namespace {

const char* LibraryFile(Api api) {
  return api == Api::kCuda ? "libGPUPerfAPICUDA.so" : "libGPUPerfAPIGL.so";
}

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

std::array<std::unique_ptr<GpaBackend>, 2>& Loaded() {
  static std::array<std::unique_ptr<GpaBackend>, 2> loaded;
  return loaded;
}

}  // namespace

const char* ApiName(Api api) { return api == Api::kCuda ? "CUDA" : "OpenGL"; }

GpaBackend* LoadBackend(Api api, std::string* why) {
  std::unique_ptr<GpaBackend>& slot = Loaded()[static_cast<int>(api)];
  if (slot) return slot.get();
  const std::string file = LibraryFile(api);
  void* library = dlopen((OwnFolder() + file).c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) library = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    const char* error = dlerror();
    *why = file + " does not load: " + (error != nullptr ? error : "unknown error");
    return nullptr;
  }
  auto backend = std::make_unique<GpaBackend>();
  backend->api = api;
  backend->library = library;
  auto get_table = reinterpret_cast<GpaGetFuncTablePtrType>(dlsym(library, "GpaGetFuncTable"));
  if (get_table == nullptr || get_table(&backend->gpa) != kGpaStatusOk) {
    *why = file + " has no GPA v3 function table";
    dlclose(library);
    return nullptr;
  }
  backend->gpa.GpaRegisterLoggingCallback(kGpaLoggingError, ForwardGpaLog);
  GpaStatus status = backend->gpa.GpaInitialize(kGpaInitializeDefaultBit);
  if (status != kGpaStatusOk) {
    *why = file + ": GpaInitialize failed: " + GpaStatusText(*backend, status);
    dlclose(library);
    return nullptr;
  }
  slot = std::move(backend);
  return slot.get();
}

void UnloadBackends() {
  for (std::unique_ptr<GpaBackend>& slot : Loaded()) {
    if (!slot) continue;
    slot->gpa.GpaDestroy();
    slot->gpa.GpaRegisterLoggingCallback(kGpaLoggingNone, nullptr);
    dlclose(slot->library);
    slot.reset();
  }
}

std::string GpaStatusText(const GpaBackend& backend, GpaStatus status) {
  const char* text = backend.gpa.GpaGetStatusAsStr != nullptr ? backend.gpa.GpaGetStatusAsStr(status) : nullptr;
  return text != nullptr ? text : std::to_string(static_cast<int>(status));
}

}  // namespace opengpa::nvpm
