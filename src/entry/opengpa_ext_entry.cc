// OpenGPA extensions (gpu_perf_api/opengpa_ext.h): what a counter is made of. Not in GpaFunctionTable;
// clients resolve them with dlsym.
#include "gpu_performance_api/opengpa_ext.h"

#include "entry/entry_support.h"

using namespace opengpa;
using namespace opengpa::entry;

GpaStatus OpenGpaGetCounterFormula(GpaContextId context_id, GpaUInt32 index, const char** formula) {
  return ReadContextCounter("OpenGpaGetCounterFormula", "formula", context_id, index, formula,
                            [](Context&, const PublicCounter& counter) { return counter.formula.Text().c_str(); });
}

GpaStatus OpenGpaGetCounterHardwareUnit(GpaContextId context_id, GpaUInt32 index, const char** unit) {
  return ReadContextCounter("OpenGpaGetCounterHardwareUnit", "unit", context_id, index, unit,
                            [](Context& context, const PublicCounter& counter) -> const char* {
                              if (!counter.is_hardware || counter.formula.Inputs().size() != 1) return "";
                              return context.backend().HardwareCounters()[counter.formula.Inputs()[0]].unit.c_str();
                            });
}
