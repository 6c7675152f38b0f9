#include "gpa_library.h"

#include <dlfcn.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <string>

#include "library_path.h"
#include "gpu_performance_api/gpu_perf_api_interface_loader.h"

// The interface loader's singleton, defined once per program as GPA's usage notes ask.
GpaApiManager* GpaApiManager::gpa_api_manager_ = nullptr;
GpaFuncTableInfo* gpa_function_table_info = nullptr;

namespace opengpa::cli {
namespace {

std::atomic<bool> verbose_logging{false};
std::atomic<int> error_mutes{0};

void PrintGpaLog(GpaLoggingType type, const char* message) {
  if ((type & kGpaLoggingError) != 0) {
    if (error_mutes > 0) return;
    std::fprintf(stderr, "opengpa: GPA error: %s\n", message);
  } else if (verbose_logging) {
    std::fprintf(stderr, "opengpa: GPA: %s\n", message);
  }
}

// libGPUPerfAPICUDA.so links the CUDA toolkit's libcupti, which lives outside the system's library folders.
std::string CuptiMissingHint() {
#ifdef OPENGPA_CUPTI_RUNPATH
  const std::string searched = OPENGPA_CUPTI_RUNPATH;
#else
  const std::string searched = "the library's RUNPATH";
#endif
  return "\nopengpa: libGPUPerfAPICUDA.so needs CUPTI (libcupti.so) from the CUDA toolkit, which was not found in " +
         searched + " nor on LD_LIBRARY_PATH; install the toolkit, or add its CUPTI folder (<toolkit>/extras/CUPTI/lib64 "
         "or <toolkit>/lib64) to LD_LIBRARY_PATH";
}

}  // namespace

GpaErrorLogMute::GpaErrorLogMute() { ++error_mutes; }
GpaErrorLogMute::~GpaErrorLogMute() { --error_mutes; }

std::string GpaLibraryFileName(GpaApiType api) {
  switch (static_cast<int>(api)) {  // int: kGpaApiCuda is outside GpaApiType's enumerators
    case kGpaApiVulkan:
      return "libGPUPerfAPIVK.so";
    case kGpaApiOpengl:
      return "libGPUPerfAPIGL.so";
    case kGpaApiOpencl:
      return "libGPUPerfAPICL.so";
    case static_cast<int>(kGpaApiCuda):
      return "libGPUPerfAPICUDA.so";
    default:
      return "libGPUPerfAPI?.so";
  }
}

std::unique_ptr<GpaLibrary> GpaLibrary::Load(GpaApiType api, bool verbose, std::string* error) {
  verbose_logging = verbose;
  GpaApiManager* manager = GpaApiManager::Instance();
  const std::string beside = LibraryDirectoryBesideExecutable();
  const std::string file = GpaLibraryFileName(api);
  GpaStatus status = kGpaStatusErrorLibLoadFailed;
  if (!beside.empty() && access((beside + "/" + file).c_str(), R_OK) == 0) {
    status = manager->LoadApi(api, beside.c_str());
  }
  if (status != kGpaStatusOk) status = manager->LoadApi(api);
  if (status != kGpaStatusOk) {
    *error = "cannot load " + file + " (looked in " + (beside.empty() ? std::string("-") : beside) +
             " and the loader's search path, LD_LIBRARY_PATH): " + manager->GetLastError() + " [" +
             GpaStatusText(status) + "]";
    if (error->find("libcupti") != std::string::npos) *error += CuptiMissingHint();
    return nullptr;
  }
  GpaFunctionTable* table = manager->GetFunctionTable(api);
  if (!table) {
    *error = file + " loaded but returned no function table";
    manager->UnloadApi(api);
    return nullptr;
  }
  auto library = std::make_unique<GpaLibrary>(PrivateKey{}, api, table, manager->GetFuncTableInfo(api).lib_handle);
  table->GpaRegisterLoggingCallback(verbose ? kGpaLoggingErrorAndMessage : kGpaLoggingError, &PrintGpaLog);
  const GpaStatus initialized = table->GpaInitialize(kGpaInitializeDefaultBit);
  if (initialized != kGpaStatusOk) {
    library->initialized_ = false;
    *error = "GpaInitialize failed: " + GpaStatusText(initialized);
    return nullptr;
  }
  return library;
}

GpaLibrary::GpaLibrary(PrivateKey, GpaApiType api, GpaFunctionTable* table, void* library_handle)
    : api_(api), table_(table) {
  // The extensions are not in GpaFunctionTable (its layout is GPA's): look them up in the same library.
  if (library_handle) {
    extensions_.get_counter_formula =
        reinterpret_cast<OpenGpaGetCounterFormulaPtrType>(dlsym(library_handle, "OpenGpaGetCounterFormula"));
    extensions_.get_counter_hardware_unit = reinterpret_cast<OpenGpaGetCounterHardwareUnitPtrType>(
        dlsym(library_handle, "OpenGpaGetCounterHardwareUnit"));
  }
}

GpaLibrary::~GpaLibrary() {
  if (initialized_) table_->GpaDestroy();
  GpaApiManager::Instance()->UnloadApi(api_);
}

bool GpaLibrary::Succeeded(GpaStatus status, std::string_view what, std::string* error) const {
  if (status == kGpaStatusOk) return true;
  const char* text = table_->GpaGetStatusAsStr ? table_->GpaGetStatusAsStr(status) : nullptr;
  *error = std::string(what) + ": " + (text ? text : "unknown status") + " (" + std::to_string(status) + ")";
  return false;
}

std::string GpaStatusText(GpaStatus status) {
  return "GPA status " + std::to_string(static_cast<int>(status));
}

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
