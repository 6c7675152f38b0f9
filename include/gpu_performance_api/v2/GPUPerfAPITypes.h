/* OpenGPA: the GPU Performance API v2 types (GPUPerfAPITypes.h), written from the v2 user guide.
   Names and values are those of AMD's last v2 release, so v2 tools compile and link unchanged: statuses
   numbered from 0 in the order below, the four result types, the usage types, the logging bits.
   These types never mix with the v3 ones (gpu_perf_api_types.h): v2 names are GPA_*, v3 names Gpa*. */
#ifndef GPU_PERFORMANCE_API_V2_GPUPERFAPITYPES_H_
#define GPU_PERFORMANCE_API_V2_GPUPERFAPITYPES_H_

#include <limits.h>

#ifndef GPALIB_DECL
#ifdef __cplusplus
#define GPALIB_DECL extern "C" __attribute__((visibility("default")))
#else
#define GPALIB_DECL extern __attribute__((visibility("default")))
#endif
#endif

typedef char gpa_int8;
typedef short gpa_int16;
typedef int gpa_int32;
typedef long long gpa_int64;
typedef float gpa_float32;
typedef double gpa_float64;
typedef unsigned char gpa_uint8;
typedef unsigned short gpa_uint16;
typedef unsigned int gpa_uint32;
typedef unsigned long long gpa_uint64;

#define GPA_INT32_MAX INT_MAX
#define GPA_INT64_MAX LLONG_MAX
#define GPA_UINT32_MAX UINT_MAX
#define GPA_UINT64_MAX ULLONG_MAX

/** What every GPA_* function returns (GPA_GetStatusAsStr names each). */
typedef enum
{
    GPA_STATUS_OK = 0,
    GPA_STATUS_ERROR_NULL_POINTER,
    GPA_STATUS_ERROR_COUNTERS_NOT_OPEN,
    GPA_STATUS_ERROR_COUNTERS_ALREADY_OPEN,
    GPA_STATUS_ERROR_INDEX_OUT_OF_RANGE,
    GPA_STATUS_ERROR_NOT_FOUND,
    GPA_STATUS_ERROR_ALREADY_ENABLED,
    GPA_STATUS_ERROR_NO_COUNTERS_ENABLED,
    GPA_STATUS_ERROR_NOT_ENABLED,
    GPA_STATUS_ERROR_SAMPLING_NOT_STARTED,
    GPA_STATUS_ERROR_SAMPLING_ALREADY_STARTED,
    GPA_STATUS_ERROR_SAMPLING_NOT_ENDED,
    GPA_STATUS_ERROR_NOT_ENOUGH_PASSES,
    GPA_STATUS_ERROR_PASS_NOT_ENDED,
    GPA_STATUS_ERROR_PASS_NOT_STARTED,
    GPA_STATUS_ERROR_PASS_ALREADY_STARTED,
    GPA_STATUS_ERROR_SAMPLE_NOT_STARTED,
    GPA_STATUS_ERROR_SAMPLE_ALREADY_STARTED,
    GPA_STATUS_ERROR_SAMPLE_NOT_ENDED,
    GPA_STATUS_ERROR_CANNOT_CHANGE_COUNTERS_WHEN_SAMPLING,
    GPA_STATUS_ERROR_SESSION_NOT_FOUND,
    GPA_STATUS_ERROR_SAMPLE_NOT_FOUND,
    GPA_STATUS_ERROR_SAMPLE_NOT_FOUND_IN_ALL_PASSES,
    GPA_STATUS_ERROR_COUNTER_NOT_OF_SPECIFIED_TYPE,
    GPA_STATUS_ERROR_READING_COUNTER_RESULT,
    GPA_STATUS_ERROR_VARIABLE_NUMBER_OF_SAMPLES_IN_PASSES,
    GPA_STATUS_ERROR_FAILED,
    GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED,
    GPA_STATUS_ERROR_DRIVER_NOT_SUPPORTED,
    GPA_STATUS_ERROR_API_NOT_SUPPORTED,
    GPA_STATUS_ERROR_LOAD_FAILED,
    GPA_STATUS_ERROR_LIB_LOAD_FAILED,
    GPA_STATUS_ERROR_LIB_LOAD_VERION_MISMATCH
} GPA_Status;

/** A counter's result type: which GPA_GetSample* reads it. */
typedef enum
{
    GPA_TYPE_FLOAT32,
    GPA_TYPE_FLOAT64,
    GPA_TYPE_UINT32,
    GPA_TYPE_UINT64,
    GPA_TYPE_INT32,
    GPA_TYPE_INT64,
    GPA_TYPE__LAST
} GPA_Type;

/** What a counter's value measures. */
typedef enum
{
    GPA_USAGE_TYPE_RATIO,
    GPA_USAGE_TYPE_PERCENTAGE,
    GPA_USAGE_TYPE_CYCLES,
    GPA_USAGE_TYPE_MILLISECONDS,
    GPA_USAGE_TYPE_BYTES,
    GPA_USAGE_TYPE_ITEMS,
    GPA_USAGE_TYPE_KILOBYTES,
    GPA_USAGE_TYPE__LAST
} GPA_Usage_Type;

/** Which messages the logging callback receives (bits). */
typedef enum
{
    GPA_LOGGING_NONE = 0x00,
    GPA_LOGGING_ERROR = 0x01,
    GPA_LOGGING_MESSAGE = 0x02,
    GPA_LOGGING_ERROR_AND_MESSAGE = GPA_LOGGING_ERROR | GPA_LOGGING_MESSAGE,
    GPA_LOG_ERROR_AND_MESSAGE = GPA_LOGGING_ERROR_AND_MESSAGE,
    GPA_LOGGING_TRACE = 0x04,
    GPA_LOGGING_ERROR_AND_TRACE = GPA_LOGGING_ERROR | GPA_LOGGING_TRACE,
    GPA_LOGGING_MESSAGE_AND_TRACE = GPA_LOGGING_MESSAGE | GPA_LOGGING_TRACE,
    GPA_LOGGING_ERROR_MESSAGE_AND_TRACE = GPA_LOGGING_ERROR | GPA_LOGGING_MESSAGE | GPA_LOGGING_TRACE,
    GPA_LOGGING_ALL = 0xFF
} GPA_Logging_Type;

/** The callback GPA_RegisterLoggingCallback takes; messages carry no trailing newline. */
typedef void (*GPA_LoggingCallbackPtrType)(GPA_Logging_Type messageType, const char* message);

#endif /* GPU_PERFORMANCE_API_V2_GPUPERFAPITYPES_H_ */
