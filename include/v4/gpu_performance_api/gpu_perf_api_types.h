// OpenGPA: the GPU Performance API v4 type definitions (the v4 header set; the v3 set is include/gpu_performance_api).
//
// Names, values and layouts are those of AMD's GPA 4.3, so that a program compiled against AMD's GPA 4
// headers runs unchanged on OpenGPA's libraries (which serve the v3 and the v4 function table alike).
// tests/abi pins every value and layout. What changed from v3: GpaUuid is 16 bytes, GpaUInt64 is uint64_t,
// OpenCL left GpaApiType (kGpaApiVulkan is 3), the context and session sample types name streaming counters
// and SQTT, and the SPM result types (GpaSpmData) are new. OpenGPA's additions (the CUDA API type, the
// software-driver generation) are in opengpa_ext.h, with values outside every range GPA assigns.
#ifndef GPU_PERFORMANCE_API_GPU_PERF_API_TYPES_H_
#define GPU_PERFORMANCE_API_GPU_PERF_API_TYPES_H_

#include <limits.h>
#include <stddef.h>

#ifdef _WIN32
#include <Windows.h>
typedef HMODULE LibHandle;  ///< A loaded library (the interface loader's handle type).
typedef GUID    GpaUuid;    ///< Windows has its own GUID.
#else
typedef void* LibHandle;  ///< A loaded library: what dlopen returns.

/// A counter's UUID in the 16-byte RFC 4122 layout (GPA v4; GPA v3's data_1 was an unsigned long).
typedef struct _GpaUuid
{
    unsigned int   data_1;     ///< First part.
    unsigned short data_2;     ///< Second part.
    unsigned short data_3;     ///< Third part.
    unsigned char  data_4[8];  ///< Last eight bytes.

#ifdef __cplusplus
    /// Field-by-field equality.
    bool operator==(const _GpaUuid& other) const
    {
        for (int i = 0; i < 8; ++i)
        {
            if (data_4[i] != other.data_4[i])
            {
                return false;
            }
        }
        return data_1 == other.data_1 && data_2 == other.data_2 && data_3 == other.data_3;
    }
#endif
} GpaUuid;
#endif

typedef float              GpaFloat32;  ///< 32-bit float.
typedef double             GpaFloat64;  ///< 64-bit float.
typedef unsigned char      GpaUInt8;    ///< 8-bit unsigned integer.
typedef unsigned short     GpaUInt16;   ///< 16-bit unsigned integer.
typedef unsigned int       GpaUInt32;   ///< 32-bit unsigned integer.
#ifdef _WIN32
typedef unsigned __int64 GpaUInt64;  ///< 64-bit unsigned integer.
#else
typedef unsigned long GpaUInt64;  ///< 64-bit unsigned integer (unsigned long on LP64 Linux, as GPA v4 declares it).

/// How the Gpa* entry points are declared: C linkage, and exported from OpenGPA's libraries (which hide
/// everything else). A client may define it before including GPA's headers.
#ifndef GPA_LIB_DECL
#ifdef __cplusplus
#define GPA_LIB_DECL extern "C" __attribute__((visibility("default")))
#else
#define GPA_LIB_DECL extern __attribute__((visibility("default")))
#endif
#endif

// The Linux shims GPA's clients rely on: Windows names for what POSIX calls differently.
#ifndef UNREFERENCED_PARAMETER
#define UNREFERENCED_PARAMETER(x) (void)(x)  ///< Marks a parameter as deliberately unused.
#endif

#define _strcmpi(a, b) strcasecmp(a, b)  ///< Case-insensitive comparison (strings.h).
#define _stricmp(a, b) strcasecmp(a, b)  ///< Case-insensitive comparison (strings.h).

#define strcpy_s(dst, ndst, src) strcpy(dst, src)             ///< The bounded copy, unbounded.
#define strcat_s(dst, ndst, src) strcat(dst, src)             ///< The bounded append, unbounded.
#define strtok_s(a, b, c) strtok(a, b)                        ///< Tokenizer without the context argument.
#define strnlen_s(a, b) strlen(a)                             ///< Length without the bound.
#define strncpy_s(a, b, c, d) strncpy(a, c, d)                ///< Copy of at most d characters.

