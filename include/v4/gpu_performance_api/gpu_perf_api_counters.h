// OpenGPA: the offline counter library's interface (libGPUPerfAPICounters.so) as GPA 4.3 declares it (the v4
// header set; the v3 set's gpu_perf_api_counters.h is GPA v3.17's).
//
// A counter context lists, with no GPU or driver present, the counters a GPA 4 session of a given sample type
// would offer on a device (an API and vendor, device and revision ids): their names, groups, descriptions,
// types and UUIDs, the hardware counters behind each derived counter, the passes a set takes and which counters
// each pass collects. It computes a derived counter from raw hardware values, once (one sample) or over a
// streaming-counter time series (GpaSpmData). GpaCounterLibGetSupportedSampleTypes says which session sample
// types a device offers. docs/counter-library.md has every entry point's statuses on OpenGPA's devices.
//
// What changed from v3: GpaCounterLibOpenCounterContext takes the session sample type and no longer the
// generate_asic_specific_counters flag, the table gains GpaCounterLibGetSupportedSampleTypes and
// GpaCounterlibComputeDerivedSpmCounterResults (19 entries, 160 bytes), and the enums gain a few values.
// GPA 4 kept the counter-library table's major version at 3: the library tells a v4 table from a v3 one by its
// size (gpa_counter_lib_minor_version), and also accepts major version 4 for a v4 table.
//
// The library exports the v3 entry points under the GpaCounterLib* names (their v3 signatures), so a v4 client
// calls through the table GpaCounterLibGetFuncTable fills: this header declares GpaCounterLibGetVersion and
// GpaCounterLibGetFuncTable (the same in v3 and v4) and no other prototype.
//
//   GpaCounterLibFuncTable table;  // C++: versions set by the constructor; C: set both fields by hand
//   ((GpaCounterLibGetFuncTablePtrType)dlsym(lib, "GpaCounterLibGetFuncTable"))(&table);
//   table.GpaCounterLibOpenCounterContext(kGpaApiVulkan, kGpaSessionSampleTypeDiscreteCounter, hardware_info,
//                                         kGpaOpenContextDefaultBit, &context);
//
// Layouts are GPA 4.3's (tests/abi pins them).
#ifndef GPU_PERF_API_GPU_PERF_API_COUNTERS_H_
#define GPU_PERF_API_GPU_PERF_API_COUNTERS_H_

#ifndef __cplusplus
#include <stdbool.h>
#endif

#include "gpu_performance_api/gpu_perf_api_types.h"

/// How the counter library's entry points are declared: C linkage, exported.
#ifndef GPU_PERF_API_COUNTERS_DECL
#ifdef __cplusplus
#define GPU_PERF_API_COUNTERS_DECL extern "C" __attribute__((visibility("default")))
#else
#define GPU_PERF_API_COUNTERS_DECL extern __attribute__((visibility("default")))
#endif
#endif

/// A counter context: an id, never dereferenced.
GPA_DEFINE_OBJECT(CounterContext)

/// Version of the counter library's function table (gpa_counter_lib_major_version): GPA 4 kept v3's 3.
#define GPA_COUNTER_LIB_FUNC_TABLE_MAJOR_VERSION 3

/// gpa_counter_lib_minor_version: the size of the table the caller was built with (160 for GPA 4.3's).
#define GPA_COUNTER_LIB_FUNC_TABLE_MINOR_VERSION (sizeof(struct _GpaCounterLibFuncTable))

