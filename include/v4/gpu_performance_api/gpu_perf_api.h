// OpenGPA: the GPU Performance API v4 function table (the v4 header set; the v3 set is include/gpu_performance_api).
//
// The table and every type are GPA 4.3's (see gpu_perf_api_types.h): a client compiled against AMD's GPA 4
// headers gets this table from libGPUPerfAPI{VK,GL,CUDA}.so's GpaGetFuncTable, which fills the v3 or the v4
// table according to the major_version the caller sets. docs/gpa4.md has each v4 entry point's statuses.
//
// The symbols a library exports under the Gpa* names are the v3 entry points (whose counter queries take a
// context, not a session), so a v4 client calls through the table only: this header declares
// GpaGetFuncTable and no other prototype. libGPUPerfAPICL.so serves no v4 table (GPA 4 has no OpenCL).
#ifndef GPU_PERFORMANCE_API_GPU_PERF_API_H_
#define GPU_PERFORMANCE_API_GPU_PERF_API_H_

#include <stddef.h>

#if DISABLE_GPA
#error "OpenGPA's v4 header set has no compiled-out stubs (gpu_perf_api_stub.h): use the v3 set for DISABLE_GPA"
#endif
#define USE_GPA 1  ///< 1: the entry points are the library's.

#include "gpu_performance_api/gpu_perf_api_function_types.h"
#include "gpu_performance_api/gpu_perf_api_types.h"

/// Version of the function table (GpaFunctionTable::major_version).
#define GPA_FUNCTION_TABLE_MAJOR_VERSION_NUMBER 4
/// GpaFunctionTable::minor_version: the size of the table the caller was built with.
#define GPA_FUNCTION_TABLE_MINOR_VERSION_NUMBER (sizeof(struct _GpaFunctionTable))

/// Every entry point, as stored in the table GpaGetFuncTable fills.
typedef struct _GpaFunctionTable
{
    GpaUInt32 major_version;  ///< GPA_FUNCTION_TABLE_MAJOR_VERSION_NUMBER
    GpaUInt32 minor_version;  ///< GPA_FUNCTION_TABLE_MINOR_VERSION_NUMBER: sizeof the caller's table

#define GPA_FUNCTION_PREFIX(func) func##PtrType func;
#include "gpu_performance_api/gpu_perf_api_functions.h"
#undef GPA_FUNCTION_PREFIX

#ifdef __cplusplus
    /// In C++ a table starts with this header's versions and no entry points, ready for GpaGetFuncTable.
    /// C code sets major_version and minor_version itself.
    _GpaFunctionTable()
    {
        major_version = GPA_FUNCTION_TABLE_MAJOR_VERSION_NUMBER;
        minor_version = static_cast<GpaUInt32>(GPA_FUNCTION_TABLE_MINOR_VERSION_NUMBER);
#define GPA_FUNCTION_PREFIX(func) func = nullptr;
#include "gpu_performance_api/gpu_perf_api_functions.h"
#undef GPA_FUNCTION_PREFIX
    }
#endif
} GpaFunctionTable;

/// Size of a table holding only the entry points before `func` (what an older client would pass).
#define GPA_FUNCTION_TABLE_SIZE_UP_TO(func) offsetof(GpaFunctionTable, func)

#ifndef GPA_NO_PROTOTYPES
#ifdef __cplusplus
extern "C" {
#endif

/// Fills the table whose major_version (3 or 4) and minor_version (the size of the caller's table) are set.
GPA_LIB_DECL GpaStatus GpaGetFuncTable(void* gpa_func_table);

#ifdef __cplusplus
}
#endif
#endif  // GPA_NO_PROTOTYPES

#endif  // GPU_PERFORMANCE_API_GPU_PERF_API_H_
