// OpenGPA extensions (gpu_perf_api/opengpa_ext.h): what a counter is made of. Not in GpaFunctionTable;
// clients resolve them with dlsym.
#include "gpu_performance_api/opengpa_ext.h"

#include "entry/entry_support.h"

using namespace opengpa;
using namespace opengpa::entry;

namespace {

template <typename Read>
GpaStatus ReadCounterText(const char* function, const char* output_name, GpaContextId context_id, GpaUInt32 index,
                          const char** output, Read&& read) {
  return Guarded(function, [&] {
    if (output == nullptr) return NullArgument(function, output_name);
    if (context_id == nullptr) return NullArgument(function, "context_id");
    SharedLock lock(Library().mutex);
    Context* context = nullptr;
    if (GpaStatus status = FindContext(function, context_id, &context); status != kGpaStatusOk) return status;
    if (index >= context->counters().size()) {
      return LogError(kGpaStatusErrorIndexOutOfRange, "{}: index {} is not below the counter count {}", function, index,
                      context->counters().size());
    }
    *output = read(*context, context->counters().at(index));
    return kGpaStatusOk;
  });
}

}  // namespace

GpaStatus OpenGpaGetCounterFormula(GpaContextId context_id, GpaUInt32 index, const char** formula) {
  return ReadCounterText("OpenGpaGetCounterFormula", "formula", context_id, index, formula,
                         [](Context&, const PublicCounter& counter) { return counter.formula.Text().c_str(); });
}

GpaStatus OpenGpaGetCounterHardwareUnit(GpaContextId context_id, GpaUInt32 index, const char** unit) {
  return ReadCounterText("OpenGpaGetCounterHardwareUnit", "unit", context_id, index, unit,
                         [](Context& context, const PublicCounter& counter) -> const char* {
                           if (!counter.is_hardware || counter.formula.Inputs().size() != 1) return "";
                           return context.backend().HardwareCounters()[counter.formula.Inputs()[0]].unit.c_str();
                         });
}
