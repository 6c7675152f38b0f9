// OpenGPA extensions to GPA v3.
//
// GPA's own headers (gpu_perf_api*.h) are AMD's GPA v3.17, value for value. What OpenGPA adds lives here,
// where nothing a GPA client does can meet it:
//   - values of GPA's enums that GPA never assigns, outside every Start..Last range of GPA v3.17 (and of
//     GPA v4): a client looping from kGpaApiStart to kGpaApiLast, or indexing a table by
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

/// GpaInitializeBits: GPA's simultaneous-queues bit (GPA v4's value; GPA's own tests pass it to GPA v3). OpenGPA
/// accepts it and needs nothing from it.
#define kGpaInitializeSimultaneousQueuesEnableBit ((GpaInitializeFlags)0x01)

/// GpaContextSampleTypeBits: the bits a context may add to GpaGetSupportedSampleTypes' mask. GPA v3.17
/// assigns no bit (its only type, kGpaContextSampleTypeDiscreteCounter, is 0); GPA v4 gives these two bits
/// the same meaning. A live CUDA context (compute capability 8.6 or newer) offers streaming counters (CUPTI PM
/// sampling); no context offers SQTT.
#define kGpaContextSampleTypeStreamingCounter ((GpaContextSampleTypeFlags)0x02)
#define kGpaContextSampleTypeSqtt ((GpaContextSampleTypeFlags)0x04)

/// GpaCounterSampleType: a counter that can be streamed (GPA v4's value; GPA v3.17 defines only 0x1).
#define kGpaCounterSampleTypeStreaming ((GpaCounterSampleType)0x02)

/// GpaSessionSampleType: sessions beyond discrete counters, past kGpaSessionSampleTypeLast. The low byte
/// is GPA v4's value of the same type. A context refuses them (kGpaStatusErrorIncompatibleSampleTypes)
/// unless GpaGetSupportedSampleTypes reports the bits they need.
#define kGpaSessionSampleTypeStreamingCounter ((GpaSessionSampleType)(OPENGPA_ENUM_EXTENSION_BASE + 1))
#define kGpaSessionSampleTypeSqtt ((GpaSessionSampleType)(OPENGPA_ENUM_EXTENSION_BASE + 2))
#define kGpaSessionSampleTypeStreamingCounterAndSqtt ((GpaSessionSampleType)(OPENGPA_ENUM_EXTENSION_BASE + 3))

/// Scalar types OpenGPA's headers used before they followed GPA v3.17 exactly (GPA defines only the unsigned
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

// Streaming counters (sessions of kGpaSessionSampleTypeStreamingCounter; docs/gpa4.md "Streaming counters").
// GPA v3 has no call for a time series, and GPA 4's GpaSpmGetSampleResult gives each sample's end only; these
// give every client the whole series. Valid usage: session_id is an existing session (else NullPointer /
// kGpaStatusErrorSessionNotFound) of a streaming type (else kGpaStatusErrorIncompatibleSampleTypes).

/// What a streaming session sampled, in ns. Samples are stamped by the GPU (PM sampling's record times on NVIDIA);
/// begin_ns and end_ns by the host when sampling started and stopped (cuptiGetTimestamp on NVIDIA): compare them
/// with the samples' times only to the millisecond.
typedef struct OpenGpaStreamingInfo
{
    GpaUInt32 sample_count;           ///< Samples in the series (OpenGpaGetStreamingSamples' rows).
    GpaUInt32 enabled_counter_count;  ///< Values per sample.
    GpaUInt64 interval_ns;            ///< The sampling interval.
    GpaUInt64 begin_ns;               ///< When sampling started (after GpaSpmBegin / GpaBeginSample).
    GpaUInt64 end_ns;                 ///< When it stopped (GpaSpmEnd / GpaEndSample, after the work submitted).
    GpaUInt64 covered_ns;             ///< How much of end_ns - begin_ns the samples cover.
    GpaUInt64 lost_sample_count;      ///< Samples missing between samples (holes, also logged); 0 when none.
    GpaUInt64 overflow_count;         ///< Times the hardware buffer reported an overflow (also logged).
} OpenGpaStreamingInfo;

/// Sets how a streaming session samples, before its streaming begins (after: CannotChangeCountersWhenSampling).
/// interval_ns: GPU time between samples (0 keeps the current value; default 100 us; at least 10 us on CUDA).
/// hardware_buffer_bytes: the buffer samples wait in for the host (0 keeps it; default: sized from the duration
/// of GpaSpmSetDuration, at least 64 MiB; at least 4 MiB on CUDA).
typedef GpaStatus (*OpenGpaSetStreamingOptionsPtrType)(GpaSessionId session_id, GpaUInt64 interval_ns,
                                                       GpaUInt64 hardware_buffer_bytes);

/// After GpaEndSession (else kGpaStatusErrorSessionNotEnded): what the session sampled; info not NULL
/// (else NullPointer). A session that never streamed: kGpaStatusErrorSampleNotFound.
typedef GpaStatus (*OpenGpaGetStreamingInfoPtrType)(GpaSessionId session_id, OpenGpaStreamingInfo* info);

/// After GpaEndSession: samples first_sample .. first_sample + sample_count - 1 (within sample_count of
/// OpenGpaGetStreamingInfo, else kGpaStatusErrorIndexOutOfRange). Each array may be NULL (not written):
/// start_ns[i], end_ns[i]: sample i's span; results[i * enabled_counter_count + e]: enabled counter e (in
/// GpaGetEnabledIndex order) over sample i, 64 bits as GpaGetSampleResult writes them.
typedef GpaStatus (*OpenGpaGetStreamingSamplesPtrType)(GpaSessionId session_id, GpaUInt32 first_sample,
                                                       GpaUInt32 sample_count, GpaUInt64* start_ns, GpaUInt64* end_ns,
                                                       GpaUInt64* results);

#ifndef GPA_NO_PROTOTYPES
GPA_LIB_DECL GpaStatus OpenGpaSetStreamingOptions(GpaSessionId session_id, GpaUInt64 interval_ns,
                                                  GpaUInt64 hardware_buffer_bytes);
GPA_LIB_DECL GpaStatus OpenGpaGetStreamingInfo(GpaSessionId session_id, OpenGpaStreamingInfo* info);
GPA_LIB_DECL GpaStatus OpenGpaGetStreamingSamples(GpaSessionId session_id, GpaUInt32 first_sample,
                                                  GpaUInt32 sample_count, GpaUInt64* start_ns, GpaUInt64* end_ns,
                                                  GpaUInt64* results);
#endif

#ifdef __cplusplus
}
#endif

#endif  // GPU_PERFORMANCE_API_OPENGPA_EXT_H_