/// AMD hardware blocks a hardware counter is read from (OpenGPA's devices have none: docs/counter-library.md).
typedef enum
{
    kGpaHwBlockCpf = 0,
    kGpaHwBlockIa,
    kGpaHwBlockVgt,
    kGpaHwBlockPa,
    kGpaHwBlockSc,
    kGpaHwBlockSpi,
    kGpaHwBlockSq,
    kGpaHwBlockSx,
    kGpaHwBlockTa,
    kGpaHwBlockTd,
    kGpaHwBlockTcp,
    kGpaHwBlockTcc,
    kGpaHwBlockTca,
    kGpaHwBlockDb,
    kGpaHwBlockCb,
    kGpaHwBlockGds,
    kGpaHwBlockSrbm,
    kGpaHwBlockGrbm,
    kGpaHwBlockGrbmse,
    kGpaHwBlockRlc,
    kGpaHwBlockDma,
    kGpaHwBlockMc,
    kGpaHwBlockCpg,
    kGpaHwBlockCpc,
    kGpaHwBlockWd,
    kGpaHwBlockTcs,
    kGpaHwBlockAtc,
    kGpaHwBlockAtcl2,
    kGpaHwBlockMcvml2,
    kGpaHwBlockEa,
    kGpaHwBlockRpb,
    kGpaHwBlockRmi,
    kGpaHwBlockUmcch,
    kGpaHwBlockGe,
    kGpaHwBlockGl1A,
    kGpaHwBlockGl1C,
    kGpaHwBlockGl1Cg,
    kGpaHwBlockGl2A,
    kGpaHwBlockGl2C,
    kGpaHwBlockCha,
    kGpaHwBlockChc,
    kGpaHwBlockChcg,
    kGpaHwBlockGus,
    kGpaHwBlockGcr,
    kGpaHwBlockPh,
    kGpaHwBlockUtcl1,
    kGpaHwBlockGedist,
    kGpaHwBlockGese,
    kGpaHwBlockDfmall,
    kGpaHwBlockSqWgp,
    kGpaHwBlockPc,
    kGpaHwBlockGl1XA,
    kGpaHwBlockGl1XC,
    kGpaHwBlockWgs,
    kGpaHwBlockEaCpwd,
    kGpaHwBlockEaSe,
    kGpaHwBlockCount,  ///< Number of blocks (OpenGPA's hardware counters name this: no AMD block).
} GpaHwBlock;

/// Shader stages an SQ counter can be restricted to.
typedef enum
{
    kGpaShaderMaskPs,
    kGpaShaderMaskVs,
    kGpaShaderMaskGs,
    kGpaShaderMaskEs,
    kGpaShaderMaskHs,
    kGpaShaderMaskLs,
    kGpaShaderMaskCs,
    kGpaShaderMaskAll,
} GpaShaderMask;

/// Device properties a counter context may be given (GpaCounterContextHardwareInfo).
typedef enum
{
    kGpaHardwareAttributeNumShaderEngines,
    kGpaHardwareAttributeNumShaderArrays,
    kGpaHardwareAttributeNumSimds,
    kGpaHardwareAttributeNumComputeUnits,
    kGpaHardwareAttributeNumRenderBackends,
    kGpaHardwareAttributeClocksPerPrimitive,
    kGpaHardwareAttributeNumPrimitivePipes,
    kGpaHardwareAttributeTimestampFrequency,
    kGpaHardwareAttributePeakVerticesPerClock,
    kGpaHardwareAttributePeakPrimitivesPerClock,
    kGpaHardwareAttributePeakPixelsPerClock,
    kGpaHardwareAttributeNumWavesPerSimd,  ///< New in GPA 4.
} GpaHardwareAttributeType;

/// One device property.
typedef struct _GpaHardwareAttribute
{
    GpaHardwareAttributeType gpa_hardware_attribute_type;   ///< Which property.
    GpaUInt32                gpa_hardware_attribute_value;  ///< Its value.
} GpaHardwareAttribute;

/// The device a counter context describes.
typedef struct _GpaCounterContextHardwareInfo
{
    GpaUInt32 vendor_id;    ///< PCI vendor id (0x10DE NVIDIA, 0x1002 AMD, ...).
    GpaUInt32 device_id;    ///< PCI device id.
    GpaUInt32 revision_id;  ///< Revision id.

    GpaHardwareAttribute* gpa_hardware_attributes;       ///< Optional properties (may be NULL).
    GpaUInt32             gpa_hardware_attribute_count;  ///< Number of properties.
} GpaCounterContextHardwareInfo;

