// OpenGPA: the offline counter library's interface (libGPUPerfAPICounters.so), as GPA v3.17 declares it.
//
// A counter context is opened for an API and a device (or a chip: vendor, device and revision ids) with no
// GPU or driver present. It lists the counters a GpaOpenContext on that device would expose, their groups,
// descriptions, types and UUIDs, the hardware counters behind each derived counter, how many passes a set
// of counters takes and which counters each pass collects, and computes a derived counter's value from raw
// hardware values. Every entry point is reached through the table GpaCounterLibGetFuncTable fills:
//
//   GpaCounterLibFuncTable table;                        // C++: versions set by the constructor
//   GpaCounterLibGetFuncTablePtrType get = (GpaCounterLibGetFuncTablePtrType)dlsym(lib, "GpaCounterLibGetFuncTable");
//   get(&table);
//   table.GpaCounterLibOpenCounterContext(kGpaApiVulkan, hardware_info, kGpaOpenContextDefaultBit, TRUE, &context);
//
// Layouts and the table's slot order are GPA v3.17's (tests/abi pins them).
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

/// Version of the counter library's function table (gpa_counter_lib_major_version).
#define GPA_COUNTER_LIB_FUNC_TABLE_MAJOR_VERSION 3

/// gpa_counter_lib_minor_version: the size of the table the caller was built with.
#define GPA_COUNTER_LIB_FUNC_TABLE_MINOR_VERSION (sizeof(struct _GpaCounterLibFuncTable))

/// AMD hardware blocks a hardware counter is read from.
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
    kGpaHwBlockCount,  ///< Number of blocks.
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
    kGpaHardwareAttributePeakPixelsPerClock
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
    GpaUInt32  counter_count;    ///< Number of counters in counter_indices.
    GpaUInt32* counter_indices;  ///< Their indices (caller-allocated).
} GpaPassCounter;

/// The library's version.
GPU_PERF_API_COUNTERS_DECL GpaStatus GpaCounterLibGetVersion(GpaUInt32* major_version, GpaUInt32* minor_version,
                                                             GpaUInt32* build_number, GpaUInt32* update_version);
typedef GpaStatus (*GpaCounterLibGetVersionPtrType)(GpaUInt32*, GpaUInt32*, GpaUInt32*, GpaUInt32*);

/// Fills a GpaCounterLibFuncTable whose two version fields the caller has set.
GPU_PERF_API_COUNTERS_DECL GpaStatus GpaCounterLibGetFuncTable(void* gpa_counter_lib_function_table);
typedef GpaStatus (*GpaCounterLibGetFuncTablePtrType)(void*);

/// Opens a counter context for `api` on the device `gpa_counter_context_hardware_info` describes.
/// context_flags: GpaOpenContextBits (hiding the derived counters without enabling the hardware ones
/// exposes nothing: kGpaStatusErrorInvalidParameter). generate_asic_specific_counters must be 1 (TRUE).
GPU_PERF_API_COUNTERS_DECL GpaStatus GpaCounterLibOpenCounterContext(GpaApiType                    api,
                                                                     GpaCounterContextHardwareInfo gpa_counter_context_hardware_info,
                                                                     GpaOpenContextFlags           context_flags,
                                                                     GpaUInt8                      generate_asic_specific_counters,
                                                                     GpaCounterContext*            gpa_virtual_context);
typedef GpaStatus (*GpaCounterLibOpenCounterContextPtrType)(GpaApiType, GpaCounterContextHardwareInfo, GpaOpenContextFlags, GpaUInt8,
                                                            GpaCounterContext*);

/// Closes a counter context.
GPU_PERF_API_COUNTERS_DECL GpaStatus GpaCounterLibCloseCounterContext(const GpaCounterContext gpa_virtual_context);
typedef GpaStatus (*GpaCounterLibCloseCounterContextPtrType)(const GpaCounterContext);

/// Number of counters of the context.
GPU_PERF_API_COUNTERS_DECL GpaStatus GpaCounterLibGetNumCounters(const GpaCounterContext gpa_virtual_context, GpaUInt32* gpa_counter_count);
typedef GpaStatus (*GpaCounterLibGetNumCountersPtrType)(const GpaCounterContext, GpaUInt32*);

/// Name of counter `gpa_counter_index`.
GPU_PERF_API_COUNTERS_DECL GpaStatus GpaCounterLibGetCounterName(const GpaCounterContext gpa_virtual_context, GpaUInt32 gpa_counter_index,
                                                                 const char** gpa_counter_name);
typedef GpaStatus (*GpaCounterLibGetCounterNamePtrType)(const GpaCounterContext, GpaUInt32, const char**);

/// Index of a derived counter (by name, case-insensitive) or of a hardware counter.
GPU_PERF_API_COUNTERS_DECL GpaStatus GpaCounterLibGetCounterIndex(const GpaCounterContext gpa_virtual_context,
                                                                  const GpaCounterParam*  gpa_counter_info,
                                                                  GpaUInt32*              gpa_counter_index);
typedef GpaStatus (*GpaCounterLibGetCounterIndexPtrType)(const GpaCounterContext, const GpaCounterParam*, GpaUInt32*);

/// Group of counter `gpa_counter_index`.
GPU_PERF_API_COUNTERS_DECL GpaStatus GpaCounterLibGetCounterGroup(const GpaCounterContext gpa_virtual_context, GpaUInt32 gpa_counter_index,
                                                                  const char** gpa_counter_group);
