#include "counter_library/context_registry.h"

#include <memory>
#include <utility>

#include "counter_library/device_selection.h"

namespace opengpa::counter_library {

std::mutex& LibraryMutex() {
  static std::mutex mutex;
  return mutex;
}

Registry& Contexts() {
  static Registry registry;
  return registry;
}

GpaStatus OpenContext(int api, const GpaCounterContextHardwareInfo& hardware_info, GpaOpenContextFlags flags,
                      ContextFlavor flavor, GpaContextSampleTypeFlags required, GpaCounterContext* out) {
  constexpr const char* kFunction = "GpaCounterLibOpenCounterContext";
  std::unique_ptr<BackendContext> backend;
  if (GpaStatus status = OpenOfflineBackend(kFunction, api, hardware_info, &backend); status != kGpaStatusOk) {
    return status;
  }
  if ((backend->SupportedSampleTypes() & required) != required) {
    return LogError(kGpaStatusErrorIncompatibleSampleTypes,
                    "{}: '{}' offers context sample types {:#x}, not the {:#x} this session sample type needs "
                    "(GpaCounterLibGetSupportedSampleTypes)",
                    kFunction, backend->Device().name, backend->SupportedSampleTypes(), required);
  }
  std::unique_ptr<CounterContext> context;
  if (GpaStatus status = CounterContext::Create(std::move(backend), flags, &context, flavor); status != kGpaStatusOk) {
    return status;
  }
  const HandleValue id = Contexts().Add(std::move(context));
  if (id == 0) return LogError(kGpaStatusErrorFailed, "{}: too many open contexts", kFunction);
  *out = HandleFromValue<GpaCounterContext>(id);
  return kGpaStatusOk;
}

}  // namespace opengpa::counter_library