/// A hardware counter: a timing counter (by index), or an event of a hardware block.
typedef struct _GpaHwCounter
{
    bool is_timing_block;  ///< True: a timing counter, named by one of the indices below.
    union
    {
        union
        {
            GpaUInt32 gpu_time_bottom_to_bottom_duration;  ///< Index of the bottom-to-bottom duration counter.
            GpaUInt32 gpu_time_bottom_to_bottom_start;     ///< Index of the bottom-to-bottom start counter.
            GpaUInt32 gpu_time_bottom_to_bottom_end;       ///< Index of the bottom-to-bottom end counter.
            GpaUInt32 gpu_time_top_to_bottom_duration;     ///< Index of the top-to-bottom duration counter.
            GpaUInt32 gpu_time_top_to_bottom_start;        ///< Index of the top-to-bottom start counter.
            GpaUInt32 gpu_time_top_to_bottom_end;          ///< Index of the top-to-bottom end counter.
        };

        struct
        {
            GpaHwBlock    gpa_hw_block;           ///< The block.
            GpaUInt32     gpa_hw_block_instance;  ///< 0-based instance of the block.
            GpaUInt32     gpa_hw_block_event_id;  ///< 0-based event of the block.
            GpaShaderMask gpa_shader_mask;        ///< Shader stages (SQ counters only).
        };
    };
} GpaHwCounter;

/// The hardware counters a derived counter is computed from.
typedef struct _GpaDerivedCounterInfo
{
    GpaHwCounter* gpa_hw_counters;       ///< The hardware counters.
    GpaUInt32     gpa_hw_counter_count;  ///< How many.
    GpaUsageType  counter_usage_type;    ///< What the derived counter measures.
} GpaDerivedCounterInfo;

/// What a counter is: a derived counter or a hardware counter.
typedef struct _GpaCounterInfo
{
    bool is_derived_counter;  ///< True: gpa_derived_counter; false: gpa_hw_counter.
    union
    {
        GpaDerivedCounterInfo* gpa_derived_counter;  ///< A derived counter.
        GpaHwCounter*          gpa_hw_counter;       ///< A hardware counter.
    };
} GpaCounterInfo;

/// A counter to look up (GpaCounterLibGetCounterIndex): a derived counter by name, or a hardware counter.
typedef struct _GpaCounterParam
{
    bool is_derived_counter;  ///< True: derived_counter_name; false: gpa_hw_counter.
    union
    {
        const char*  derived_counter_name;  ///< Name of a derived counter.
        GpaHwCounter gpa_hw_counter;        ///< A hardware counter.
    };
} GpaCounterParam;

/// The counters one pass collects.
typedef struct _GpaPassCounter
{
    GpaUInt32  pass_index;       ///< The pass.
    GpaUInt32  counter_count;    ///< Room in counter_indices.
    GpaUInt32* counter_indices;  ///< Their indices (caller-allocated).
} GpaPassCounter;

/// Which kind of driver a GpaDriverInfo describes.
typedef enum
{
    kIgnoreDriver,          ///< No driver: answer for the device alone.
    kAmdProprietaryDriver,  ///< AMD's driver (its version gates AMD's sample types; not used on OpenGPA's devices).
} GpaDriverType;

/// A driver and its version.
typedef struct _GpaDriverInfo
{
    GpaDriverType driver_type;  ///< Which driver.
    GpaUInt32     major;        ///< Major version.
    GpaUInt32     minor;        ///< Minor version.
    GpaUInt32     update;       ///< Update version.
} GpaDriverInfo;

/// The device (and driver) GpaCounterLibGetSupportedSampleTypes answers for.
typedef struct _GpaSupportedSampleTypeInfo
{
    GpaUInt32     vendor_id;    ///< PCI vendor id.
    GpaUInt32     device_id;    ///< PCI device id.
    GpaUInt32     revision_id;  ///< Revision id.
    GpaDriverInfo driver_info;  ///< The driver (kIgnoreDriver: none).
} GpaSupportedSampleTypeInfo;

/// The library's version.
GPU_PERF_API_COUNTERS_DECL GpaStatus GpaCounterLibGetVersion(GpaUInt32* major_version, GpaUInt32* minor_version,
                                                             GpaUInt32* build_number, GpaUInt32* update_version);
