#include "core/context.h"

#include <string>

#include "platform/logging.h"
#include "platform/type_strings.h"

namespace opengpa {

GpaStatus Context::Open(Backend& backend, void* api_context, GpaOpenContextFlags flags, std::unique_ptr<Context>* out) {
  auto context = std::make_unique<Context>();
  context->api_context_ = api_context;
  context->flags_ = flags;
  const GpaStatus status = backend.OpenContext(api_context, flags, &context->backend_);
  if (status != kGpaStatusOk) {
    // The backend has logged why; the API context's address would mean nothing to the reader.
    return LogError(status, "GpaOpenContext: the backend could not open the context ({}, status {})",
                    StatusAsString(static_cast<int>(status)), static_cast<int>(status));
  }
  if (!context->backend_) {
    return LogError(kGpaStatusErrorFailed, "GpaOpenContext: the backend returned no context");
  }
  std::string error;
  BackendContext& backend_context = *context->backend_;
  // kGpaOpenContextHideDerivedCountersBit: no catalog, so only the hardware counters are exposed.
  const bool hide_derived = (flags & kGpaOpenContextHideDerivedCountersBit) != 0;
  if (!CounterSet::Build(backend_context.HardwareCounters(),
                         hide_derived ? std::vector<std::string_view>{} : backend_context.DerivedCatalogs(),
                         backend_context.Constants(), (flags & kGpaOpenContextEnableHardwareCountersBit) != 0,
                         &context->counters_, &error)) {
    return LogError(kGpaStatusErrorFailed, "GpaOpenContext: the counter catalogs of device '{}' do not build: {}",
                    backend_context.Device().name, error);
  }
  Log(kGpaLoggingMessage, "Opened context on '{}' with {} counters ({} hardware)", backend_context.Device().name,
      context->counters_.size(), backend_context.HardwareCounters().size());
  *out = std::move(context);
  return kGpaStatusOk;
}

}  // namespace opengpa
