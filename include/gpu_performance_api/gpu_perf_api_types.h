// OpenGPA: the GPU Performance API (GPA v3) type definitions.
//
// Names, values and layouts are those of AMD's GPA v3.17 (the last v3 release), so that a program compiled
// against AMD's headers runs unchanged on OpenGPA's libraries and code written against GPA compiles unchanged.
// tests/abi/ pins every value and layout. OpenGPA's additions to these enums (the CUDA API type, the
// software-driver generation, streaming sample types) are not here but in opengpa_ext.h, with values
// outside every range GPA assigns.
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

/// A counter's UUID. On LP64 Linux data_1 is 8 bytes (GPA v3's layout, 24 bytes in all); OpenGPA fills
/// only its low 32 bits, so the UUID reads the same as the 16-byte RFC 4122 form.
typedef struct _GpaUuid
{
    unsigned long  data_1;     ///< First part (its low 32 bits).
    unsigned short data_2;     ///< Second part.
    unsigned short data_3;     ///< Third part.
    unsigned char  data_4[8];  ///< Last eight bytes.

#ifdef __cplusplus
    /// Field-by-field equality (the padding after data_4 is not compared).
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
typedef unsigned long long GpaUInt64;  ///< 64-bit unsigned integer (unsigned long long, as GPA v3 declares it).

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
    kGpaInitializeDefaultBit = 0,  ///< Default options (the only flag GPA v3.17 defines).
} GpaInitializeBits;

/// GpaInitializeBits combined.
typedef GpaFlags GpaInitializeFlags;

/// Flags of GpaOpenContext.
typedef enum
{
    kGpaOpenContextDefaultBit                       = 0,     ///< Derived counters; clocks as the system sets them.
    kGpaOpenContextHideDerivedCountersBit           = 0x01,  ///< Expose no derived counters (needs EnableHardwareCounters).
    kGpaOpenContextHidePublicCountersBit            = kGpaOpenContextHideDerivedCountersBit,  ///< Older name.
    kGpaOpenContextHideSoftwareCountersBit_obsolete = 0x02,  ///< Obsolete since GPA 3.0: accepted, no effect.
    kGpaOpenContextHideHardwareCountersBit_obsolete = 0x04,  ///< Obsolete since GPA 3.0: accepted, no effect.
    kGpaOpenContextClockModeNoneBit                 = 0x08,  ///< Clocks left as they are.
    kGpaOpenContextClockModePeakBit                 = 0x10,  ///< Clocks at peak (where a backend can set them).
    kGpaOpenContextClockModeMinMemoryBit            = 0x20,  ///< Memory clock at its minimum (where supported).
    kGpaOpenContextClockModeMinEngineBit            = 0x40,  ///< Engine clock at its minimum (where supported).
    kGpaOpenContextEnableHardwareCountersBit        = 0x80   ///< Also expose every hardware counter as itself.
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

/// The graphics and compute APIs GPA knows. OpenGPA's CUDA is kGpaApiCuda (opengpa_ext.h), outside this range.
typedef enum
{
    kGpaApiStart,                     ///< Marker: the first.
    kGpaApiDirectx11 = kGpaApiStart,  ///< DirectX 11 (no OpenGPA library).
    kGpaApiDirectx12,                 ///< DirectX 12 (no OpenGPA library).
    kGpaApiOpengl,                    ///< OpenGL: libGPUPerfAPIGL.so.
    kGpaApiOpencl,                    ///< OpenCL: libGPUPerfAPICL.so.
    kGpaApiDeprecated,                ///< An API GPA no longer supports.
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
    kGpaCounterSampleTypeDiscrete = 0x1,  ///< One value per measured workload.
} GpaCounterSampleType;

/// Which sample types a context supports (GpaGetSupportedSampleTypes). In GPA v3.17 the discrete type is 0:
/// every context supports discrete counters, and no bit says so.
typedef enum
{
    kGpaContextSampleTypeDiscreteCounter,  ///< Discrete counters (0).
} GpaContextSampleTypeBits;

/// GpaContextSampleTypeBits combined.
typedef GpaFlags GpaContextSampleTypeFlags;

/// The kind of samples a session collects (GpaCreateSession).
typedef enum
{
    kGpaSessionSampleTypeDiscreteCounter,  ///< Discrete counters.
    kGpaSessionSampleTypeLast              ///< Marker: one past the last.
} GpaSessionSampleType;

#endif  // GPU_PERFORMANCE_API_GPU_PERF_API_TYPES_H_