typedef GpaStatus (*GpaCounterLibGetVersionPtrType)(GpaUInt32*, GpaUInt32*, GpaUInt32*, GpaUInt32*);

/// Fills a GpaCounterLibFuncTable whose two version fields the caller has set.
GPU_PERF_API_COUNTERS_DECL GpaStatus GpaCounterLibGetFuncTable(void* gpa_counter_lib_function_table);
typedef GpaStatus (*GpaCounterLibGetFuncTablePtrType)(void*);

/// Opens a counter context for `api` on the device `gpa_counter_context_hardware_info` describes, listing the
/// counters of a session of `sample_type` (kGpaSessionSampleTypeSqtt has none: kGpaStatusErrorInvalidParameter).
/// context_flags: GpaOpenContextBits (hiding the derived counters without enabling the hardware ones exposes
/// nothing: kGpaStatusErrorInvalidParameter).
typedef GpaStatus (*GpaCounterLibOpenCounterContextPtrType)(GpaApiType, GpaSessionSampleType, GpaCounterContextHardwareInfo,
                                                            GpaOpenContextFlags, GpaCounterContext*);

/// Closes a counter context.
typedef GpaStatus (*GpaCounterLibCloseCounterContextPtrType)(const GpaCounterContext);

/// Number of counters of the context.
typedef GpaStatus (*GpaCounterLibGetNumCountersPtrType)(const GpaCounterContext, GpaUInt32*);

/// Name of a counter.
typedef GpaStatus (*GpaCounterLibGetCounterNamePtrType)(const GpaCounterContext, GpaUInt32, const char**);

/// Index of a derived counter (by name, case-insensitive) or of a hardware counter.
typedef GpaStatus (*GpaCounterLibGetCounterIndexPtrType)(const GpaCounterContext, const GpaCounterParam*, GpaUInt32*);

/// Group of a counter.
typedef GpaStatus (*GpaCounterLibGetCounterGroupPtrType)(const GpaCounterContext, GpaUInt32, const char**);

/// Description of a counter.
typedef GpaStatus (*GpaCounterLibGetCounterDescriptionPtrType)(const GpaCounterContext, GpaUInt32, const char**);

/// Result type of a counter.
typedef GpaStatus (*GpaCounterLibGetCounterDataTypePtrType)(const GpaCounterContext, GpaUInt32, GpaDataType*);

/// Usage type of a counter.
typedef GpaStatus (*GpaCounterLibGetCounterUsageTypePtrType)(const GpaCounterContext, GpaUInt32, GpaUsageType*);

/// UUID of a counter (GPA 4's 16-byte GpaUuid).
typedef GpaStatus (*GpaCounterLibGetCounterUuidPtrType)(const GpaCounterContext, GpaUInt32, GpaUuid*);

/// Sample type of a counter: streaming in a context opened for streaming counters, else discrete.
typedef GpaStatus (*GpaCounterLibGetCounterSampleTypePtrType)(const GpaCounterContext, GpaUInt32, GpaCounterSampleType*);

/// What a counter is made of (the hardware counters behind a derived counter).
typedef GpaStatus (*GpaCounterLibGetCounterInfoPtrType)(const GpaCounterContext, GpaUInt32, const GpaCounterInfo**);

/// A derived counter's value from the values of its hardware counters, in GetCounterInfo's order.
typedef GpaStatus (*GpaCounterLibComputeDerivedCounterResultPtrType)(const GpaCounterContext, GpaUInt32, const GpaUInt64*, GpaUInt32,
                                                                     GpaFloat64*);

/// Passes needed to collect the given counters together.
typedef GpaStatus (*GpaCounterLibGetPassCountPtrType)(const GpaCounterContext, const GpaUInt32*, GpaUInt32, GpaUInt32*);

/// Which hardware counters each pass collects for the given counters (called up to three times: pass count,
/// counters per pass, the counters themselves).
typedef GpaStatus (*GpaCounterLibGetCountersByPassPtrType)(const GpaCounterContext, GpaUInt32, const GpaUInt32*, GpaUInt32*, GpaUInt32*,
                                                           GpaPassCounter*);