#define wcscat_s(dest, dest_size, src) wcscat(dest, src)                      ///< Wide append.
#define wcscpy_s(dest, dest_size, src) wcscpy(dest, src)                      ///< Wide copy.
#define wcsncpy_s(dest, dest_size, src, count) wcsncpy(dest, src, count)      ///< Wide copy of at most count.
#define wcsnlen_s(str, str_length) wcsnlen(str, str_length)                   ///< Bounded wide length.

#ifndef TRUE
#define TRUE 1  ///< Windows' BOOL true.
#endif

#ifndef FALSE
#define FALSE 0  ///< Windows' BOOL false.
#endif
#endif  // _WIN32

#define GPA_UINT32_MAX UINT_MAX     ///< Largest GpaUInt32.
#define GPA_UINT64_MAX ULLONG_MAX   ///< Largest GpaUInt64.

/// Opaque handles. They are ids, never dereferenced: a stale or foreign id is reported, not followed.
#define GPA_DEFINE_OBJECT(ObjectType) typedef struct _Gpa##ObjectType* Gpa##ObjectType;

GPA_DEFINE_OBJECT(ContextId)      ///< An open context (GpaOpenContext).
GPA_DEFINE_OBJECT(SessionId)      ///< A session (GpaCreateSession).
GPA_DEFINE_OBJECT(CommandListId)  ///< A command list of a session's pass (GpaBeginCommandList).

/// The value to pass as GpaBeginCommandList's command_list for APIs without command lists.
#define GPA_NULL_COMMAND_LIST NULL

/// What every Gpa* function returns. Errors are negative; docs/api-status.md lists when each is returned.
typedef enum
{
    kGpaStatusOk                                    = 0,
    kGpaStatusResultNotReady                        = 1,
    kGpaStatusMax                                   = kGpaStatusResultNotReady,
    kGpaStatusErrorNullPointer                      = -1,
    kGpaStatusErrorContextNotOpen                   = -2,
    kGpaStatusErrorContextAlreadyOpen               = -3,
    kGpaStatusErrorIndexOutOfRange                  = -4,
    kGpaStatusErrorCounterNotFound                  = -5,
    kGpaStatusErrorAlreadyEnabled                   = -6,
    kGpaStatusErrorNoCountersEnabled                = -7,
    kGpaStatusErrorNotEnabled                       = -8,
    kGpaStatusErrorCommandListAlreadyEnded          = -9,
    kGpaStatusErrorCommandListAlreadyStarted        = -10,
    kGpaStatusErrorCommandListNotEnded              = -11,
    kGpaStatusErrorNotEnoughPasses                  = -12,
    kGpaStatusErrorSampleNotStarted                 = -13,
    kGpaStatusErrorSampleAlreadyStarted             = -14,
    kGpaStatusErrorSampleNotEnded                   = -15,
    kGpaStatusErrorCannotChangeCountersWhenSampling = -16,
    kGpaStatusErrorSessionNotFound                  = -17,
    kGpaStatusErrorSampleNotFound                   = -18,
    kGpaStatusErrorContextNotFound                  = -19,
    kGpaStatusErrorCommandListNotFound              = -20,
    kGpaStatusErrorReadingSampleResult              = -21,
    kGpaStatusErrorVariableNumberOfSamplesInPasses  = -22,
    kGpaStatusErrorFailed                           = -23,
    kGpaStatusErrorHardwareNotSupported             = -24,
    kGpaStatusErrorDriverNotSupported               = -25,
    kGpaStatusErrorApiNotSupported                  = -26,
    kGpaStatusErrorInvalidParameter                 = -27,
    kGpaStatusErrorLibLoadFailed                    = -28,
    kGpaStatusErrorLibLoadMajorVersionMismatch      = -29,
    kGpaStatusErrorLibLoadMinorVersionMismatch      = -30,
    kGpaStatusErrorGpaNotInitialized                = -31,
    kGpaStatusErrorGpaAlreadyInitialized            = -32,
    kGpaStatusErrorSampleInSecondaryCommandList     = -33,
    kGpaStatusErrorIncompatibleSampleTypes          = -34,
    kGpaStatusErrorSessionAlreadyStarted            = -35,
    kGpaStatusErrorSessionNotStarted                = -36,
    kGpaStatusErrorSessionNotEnded                  = -37,
    kGpaStatusErrorInvalidDataType                  = -38,
    kGpaStatusErrorInvalidCounterEquation           = -39,
    kGpaStatusErrorTimeout                          = -40,
    kGpaStatusErrorLibAlreadyLoaded                 = -41,
    kGpaStatusErrorOtherSessionActive               = -42,
    kGpaStatusErrorException                        = -43,
    kGpaStatusErrorInvalidCounterGroupData          = -44,
    kGpaStatusMin                                   = kGpaStatusErrorInvalidCounterGroupData,
    kGpaStatusInternal                              = 256,  ///< Reserved for statuses used inside the library.
} GpaStatus;