typedef GpaStatus (*GpaCounterLibGetCounterGroupPtrType)(const GpaCounterContext, GpaUInt32, const char**);

/// Description of counter `gpa_counter_index`.
GPU_PERF_API_COUNTERS_DECL GpaStatus GpaCounterLibGetCounterDescription(const GpaCounterContext gpa_virtual_context,
                                                                        GpaUInt32               gpa_counter_index,
                                                                        const char**            gpa_counter_description);
typedef GpaStatus (*GpaCounterLibGetCounterDescriptionPtrType)(const GpaCounterContext, GpaUInt32, const char**);

/// Result type of counter `gpa_counter_index`.
GPU_PERF_API_COUNTERS_DECL GpaStatus GpaCounterLibGetCounterDataType(const GpaCounterContext gpa_virtual_context, GpaUInt32 gpa_counter_index,
                                                                     GpaDataType* gpa_counter_data_type);
typedef GpaStatus (*GpaCounterLibGetCounterDataTypePtrType)(const GpaCounterContext, GpaUInt32, GpaDataType*);

/// Usage type of counter `gpa_counter_index`.
GPU_PERF_API_COUNTERS_DECL GpaStatus GpaCounterLibGetCounterUsageType(const GpaCounterContext gpa_virtual_context, GpaUInt32 gpa_counter_index,
                                                                      GpaUsageType* gpa_counter_usage_type);
typedef GpaStatus (*GpaCounterLibGetCounterUsageTypePtrType)(const GpaCounterContext, GpaUInt32, GpaUsageType*);

/// UUID of counter `gpa_counter_index`.
GPU_PERF_API_COUNTERS_DECL GpaStatus GpaCounterLibGetCounterUuid(const GpaCounterContext gpa_virtual_context, GpaUInt32 gpa_counter_index,
                                                                 GpaUuid* gpa_counter_uuid);
typedef GpaStatus (*GpaCounterLibGetCounterUuidPtrType)(const GpaCounterContext, GpaUInt32, GpaUuid*);

/// Sample type of counter `gpa_counter_index`.
GPU_PERF_API_COUNTERS_DECL GpaStatus GpaCounterLibGetCounterSampleType(const GpaCounterContext gpa_virtual_context, GpaUInt32 gpa_counter_index,
                                                                       GpaCounterSampleType* gpa_counter_sample_type);
typedef GpaStatus (*GpaCounterLibGetCounterSampleTypePtrType)(const GpaCounterContext, GpaUInt32, GpaCounterSampleType*);

/// What counter `gpa_counter_index` is made of (the hardware counters behind a derived counter).
GPU_PERF_API_COUNTERS_DECL GpaStatus GpaCounterLibGetCounterInfo(const GpaCounterContext gpa_virtual_context, GpaUInt32 gpa_counter_index,
                                                                 const GpaCounterInfo** gpa_counter_info);
typedef GpaStatus (*GpaCounterLibGetCounterInfoPtrType)(const GpaCounterContext, GpaUInt32, const GpaCounterInfo**);

/// The value of derived counter `gpa_derived_counter_index` from the values of its hardware counters, in the
/// order GpaCounterLibGetCounterInfo lists them.
GPU_PERF_API_COUNTERS_DECL GpaStatus GpaCounterLibComputeDerivedCounterResult(const GpaCounterContext gpa_virtual_context,
                                                                              GpaUInt32               gpa_derived_counter_index,
                                                                              const GpaUInt64*        gpa_hw_counter_result,
                                                                              GpaUInt32               gpa_hw_counter_result_count,
                                                                              GpaFloat64*             gpa_derived_counter_result);
typedef GpaStatus (*GpaCounterLibComputeDerivedCounterResultPtrType)(const GpaCounterContext, GpaUInt32, const GpaUInt64*, GpaUInt32, GpaFloat64*);

/// Passes needed to collect the given counters together.
GPU_PERF_API_COUNTERS_DECL GpaStatus GpaCounterLibGetPassCount(const GpaCounterContext gpa_virtual_context, const GpaUInt32* gpa_counter_indices,
                                                               GpaUInt32 gpa_counter_count, GpaUInt32* number_of_pass_req);
typedef GpaStatus (*GpaCounterLibGetPassCountPtrType)(const GpaCounterContext, const GpaUInt32*, GpaUInt32, GpaUInt32*);

/// Which hardware counters each pass collects for the given counters. With counter_by_pass_list NULL, sets
/// *pass_count to the number of passes; then counter_by_pass_list[pass] gets the number of counters of each
/// pass, and gpa_pass_counters (if not NULL, with counter_indices allocated) the counters themselves.
GPU_PERF_API_COUNTERS_DECL GpaStatus GpaCounterLibGetCountersByPass(const GpaCounterContext gpa_virtual_context,
                                                                    GpaUInt32               gpa_counter_count,
                                                                    const GpaUInt32*        gpa_counter_indices,
                                                                    GpaUInt32*              pass_count,
                                                                    GpaUInt32*              counter_by_pass_list,
                                                                    GpaPassCounter*         gpa_pass_counters);
typedef GpaStatus (*GpaCounterLibGetCountersByPassPtrType)(const GpaCounterContext, GpaUInt32, const GpaUInt32*, GpaUInt32*, GpaUInt32*,
                                                           GpaPassCounter*);

/// The counter library's entry points in table order (GPA v3.17's), as an X-macro.
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
    X(GpaCounterLibGetCountersByPass)

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
