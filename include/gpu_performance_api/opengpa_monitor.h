// OpenGPA extension: real-time (non-replay) counter monitoring.
//
// A monitor samples device counters at a fixed interval while applications run, with no replay and no
// instrumentation of the application: NVML device counters (utilisation, clocks, power, temperature,
// PCIe throughput, memory, energy) and, on GPUs that support it, hardware counters sampled by the GPU
// itself through CUPTI PM sampling. It is GPA's streaming-counter idea (kGpaSessionSampleTypeStreamingCounter)
// as a small stand-alone API: see docs/realtime.md for the mapping and the measurements behind it.
//
// Every vendor library is loaded at run time: a program using this API starts, and gets a clean
// status, on a machine without an NVIDIA driver. Functions return GpaStatus; a failure also goes to the
// logging callback with the argument and value at fault.
//
// Lifetime: Create -> (Start -> Read... -> Stop)* -> Destroy. Read, GetDroppedRecordCount and
// WriteMetricsText may be called from any thread while the monitor runs.
#ifndef GPU_PERFORMANCE_API_OPENGPA_MONITOR_H_
#define GPU_PERFORMANCE_API_OPENGPA_MONITOR_H_

#include "gpu_performance_api/gpu_perf_api_function_types.h"  // GpaLoggingCallbackPtrType
#include "gpu_performance_api/gpu_perf_api_types.h"
#include "gpu_performance_api/opengpa_ext.h"  // GpaBool