/// The documentation of GpaIsPassComplete / GpaIsSessionComplete calls the not-ready status by this name.
#define kGpaStatusErrorResultNotReady kGpaStatusResultNotReady
/// Older spelling used in parts of the GPA documentation.
#define kGpaStatusErrorReadingSampleRequest kGpaStatusErrorReadingSampleResult

/// A set of bit flags combined into one integer.
typedef GpaUInt32 GpaFlags;

/// Flags of GpaInitialize.
typedef enum
{
    kGpaInitializeDefaultBit                  = 0,  ///< Default options.
    kGpaInitializeSimultaneousQueuesEnableBit = 1,  ///< Profile work on several queues at once (accepted; nothing to do).
    kGpaInitializeEnableSqttBit               = 3,  ///< Prepare the driver for SQTT (GPA's value, which includes bit 0).
} GpaInitializeBits;

/// GpaInitializeBits combined.
typedef GpaFlags GpaInitializeFlags;

/// Flags of GpaOpenContext.
typedef enum
{
    kGpaOpenContextDefaultBit                       = 0,     ///< Derived counters; clocks as the system sets them.
    kGpaOpenContextHideDerivedCountersBit           = 0x01,  ///< Expose no derived counters (needs EnableHardwareCounters).
    kGpaOpenContextHidePublicCountersBit            = kGpaOpenContextHideDerivedCountersBit,  ///< Older name.
    kGpaOpenContextClockModeNoneBit                 = 0x08,  ///< Clocks left as they are.
    kGpaOpenContextClockModePeakBit                 = 0x10,  ///< Clocks at peak (where a backend can set them).
    kGpaOpenContextClockModeMinMemoryBit            = 0x20,  ///< Memory clock at its minimum (where supported).
    kGpaOpenContextClockModeMinEngineBit            = 0x40,  ///< Engine clock at its minimum (where supported).
    kGpaOpenContextEnableHardwareCountersBit        = 0x80,  ///< Also expose every hardware counter as itself.
    kGpaOpenContextApiSpecificOptionsStart          = 0x10000000  ///< Bits from here on belong to one API (gpu_perf_api_vk.h).
} GpaOpenContextBits;

/// GpaOpenContextBits combined.
typedef GpaFlags GpaOpenContextFlags;

/// A counter's result type.
typedef enum
{
    kGpaDataTypeFloat64,  ///< 64-bit float.
    kGpaDataTypeUint64,   ///< 64-bit unsigned integer.
    kGpaDataTypeLast      ///< Marker: one past the last.
} GpaDataType;

/// What a counter's result measures.
typedef enum
{
    kGpaUsageTypeRatio,         ///< A ratio of two values.
    kGpaUsageTypePercentage,    ///< A percentage, usually within [0, 100].
    kGpaUsageTypeCycles,        ///< Clock cycles.
    kGpaUsageTypeMilliseconds,  ///< Milliseconds.
    kGpaUsageTypeBytes,         ///< Bytes.
    kGpaUsageTypeItems,         ///< A count of items (vertices, primitives, threads, ...).
    kGpaUsageTypeKilobytes,     ///< Kilobytes.
    kGpaUsageTypeNanoseconds,   ///< Nanoseconds.
    kGpaUsageTypeLast           ///< Marker: one past the last.
} GpaUsageType;

