// OpenGPA: the GPU Performance API (GPA v3) type definitions.
// Names and values follow GPA v3 so that code written against GPA compiles unchanged.
// OpenGPA additions are marked "OpenGPA extension".
#ifndef GPU_PERFORMANCE_API_GPU_PERF_API_TYPES_H_
#define GPU_PERFORMANCE_API_GPU_PERF_API_TYPES_H_

#include <stddef.h>
#include <stdint.h>

#ifdef _WIN32
#define GPA_LIB_DECL __declspec(dllimport)
#else
#define GPA_LIB_DECL __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
#define GPA_EXTERN_C extern "C"
#else
#define GPA_EXTERN_C
#endif

typedef int8_t GpaInt8;
typedef uint8_t GpaUInt8;
typedef int16_t GpaInt16;
typedef uint16_t GpaUInt16;
typedef int32_t GpaInt32;
typedef uint32_t GpaUInt32;
typedef int64_t GpaInt64;
typedef uint64_t GpaUInt64;
typedef float GpaFloat32;
typedef double GpaFloat64;
typedef uint8_t GpaBool;

/// Opaque handles. They are ids, never dereferenced: a stale or foreign id is reported, not followed.
#define GPA_DEFINE_OBJECT(name) typedef struct _Gpa##name* Gpa##name;
GPA_DEFINE_OBJECT(ContextId)
GPA_DEFINE_OBJECT(SessionId)
GPA_DEFINE_OBJECT(CommandListId)

/// The value to pass as GpaBeginCommandList's command_list for APIs without command lists.
#define GPA_NULL_COMMAND_LIST NULL

/// Version of the function table (GpaFunctionTable::major_version).
#define GPA_FUNCTION_TABLE_MAJOR_VERSION_NUMBER 3

typedef enum
{
    kGpaStatusOk                                   = 0,
    kGpaStatusResultNotReady                       = 1,
    kGpaStatusMax                                  = kGpaStatusResultNotReady,
    kGpaStatusErrorNullPointer                     = -1,
    kGpaStatusErrorContextNotOpen                  = -2,
    kGpaStatusErrorContextAlreadyOpen              = -3,
    kGpaStatusErrorIndexOutOfRange                 = -4,
    kGpaStatusErrorCounterNotFound                 = -5,
    kGpaStatusErrorAlreadyEnabled                  = -6,
    kGpaStatusErrorNoCountersEnabled               = -7,
    kGpaStatusErrorNotEnabled                      = -8,
    kGpaStatusErrorCommandListAlreadyEnded         = -9,
    kGpaStatusErrorCommandListAlreadyStarted       = -10,
    kGpaStatusErrorCommandListNotEnded             = -11,
    kGpaStatusErrorNotEnoughPasses                 = -12,
    kGpaStatusErrorSampleNotStarted                = -13,
    kGpaStatusErrorSampleAlreadyStarted            = -14,
    kGpaStatusErrorSampleNotEnded                  = -15,
    kGpaStatusErrorCannotChangeCountersWhenSampling = -16,
    kGpaStatusErrorSessionNotFound                 = -17,
    kGpaStatusErrorSampleNotFound                  = -18,
    kGpaStatusErrorContextNotFound                 = -19,
    kGpaStatusErrorCommandListNotFound             = -20,
    kGpaStatusErrorReadingSampleResult             = -21,
    kGpaStatusErrorVariableNumberOfSamplesInPasses = -22,
    kGpaStatusErrorFailed                          = -23,
    kGpaStatusErrorHardwareNotSupported            = -24,
    kGpaStatusErrorDriverNotSupported              = -25,
    kGpaStatusErrorApiNotSupported                 = -26,
    kGpaStatusErrorInvalidParameter                = -27,
    kGpaStatusErrorLibLoadFailed                   = -28,
    kGpaStatusErrorLibLoadMajorVersionMismatch     = -29,
    kGpaStatusErrorLibLoadMinorVersionMismatch     = -30,
    kGpaStatusErrorGpaNotInitialized               = -31,
    kGpaStatusErrorGpaAlreadyInitialized           = -32,
    kGpaStatusErrorSampleInSecondaryCommandList    = -33,
    kGpaStatusErrorIncompatibleSampleTypes         = -34,
    kGpaStatusErrorSessionAlreadyStarted           = -35,
    kGpaStatusErrorSessionNotStarted               = -36,
    kGpaStatusErrorSessionNotEnded                 = -37,
    kGpaStatusErrorInvalidDataType                 = -38,
    kGpaStatusErrorInvalidCounterEquation          = -39,
    kGpaStatusErrorTimeout                         = -40,
    kGpaStatusErrorLibAlreadyLoaded                = -41,
    kGpaStatusErrorOtherSessionActive              = -42,
    kGpaStatusErrorException                       = -43,
    kGpaStatusMin                                  = kGpaStatusErrorException,
    kGpaStatusInternal                             = 256,
} GpaStatus;

/// The documentation of GpaIsPassComplete / GpaIsSessionComplete calls the not-ready status by this name.
#define kGpaStatusErrorResultNotReady kGpaStatusResultNotReady
/// Older spelling used in parts of the GPA documentation.
#define kGpaStatusErrorReadingSampleRequest kGpaStatusErrorReadingSampleResult

