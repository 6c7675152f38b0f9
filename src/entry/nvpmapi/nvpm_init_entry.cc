// Init, Shutdown and the calls that configure the library itself.
#include "entry/nvpmapi/counter_registry.h"
#include "entry/nvpmapi/nvpm_entry.h"
#include "entry/nvpmapi/nvpm_state.h"

namespace opengpa::nvpm::entry {

// PerfKit's warning levels chose what its driver printed; OpenGPA's messages are chosen by
// OPENGPA_NVPMAPI_LOG, so any level is accepted and changes nothing.
NVPMRESULT SetWarningLevel(NVPMUINT) { return NVPM_OK; }

// The result of the last call that failed, with its message in OpenGpaNvPmGetLastMessage.
NVPMRESULT GetExtendedError(NVPMUINT* error) {
  if (error == nullptr) return Fail(NVPM_ERROR_INVALID_PARAMETER, "GetExtendedError: pnError is NULL");
  *error = static_cast<NVPMUINT>(LastResult());
  return NVPM_OK;
}

NVPMRESULT Init() {
  std::lock_guard<std::recursive_mutex> lock(Nvpm().mutex);
  if (Nvpm().initialized) return Fail(NVPM_ERROR_ALREADY_INITIALIZED, "Init: already initialized");
  Nvpm().initialized = true;
  return NVPM_OK;
}

NVPMRESULT Shutdown() {
  return Guarded("Shutdown", [] {
    for (auto& [handle, context] : Nvpm().contexts) {
      AbandonExperiment(*context);
      AbandonInterval(*context);
      context->backend->gpa.GpaCloseContext(context->gpa);
    }
    Nvpm().contexts.clear();
    UnloadBackends();
    ClearCounters();
    Nvpm().initialized = false;
    return NVPM_OK;
  });
}

// PerfKit's data providers were driver plug-ins; OpenGPA's counters all come from its GPA libraries.
NVPMRESULT RegisterNewDataProviderCallback(FuncPtrNewDataProvider) {
  return Guarded("RegisterNewDataProviderCallback", [] {
    return Fail(NVPM_ERROR_INVALID_PARAMETER, "RegisterNewDataProviderCallback: OpenGPA takes no data providers");
  });
}

}  // namespace opengpa::nvpm::entry