/// Which messages the logging callback receives (a mask).
typedef enum
{
    kGpaLoggingNone                    = 0x00,
    kGpaLoggingError                   = 0x01,
    kGpaLoggingMessage                 = 0x02,
    kGpaLoggingErrorAndMessage         = kGpaLoggingError | kGpaLoggingMessage,
    kGpaLogErrorAndMessage             = kGpaLoggingErrorAndMessage,  ///< Older name.
    kGpaLoggingTrace                   = 0x04,
    kGpaLoggingErrorAndTrace           = kGpaLoggingError | kGpaLoggingTrace,
    kGpaLoggingMessageAndTrace         = kGpaLoggingMessage | kGpaLoggingTrace,
    kGpaLoggingErrorMessageAndTrace    = kGpaLoggingError | kGpaLoggingMessage | kGpaLoggingTrace,
    kGpaLoggingAll                     = 0xFF,
    kGpaLoggingDebugError              = 0x0100,
    kGpaLoggingDebugMessage            = 0x0200,
    kGpaLoggingDebugTrace              = 0x0400,
    kGpaLoggingDebugCounterDefinitions = 0x0800,
    kGpaLoggingInternal                = 0x1000,
    kGpaLoggingDebugAll                = 0xFF00
} GpaLoggingType;

/// The graphics and compute APIs GPA 4 knows (OpenCL is gone, so Vulkan is 3 where GPA v3 had 5).
/// OpenGPA's CUDA is kGpaApiCuda (opengpa_ext.h), outside this range.
typedef enum
{
    kGpaApiStart,                     ///< Marker: the first.
    kGpaApiDirectx11 = kGpaApiStart,  ///< DirectX 11 (no OpenGPA library).
    kGpaApiDirectx12,                 ///< DirectX 12 (no OpenGPA library).
    kGpaApiOpengl,                    ///< OpenGL: libGPUPerfAPIGL.so.
    kGpaApiVulkan,                    ///< Vulkan: libGPUPerfAPIVK.so.
    kGpaApiNoSupport,                 ///< APIs not (or no longer) supported.
    kGpaApiLast                       ///< Marker: one past the last.
} GpaApiType;

/// GPU hardware generations. OpenGPA reports NVIDIA GPUs as kGpaHwGenerationNvidia (the chip, e.g. "GH100",
/// is part of GpaGetDeviceName) and CPU-emulated drivers as kGpaHwGenerationSoftware (opengpa_ext.h).
typedef enum
{
    kGpaHwGenerationNone,                                   ///< Unknown.
    kGpaHwGenerationNvidia,                                 ///< NVIDIA GPUs.
    kGpaHwGenerationIntel,                                  ///< Intel GPUs.
    kGpaHwGenerationGfx6,                                   ///< AMD GFX IP 6.
    kGpaHwGenerationSouthernIsland = kGpaHwGenerationGfx6,  ///< Older name.
    kGpaHwGenerationGfx7,                                   ///< AMD GFX IP 7.
    kGpaHwGenerationSeaIsland = kGpaHwGenerationGfx7,       ///< Older name.
    kGpaHwGenerationGfx8,                                   ///< AMD GFX IP 8.
    kGpaHwGenerationVolcanicIsland = kGpaHwGenerationGfx8,  ///< Older name.
    kGpaHwGenerationGfx9,                                   ///< AMD GFX IP 9.
    kGpaHwGenerationGfx10,                                  ///< AMD GFX IP 10.
    kGpaHwGenerationGfx103,                                 ///< AMD GFX IP 10.3.
    kGpaHwGenerationGfx11,                                  ///< AMD GFX IP 11.
    kGpaHwGenerationCdna,                                   ///< AMD CDNA.
    kGpaHwGenerationCdna2,                                  ///< AMD CDNA 2.
    kGpaHwGenerationCdna3,                                  ///< AMD CDNA 3.
    kGpaHwGenerationGfx12,                                  ///< AMD GFX IP 12.
    kGpaHwGenerationCdna4,                                  ///< AMD CDNA 4.
    kGpaHwGenerationLast                                    ///< Marker: one past the last.
} GpaHwGeneration;