#ifdef __cplusplus
extern "C" {
#endif

/// A monitor handle: an id, never dereferenced; a destroyed or foreign handle is reported, not followed.
typedef struct _OpenGpaMonitor* OpenGpaMonitor;

/// One value of one counter on one GPU.
typedef struct OpenGpaMonitorRecord
{
    GpaUInt64 timestamp_ns;  ///< end of the interval the value covers, ns since the Unix epoch
    GpaUInt64 duration_ns;   ///< length of that interval; 0 for an instantaneous reading
    GpaUInt32 device_index;
    GpaUInt32 counter_index; ///< index for OpenGpaMonitorGetCounterInfo
    GpaFloat64 value;
} OpenGpaMonitorRecord;

/// Called on the sampler thread after each tick with that tick's records (they are also kept for Read).
typedef void (*OpenGpaMonitorRecordCallback)(const OpenGpaMonitorRecord* records, GpaUInt32 count, void* user_data);

/// How a monitor is set up. Zero-initialise, set struct_size = sizeof(OpenGpaMonitorConfig), then the
/// fields you need; zero means the default.
typedef struct OpenGpaMonitorConfig
{
    GpaUInt32 struct_size;                 ///< sizeof(OpenGpaMonitorConfig)
    GpaUInt32 interval_ms;                 ///< sampler tick, 10..3600000; 0: 1000
    const GpaUInt32* device_indices;       ///< GPUs by nvidia-smi index; NULL: every GPU
    GpaUInt32 device_count;
    /// Counter names: NVML counters ("gpu_utilization_percent", see docs/realtime.md), GPM counters
    /// ("gpm_sm_activity_percent"), CUPTI metric names ("sm__cycles_active.avg"), "nvml" (every NVML
    /// counter), "gpm" (every GPM counter) or "pm" (the default PM set).
    /// NULL: "nvml" and, where every monitored GPU has GPM (Hopper and newer), "gpm".
    const char* const* counter_names;
    GpaUInt32 counter_count;
    GpaUInt64 pm_interval_ns;              ///< hardware interval of PM sampling; 0: 1000000 (1 ms)
    GpaUInt64 pm_hardware_buffer_bytes;    ///< GPU-side buffer PM records wait in until decoded; 0: the default (docs/realtime.md)
    GpaUInt32 record_capacity;             ///< records kept for Read before the oldest are dropped; 0: 262144
    const char* nvml_library;              ///< path or soname of libnvidia-ml; NULL: $OPENGPA_NVML_LIBRARY, then libnvidia-ml.so.1
    const char* cupti_library;             ///< path or soname of libcupti; NULL: $OPENGPA_CUPTI_LIBRARY, then libcupti.so.13
    OpenGpaMonitorRecordCallback callback; ///< optional
    void* callback_user_data;
} OpenGpaMonitorConfig;

typedef enum
{
    kOpenGpaCounterKindGauge = 0,  ///< a reading: clock, temperature, a utilisation over the record's interval
    kOpenGpaCounterKindDelta = 1   ///< an amount accumulated over the record's interval: bytes, joules, cycles
} OpenGpaCounterKind;

typedef enum
{
    kOpenGpaCounterOriginNvml = 0,
    kOpenGpaCounterOriginCuptiPmSampling = 1,
    kOpenGpaCounterOriginOther = 2,
    kOpenGpaCounterOriginNvmlGpm = 3  ///< NVML's GPM metrics (Hopper and newer); runs beside profilers
} OpenGpaCounterOrigin;

/// One enabled counter. The strings live as long as the monitor.
typedef struct OpenGpaMonitorCounterInfo
{
    const char* name;
    const char* description;
    const char* unit;
    OpenGpaCounterKind kind;
    OpenGpaCounterOrigin origin;
} OpenGpaMonitorCounterInfo;

/// One monitored GPU. The strings live as long as the monitor.
typedef struct OpenGpaMonitorDeviceInfo
{
    GpaUInt32 index;   ///< the value of OpenGpaMonitorRecord::device_index
    const char* uuid;  ///< "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"
    const char* name;
} OpenGpaMonitorDeviceInfo;

/// Routes the monitor's error and information messages to `callback` (NULL turns logging off).
GPA_LIB_DECL GpaStatus OpenGpaMonitorRegisterLoggingCallback(GpaLoggingType logging_type,
                                                              GpaLoggingCallbackPtrType callback);

/// Loads the vendor libraries the counters need, opens the GPUs and checks every counter once.
/// kGpaStatusErrorLibLoadFailed: NVML (or CUPTI) is not installed; kGpaStatusErrorCounterNotFound: a
/// name is unknown; kGpaStatusErrorHardwareNotSupported: a GPU cannot provide a counter;
/// kGpaStatusErrorNotEnoughPasses: the PM metrics do not fit the single pass PM sampling allows.
GPA_LIB_DECL GpaStatus OpenGpaMonitorCreate(const OpenGpaMonitorConfig* config, OpenGpaMonitor* monitor);
GPA_LIB_DECL GpaStatus OpenGpaMonitorDestroy(OpenGpaMonitor monitor);  ///< stops it first if running

GPA_LIB_DECL GpaStatus OpenGpaMonitorGetCounterCount(OpenGpaMonitor monitor, GpaUInt32* count);
GPA_LIB_DECL GpaStatus OpenGpaMonitorGetCounterInfo(OpenGpaMonitor monitor, GpaUInt32 index,
                                                     OpenGpaMonitorCounterInfo* info);
GPA_LIB_DECL GpaStatus OpenGpaMonitorGetDeviceCount(OpenGpaMonitor monitor, GpaUInt32* count);
GPA_LIB_DECL GpaStatus OpenGpaMonitorGetDeviceInfo(OpenGpaMonitor monitor, GpaUInt32 index,
                                                    OpenGpaMonitorDeviceInfo* info);

/// Starts the sampler thread; the first tick is immediate. kGpaStatusErrorSessionAlreadyStarted if running.
GPA_LIB_DECL GpaStatus OpenGpaMonitorStart(OpenGpaMonitor monitor);
/// Stops sampling and keeps what the sources still held for Read. kGpaStatusErrorSessionNotStarted if not running.
GPA_LIB_DECL GpaStatus OpenGpaMonitorStop(OpenGpaMonitor monitor);

/// Moves up to `capacity` of the oldest unread records into `records`; `*count` says how many.
GPA_LIB_DECL GpaStatus OpenGpaMonitorRead(OpenGpaMonitor monitor, OpenGpaMonitorRecord* records, GpaUInt32 capacity,
                                          GpaUInt32* count);
/// Records overwritten because nobody read them in time (the buffer holds record_capacity).
GPA_LIB_DECL GpaStatus OpenGpaMonitorGetDroppedRecordCount(OpenGpaMonitor monitor, GpaUInt64* count);

/// The latest values as Prometheus text (openmetrics = 0) or OpenMetrics 1.0 (openmetrics = 1), NUL-
/// terminated. `*size` is in: the buffer's size, out: the size needed including the NUL; a NULL buffer
/// asks for the size. kGpaStatusErrorIndexOutOfRange when the buffer is too small.
GPA_LIB_DECL GpaStatus OpenGpaMonitorWriteMetricsText(OpenGpaMonitor monitor, GpaBool openmetrics, char* buffer,
                                                      GpaUInt32* size);
/// Serves GET /metrics for Prometheus on `listen_address` ("9400", "127.0.0.1:9400"; a bare port binds
/// 127.0.0.1; port 0 picks a free one, returned in `*bound_port`) until the monitor is destroyed.
GPA_LIB_DECL GpaStatus OpenGpaMonitorServeMetrics(OpenGpaMonitor monitor, const char* listen_address,
                                                  GpaUInt16* bound_port);

#ifdef __cplusplus
}
#endif

#endif  // GPU_PERFORMANCE_API_OPENGPA_MONITOR_H_
