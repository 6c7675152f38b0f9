// OpenGPA extensions to GPA v3: what a counter is made of, for tools that explain counters
// (`opengpa list`). Exported by every libGPUPerfAPI<X>.so next to the Gpa* entry points but NOT part of
// GpaFunctionTable, whose layout is GPA's: resolve them with dlsym and treat a missing symbol as
// "not offered by this library".
//
// Valid usage (like every Gpa* entry point, each error is also logged, naming the argument and value):
//   - context_id is an open context      -> else kGpaStatusErrorContextNotFound
//   - index < GpaGetNumCounters          -> else kGpaStatusErrorIndexOutOfRange
//   - the out pointer is not NULL        -> else kGpaStatusErrorNullPointer
// The returned strings live as long as the context.
#ifndef GPU_PERFORMANCE_API_OPENGPA_EXT_H_
#define GPU_PERFORMANCE_API_OPENGPA_EXT_H_

#include "gpu_performance_api/gpu_perf_api_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The formula of counter `index` in the catalog's language (e.g. "(a / b) * 100"), over hardware-counter
/// names and constants. A hardware counter exposed as itself (kGpaOpenContextEnableHardwareCountersBit)
/// returns its own name.
typedef GpaStatus (*OpenGpaGetCounterFormulaPtrType)(GpaContextId context_id, GpaUInt32 index, const char** formula);

/// The hardware unit a hardware counter is read from (for CUPTI metrics the unit CUPTI reports, e.g. "dram",
/// "sm", "lts"); "" for derived counters and for counters whose backend has no notion of a unit.
typedef GpaStatus (*OpenGpaGetCounterHardwareUnitPtrType)(GpaContextId context_id, GpaUInt32 index, const char** unit);

#ifndef GPA_NO_PROTOTYPES
GPA_LIB_DECL GpaStatus OpenGpaGetCounterFormula(GpaContextId context_id, GpaUInt32 index, const char** formula);
GPA_LIB_DECL GpaStatus OpenGpaGetCounterHardwareUnit(GpaContextId context_id, GpaUInt32 index, const char** unit);
#endif

#ifdef __cplusplus
}
#endif

#endif  // GPU_PERFORMANCE_API_OPENGPA_EXT_H_
