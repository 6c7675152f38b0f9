// OpenGPA's additions to the offline counter library (libGPUPerfAPICounters.so), outside AMD's table, for v4 clients
// (the same exports as the v3 set's opengpa_counters_ext.h declares):
// AMD's counter library has no logging callback, so refusals would be silent; this one receives the same
// messages GpaRegisterLoggingCallback does in the live libraries. Look them up with dlsym. Also each counter's
// formula, and the attribute types that describe an Arm Mali GPU's configuration.
#ifndef GPU_PERF_API_OPENGPA_COUNTERS_EXT_H_
#define GPU_PERF_API_OPENGPA_COUNTERS_EXT_H_

#include "gpu_performance_api/gpu_perf_api_counters.h"
#include "gpu_performance_api/gpu_perf_api_function_types.h"
#include "gpu_performance_api/opengpa_ext.h"

/// GpaHardwareAttributeType values for a device configuration AMD's attribute types cannot state, outside every
/// value GPA assigns (OPENGPA_ENUM_EXTENSION_BASE + n). An Arm Mali GPU's (docs/arm-mali.md): the number of L2
/// cache slices (the Mali counters' MALI_CONFIG_L2_CACHE_COUNT) and the bytes per external bus beat
/// (MALI_CONFIG_EXT_BUS_BYTE_SIZE); its shader core count is AMD's kGpaHardwareAttributeNumComputeUnits.
#define kGpaHardwareAttributeL2SliceCount ((GpaHardwareAttributeType)(OPENGPA_ENUM_EXTENSION_BASE + 0))
#define kGpaHardwareAttributeExternalBusBytes ((GpaHardwareAttributeType)(OPENGPA_ENUM_EXTENSION_BASE + 1))

/// Registers `callback` for the messages of `logging_type` (kGpaLoggingNone and NULL to stop).
GPU_PERF_API_COUNTERS_DECL GpaStatus OpenGpaCounterLibRegisterLoggingCallback(GpaLoggingType            logging_type,
                                                                             GpaLoggingCallbackPtrType callback);
typedef GpaStatus (*OpenGpaCounterLibRegisterLoggingCallbackPtrType)(GpaLoggingType, GpaLoggingCallbackPtrType);

/// The formula of counter `gpa_counter_index` as the live libraries' OpenGpaGetCounterFormula gives it: a derived
/// counter's catalog formula, a hardware counter's own name. Valid until the context is closed.
GPU_PERF_API_COUNTERS_DECL GpaStatus OpenGpaCounterLibGetCounterFormula(const GpaCounterContext gpa_virtual_context,
                                                                       GpaUInt32                gpa_counter_index,
                                                                       const char**             formula);
typedef GpaStatus (*OpenGpaCounterLibGetCounterFormulaPtrType)(const GpaCounterContext, GpaUInt32, const char**);

#endif  // GPU_PERF_API_OPENGPA_COUNTERS_EXT_H_
