// OpenGPA extensions to GPA 4 (the v4 header set's copy of include/gpu_performance_api/opengpa_ext.h, less
// the GPA 4 values v3's copy defines as extensions: here they are GPA's own enumerators).
//
// GPA's own headers (gpu_perf_api*.h) are AMD's GPA 4.3, value for value. What OpenGPA adds lives here,
// where nothing a GPA client does can meet it:
//   - values of GPA's enums that GPA never assigns, outside every Start..Last range of GPA v3.17 and
//     GPA 4: a client looping from kGpaApiStart to kGpaApiLast, or indexing a table by
//     GpaHwGeneration, never sees them. The enum-typed ones are casts of their value (macros), so that they
//     are GPA enum values in C and C++ alike;
//   - the functions libGPUPerfAPI<X>.so exports beside the Gpa* entry points but NOT in GpaFunctionTable,
//     whose layout is GPA's: resolve them with dlsym and treat a missing symbol as "not offered".
#ifndef GPU_PERFORMANCE_API_OPENGPA_EXT_H_
#define GPU_PERFORMANCE_API_OPENGPA_EXT_H_

#include "gpu_performance_api/gpu_perf_api_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Where OpenGPA's values of GPA's enums start (above every value GPA v3 and v4 assign).
#define OPENGPA_ENUM_EXTENSION_BASE 0x100

/// GpaApiType: CUDA through CUPTI, served by libGPUPerfAPICUDA.so (open-info in gpu_perf_api_cuda.h).
#define kGpaApiCuda ((GpaApiType)(OPENGPA_ENUM_EXTENSION_BASE + 0))

/// GpaHwGeneration: a CPU-emulated driver (lavapipe, llvmpipe, PoCL, SwiftShader).
#define kGpaHwGenerationSoftware ((GpaHwGeneration)(OPENGPA_ENUM_EXTENSION_BASE + 0))

/// Scalar types OpenGPA's headers used before they followed GPA exactly (GPA defines only the unsigned
/// ones); kept so that code written against them still compiles.
typedef signed char GpaInt8;
typedef short       GpaInt16;
typedef int         GpaInt32;
typedef long long   GpaInt64;
typedef GpaUInt8    GpaBool;

// What a counter is made of, for tools that explain counters (`opengpa list`).
//
// Valid usage (like every Gpa* entry point, each error is also logged, naming the argument and value):
//   - context_id is an open context      -> else kGpaStatusErrorContextNotFound
//   - index < GpaGetNumCounters          -> else kGpaStatusErrorIndexOutOfRange
//   - the out pointer is not NULL        -> else kGpaStatusErrorNullPointer
// The returned strings live as long as the context.

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