/// Which session sample types (GpaContextSampleTypeBits) the device of `info` offers for `api`.
typedef GpaStatus (*GpaCounterLibGetSupportedSampleTypesPtrType)(GpaApiType, const GpaSupportedSampleTypeInfo*, GpaContextSampleTypeFlags*);

/// The given counters at every timestamp of a streaming-counter time series: results[k * number_of_timestamps + t]
/// is counter gpa_counter_indices[k] at timestamp t (the caller sizes results: count x number_of_timestamps).
typedef GpaStatus (*GpaCounterlibComputeDerivedSpmCounterResultsPtrType)(const GpaCounterContext, const GpaSpmData*, GpaUInt64,
                                                                         const GpaUInt32*, GpaFloat64*);

/// The counter library's entry points in GPA 4.3's table order, as an X-macro: v3.17's seventeen, then two.
#define GPA_COUNTER_LIB_FUNC(X)                 \
    X(GpaCounterLibGetVersion)                  \
    X(GpaCounterLibGetFuncTable)                \
    X(GpaCounterLibOpenCounterContext)          \
    X(GpaCounterLibCloseCounterContext)         \
    X(GpaCounterLibGetNumCounters)              \
    X(GpaCounterLibGetCounterName)              \
    X(GpaCounterLibGetCounterIndex)             \
    X(GpaCounterLibGetCounterGroup)             \
    X(GpaCounterLibGetCounterDescription)       \
    X(GpaCounterLibGetCounterDataType)          \
    X(GpaCounterLibGetCounterUsageType)         \
    X(GpaCounterLibGetCounterUuid)              \
    X(GpaCounterLibGetCounterSampleType)        \
    X(GpaCounterLibGetCounterInfo)              \
    X(GpaCounterLibComputeDerivedCounterResult) \
    X(GpaCounterLibGetPassCount)                \
    X(GpaCounterLibGetCountersByPass)           \
    X(GpaCounterLibGetSupportedSampleTypes)     \
    X(GpaCounterlibComputeDerivedSpmCounterResults)

#define GPA_COUNTER_LIB_DECLARE_FUNC_PTR(func) func##PtrType func;  ///< One table member.

/// The counter library's function table.
typedef struct _GpaCounterLibFuncTable
{
    GpaUInt32 gpa_counter_lib_major_version;  ///< GPA_COUNTER_LIB_FUNC_TABLE_MAJOR_VERSION
    GpaUInt32 gpa_counter_lib_minor_version;  ///< GPA_COUNTER_LIB_FUNC_TABLE_MINOR_VERSION: sizeof the caller's table

    GPA_COUNTER_LIB_FUNC(GPA_COUNTER_LIB_DECLARE_FUNC_PTR)

#ifdef __cplusplus
    /// In C++ a table starts with this header's versions and no entry points.
    _GpaCounterLibFuncTable()
    {
        gpa_counter_lib_major_version = GPA_COUNTER_LIB_FUNC_TABLE_MAJOR_VERSION;
        gpa_counter_lib_minor_version = static_cast<GpaUInt32>(GPA_COUNTER_LIB_FUNC_TABLE_MINOR_VERSION);
#define GPA_COUNTER_LIB_ASSIGN_NULL(func) func = nullptr;
        GPA_COUNTER_LIB_FUNC(GPA_COUNTER_LIB_ASSIGN_NULL)
#undef GPA_COUNTER_LIB_ASSIGN_NULL
    }

    /// True when every entry point is set.
    bool IsInit() const
    {
        bool is_init = true;
#define GPA_COUNTER_LIB_FUNC_IS_NULL(func) is_init = is_init && (func != nullptr);
        GPA_COUNTER_LIB_FUNC(GPA_COUNTER_LIB_FUNC_IS_NULL)
#undef GPA_COUNTER_LIB_FUNC_IS_NULL
        return is_init;
    }
#endif
} GpaCounterLibFuncTable;

#endif  // GPU_PERF_API_GPU_PERF_API_COUNTERS_H_