/// Command list / command buffer types.
typedef enum
{
    kGpaCommandListNone,       ///< APIs without command lists (OpenGL, OpenCL, CUDA): pass GPA_NULL_COMMAND_LIST.
    kGpaCommandListPrimary,    ///< A Vulkan primary command buffer.
    kGpaCommandListSecondary,  ///< A Vulkan secondary command buffer.
    kGpaCommandListLast        ///< Marker: one past the last.
} GpaCommandListType;

/// How a counter can be sampled (GpaGetCounterSampleType).
typedef enum
{
    kGpaCounterSampleTypeDiscrete  = 0x1,  ///< One value per measured workload.
    kGpaCounterSampleTypeStreaming = 0x2,  ///< A time series (streaming-counter sessions).
} GpaCounterSampleType;

/// Which sample types a context supports (GpaGetSupportedSampleTypes), as bits.
typedef enum
{
    kGpaContextSampleTypeDiscreteCounter  = 0x1,  ///< Discrete counters (every OpenGPA context).
    kGpaContextSampleTypeStreamingCounter = 0x2,  ///< Streaming counters (live CUDA contexts: CUPTI PM sampling).
    kGpaContextSampleTypeSqtt             = 0x4,  ///< Shader instruction traces (no OpenGPA context: docs/gpa4.md).
} GpaContextSampleTypeBits;

/// GpaContextSampleTypeBits combined.
typedef GpaFlags GpaContextSampleTypeFlags;

/// The kind of samples a session collects (GpaCreateSession).
typedef enum
{
    kGpaSessionSampleTypeDiscreteCounter,          ///< Discrete counters: one value per sample.
    kGpaSessionSampleTypeStreamingCounter,         ///< Streaming counters: time series over the session (GpaSpm*).
    kGpaSessionSampleTypeSqtt,                     ///< Shader instruction traces (GpaSqtt*).
    kGpaSessionSampleTypeStreamingCounterAndSqtt,  ///< Both at once (GpaSqttSpm*).
    kGpaSessionSampleTypeLast                      ///< Marker: one past the last.
} GpaSessionSampleType;

/// Which instructions an SQTT trace details (GpaSqttSetInstructionMask).
typedef enum
{
    kGpaSqttInstructionTypeNone = 0x0,         ///< No instruction detail.
    kGpaSqttInstructionTypeAll  = 0x7FFFFFFF,  ///< Every instruction type.
} GpaSqttInstructionBits;

/// GpaSqttInstructionBits combined.
typedef GpaFlags GpaSqttInstructionFlags;

/// Where one streamed counter's values lie in GpaSpmData::counter_data_16bit.
typedef struct GpaSpmCounterInfo
{
    GpaUInt32 gpu_block_id;        ///< The hardware block the counter belongs to.
    GpaUInt32 gpu_block_instance;  ///< The instance of that block.
    GpaUInt32 data_offset;         ///< Index of the counter's first value in counter_data_16bit.
    GpaUInt32 event_index;         ///< The block's event the counter counts.
} GpaSpmCounterInfo;

/// Streamed counter values as GpaSpmCalculateDerivedCounters takes them: one value per counter per timestamp.
typedef struct GpaSpmData
{
    GpaUInt32                number_of_timestamps;             ///< Entries of timestamps.
    GpaUInt32                number_of_spm_counter_info;       ///< Entries of spm_counter_info.
    GpaUInt32                number_of_counter_data;           ///< Entries of counter_data_16bit.
    GpaUInt32                number_of_bytes_per_counter_data; ///< Bytes per entry of counter_data_16bit.
    const GpaUInt64*         timestamps;                       ///< Time of each sample.
    const GpaSpmCounterInfo* spm_counter_info;                 ///< Where each counter's values are.
    const GpaUInt16*         counter_data_16bit;               ///< The values.
} GpaSpmData;

#endif  // GPU_PERFORMANCE_API_GPU_PERF_API_TYPES_H_
