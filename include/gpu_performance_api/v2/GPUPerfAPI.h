/* OpenGPA: the GPU Performance API v2 entry points (GPUPerfAPI.h), written from the v2 user guide.
   Exported beside the v3 Gpa* functions by libGPUPerfAPIGL.so, libGPUPerfAPICL.so, libGPUPerfAPIVK.so and
   libGPUPerfAPICUDA.so: link one, or dlopen it and dlsym each name (GPUPerfAPIFunctionTypes.h).

   v2 keeps one global state: GPA_OpenContext opens the counters on an API context and makes it the current
   one; every later call works on the current context. GPA_OpenContext takes
     OpenGL  the current EGLContext or GLXContext (made current on the calling thread; see gpu_perf_api_gl.h)
     OpenCL  the cl_command_queue, created with CL_QUEUE_PROFILING_ENABLE (gpu_perf_api_cl.h)
     Vulkan  (OpenGPA extension) a GpaVkContextOpenInfo* (gpu_perf_api_vk.h); each pass is then recorded
             into a command buffer named with OpenGpa2BeginPassOnCommandList (GPUPerfAPI-OpenGPA.h)
     CUDA    (OpenGPA extension) a GpaCudaContextOpenInfo* (gpu_perf_api_cuda.h), a live CUcontext or a chip
             name for an offline context that lists counters and counts passes
   docs/gpa2.md lists each function's statuses and when each is returned. */
#ifndef GPU_PERFORMANCE_API_V2_GPUPERFAPI_H_
#define GPU_PERFORMANCE_API_V2_GPUPERFAPI_H_

#ifndef __cplusplus
#include <stdbool.h>
#endif

#include "gpu_performance_api/v2/GPUPerfAPITypes.h"

GPALIB_DECL GPA_Status GPA_RegisterLoggingCallback(GPA_Logging_Type loggingType,
                                                   GPA_LoggingCallbackPtrType callbackFuncPtr);

GPALIB_DECL GPA_Status GPA_Initialize(void);
GPALIB_DECL GPA_Status GPA_Destroy(void);

GPALIB_DECL GPA_Status GPA_OpenContext(void* context);
GPALIB_DECL GPA_Status GPA_CloseContext(void);
GPALIB_DECL GPA_Status GPA_SelectContext(void* context);

GPALIB_DECL GPA_Status GPA_GetNumCounters(gpa_uint32* count);
GPALIB_DECL GPA_Status GPA_GetCounterName(gpa_uint32 index, const char** name);
GPALIB_DECL GPA_Status GPA_GetCounterDescription(gpa_uint32 index, const char** description);
GPALIB_DECL GPA_Status GPA_GetCounterDataType(gpa_uint32 index, GPA_Type* counterDataType);
GPALIB_DECL GPA_Status GPA_GetCounterUsageType(gpa_uint32 index, GPA_Usage_Type* counterUsageType);
GPALIB_DECL GPA_Status GPA_GetCounterIndex(const char* counter, gpa_uint32* index);
GPALIB_DECL GPA_Status GPA_GetDataTypeAsStr(GPA_Type counterDataType, const char** typeStr);
GPALIB_DECL GPA_Status GPA_GetUsageTypeAsStr(GPA_Usage_Type counterUsageType, const char** typeStr);

GPALIB_DECL GPA_Status GPA_EnableCounter(gpa_uint32 index);
GPALIB_DECL GPA_Status GPA_DisableCounter(gpa_uint32 index);
GPALIB_DECL GPA_Status GPA_GetEnabledCount(gpa_uint32* count);
GPALIB_DECL GPA_Status GPA_GetEnabledIndex(gpa_uint32 enabledNumber, gpa_uint32* enabledCounterIndex);
GPALIB_DECL GPA_Status GPA_IsCounterEnabled(gpa_uint32 counterIndex);
GPALIB_DECL GPA_Status GPA_EnableCounterStr(const char* counter);
GPALIB_DECL GPA_Status GPA_DisableCounterStr(const char* counter);
GPALIB_DECL GPA_Status GPA_EnableAllCounters(void);
GPALIB_DECL GPA_Status GPA_DisableAllCounters(void);

GPALIB_DECL GPA_Status GPA_GetPassCount(gpa_uint32* numPasses);
GPALIB_DECL GPA_Status GPA_BeginSession(gpa_uint32* sessionID);
GPALIB_DECL GPA_Status GPA_EndSession(void);
GPALIB_DECL GPA_Status GPA_BeginPass(void);
GPALIB_DECL GPA_Status GPA_EndPass(void);
GPALIB_DECL GPA_Status GPA_BeginSample(gpa_uint32 sampleID);
GPALIB_DECL GPA_Status GPA_EndSample(void);

GPALIB_DECL GPA_Status GPA_GetSampleCount(gpa_uint32 sessionID, gpa_uint32* samples);
GPALIB_DECL GPA_Status GPA_IsSampleReady(bool* readyResult, gpa_uint32 sessionID, gpa_uint32 sampleID);
GPALIB_DECL GPA_Status GPA_IsSessionReady(bool* readyResult, gpa_uint32 sessionID);
GPALIB_DECL GPA_Status GPA_GetSampleUInt64(gpa_uint32 sessionID, gpa_uint32 sampleID, gpa_uint32 counterID,
                                           gpa_uint64* result);
GPALIB_DECL GPA_Status GPA_GetSampleUInt32(gpa_uint32 sessionID, gpa_uint32 sampleID, gpa_uint32 counterIndex,
                                           gpa_uint32* result);
GPALIB_DECL GPA_Status GPA_GetSampleFloat64(gpa_uint32 sessionID, gpa_uint32 sampleID, gpa_uint32 counterIndex,
                                            gpa_float64* result);
GPALIB_DECL GPA_Status GPA_GetSampleFloat32(gpa_uint32 sessionID, gpa_uint32 sampleID, gpa_uint32 counterIndex,
                                            gpa_float32* result);

GPALIB_DECL const char* GPA_GetStatusAsStr(GPA_Status status);

#endif /* GPU_PERFORMANCE_API_V2_GPUPERFAPI_H_ */