typedef enum
{
    kGpaLoggingNone                  = 0,
    kGpaLoggingError                 = 0x01,
    kGpaLoggingMessage               = 0x02,
    kGpaLoggingErrorAndMessage       = kGpaLoggingError | kGpaLoggingMessage,
    kGpaLoggingTrace                 = 0x04,
    kGpaLoggingErrorAndTrace         = kGpaLoggingError | kGpaLoggingTrace,
    kGpaLoggingMessageAndTrace       = kGpaLoggingMessage | kGpaLoggingTrace,
    kGpaLoggingErrorMessageAndTrace  = kGpaLoggingError | kGpaLoggingMessage | kGpaLoggingTrace,
    kGpaLoggingAll                   = 0xFF,
    kGpaLoggingDebugError            = 0x0100,
    kGpaLoggingDebugMessage          = 0x0200,
    kGpaLoggingDebugTrace            = 0x0400,
    kGpaLoggingDebugCounterDefinitions = 0x0800,
    kGpaLoggingInternal              = 0x1000,
    kGpaLoggingDebugAll              = 0xFF00
} GpaLoggingType;

typedef void (*GpaLoggingCallbackPtrType)(GpaLoggingType message_type, const char* message);

typedef enum
{
    kGpaApiStart,
    kGpaApiDirectx11 = kGpaApiStart,
    kGpaApiDirectx12,
    kGpaApiOpengl,
    kGpaApiOpencl,
    kGpaApiDeprecated,
    kGpaApiVulkan,
    kGpaApiNoSupport,
    kGpaApiCuda,  ///< OpenGPA extension: CUDA through CUPTI (libGPUPerfAPICUDA.so).
    kGpaApiLast
} GpaApiType;

typedef enum
{
    kGpaDataTypeFloat64,
    kGpaDataTypeUint64,
    kGpaDataTypeLast
} GpaDataType;

typedef enum
{
    kGpaUsageTypeRatio,
    kGpaUsageTypePercentage,
    kGpaUsageTypeCycles,
    kGpaUsageTypeMilliseconds,
    kGpaUsageTypeBytes,
    kGpaUsageTypeItems,
    kGpaUsageTypeKilobytes,
    kGpaUsageTypeNanoseconds,
    kGpaUsageTypeLast
} GpaUsageType;

/// GPU hardware generations. OpenGPA reports NVIDIA chips as kGpaHwGenerationNvidia (the chip name,
/// e.g. "GH100", is part of GpaGetDeviceName) and CPU-emulated drivers as kGpaHwGenerationSoftware.
typedef enum
{
    kGpaHwGenerationNone,
    kGpaHwGenerationNvidia,
    kGpaHwGenerationIntel,
    kGpaHwGenerationGfx6,
    kGpaHwGenerationGfx7,
    kGpaHwGenerationGfx8,
    kGpaHwGenerationGfx9,
    kGpaHwGenerationGfx10,
    kGpaHwGenerationGfx103,
    kGpaHwGenerationGfx11,
    kGpaHwGenerationSoftware,  ///< OpenGPA extension: lavapipe, llvmpipe, PoCL.
    kGpaHwGenerationLast
} GpaHwGeneration;

typedef enum
{
    kGpaCommandListNone,
    kGpaCommandListPrimary,
    kGpaCommandListSecondary,
    kGpaCommandListLast
} GpaCommandListType;

typedef enum
{
    kGpaInitializeDefaultBit                 = 0,
    kGpaInitializeSimultaneousQueuesEnableBit = 1 << 0,
    kGpaInitializeAllBits                    = kGpaInitializeSimultaneousQueuesEnableBit  ///< OpenGPA: every known bit.
} GpaInitializeBits;
typedef GpaUInt32 GpaInitializeFlags;

typedef enum
{
    kGpaOpenContextDefaultBit                 = 0,
    kGpaOpenContextHideSoftwareCountersBit    = 1 << 0,  ///< Kept for source compatibility; has no effect.
    kGpaOpenContextClockModeNoneBit           = 1 << 1,
    kGpaOpenContextClockModePeakBit           = 1 << 2,
    kGpaOpenContextClockModeMinMemoryBit      = 1 << 3,
    kGpaOpenContextClockModeMinEngineBit      = 1 << 4,
    kGpaOpenContextEnableHardwareCountersBit  = 1 << 5,
    kGpaOpenContextAllBits                    = (1 << 6) - 1  ///< OpenGPA: every known bit.
} GpaOpenContextBits;
typedef GpaUInt32 GpaOpenContextFlags;

typedef enum
{
    kGpaContextSampleTypeDiscreteCounter  = 0x01,
    kGpaContextSampleTypeStreamingCounter = 0x02,
    kGpaContextSampleTypeSqtt             = 0x04
} GpaContextSampleTypeBits;
typedef GpaUInt32 GpaContextSampleTypeFlags;
/// The seed documentation calls the mask bits GpaSampleBits.
typedef GpaContextSampleTypeBits GpaSampleBits;

typedef enum
{
    kGpaCounterSampleTypeDiscrete  = kGpaContextSampleTypeDiscreteCounter,
    kGpaCounterSampleTypeStreaming = kGpaContextSampleTypeStreamingCounter
} GpaCounterSampleType;

typedef enum
{
    kGpaSessionSampleTypeDiscreteCounter,
    kGpaSessionSampleTypeStreamingCounter,
    kGpaSessionSampleTypeSqtt,
    kGpaSessionSampleTypeStreamingCounterAndSqtt,
    kGpaSessionSampleTypeLast
} GpaSessionSampleType;

typedef struct GpaUuid
{
    GpaUInt32 data_1;
    GpaUInt16 data_2;
    GpaUInt16 data_3;
    GpaUInt8 data_4[8];
} GpaUuid;

#endif  // GPU_PERFORMANCE_API_GPU_PERF_API_TYPES_H_
