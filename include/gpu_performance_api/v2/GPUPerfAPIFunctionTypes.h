/* OpenGPA: GPA v2 function pointer types (GPUPerfAPIFunctionTypes.h), for clients that dlopen a
   libGPUPerfAPI<X>.so and dlsym each GPA_* name. One <name>PtrType per function of GPUPerfAPI.h. */
#ifndef GPU_PERFORMANCE_API_V2_GPUPERFAPIFUNCTIONTYPES_H_
#define GPU_PERFORMANCE_API_V2_GPUPERFAPIFUNCTIONTYPES_H_

#ifndef __cplusplus
#include <stdbool.h>
#endif

#include "gpu_performance_api/v2/GPUPerfAPITypes.h"

typedef GPA_Status (*GPA_RegisterLoggingCallbackPtrType)(GPA_Logging_Type, GPA_LoggingCallbackPtrType);
typedef GPA_Status (*GPA_InitializePtrType)(void);
typedef GPA_Status (*GPA_DestroyPtrType)(void);
typedef GPA_Status (*GPA_OpenContextPtrType)(void*);
typedef GPA_Status (*GPA_CloseContextPtrType)(void);
typedef GPA_Status (*GPA_SelectContextPtrType)(void*);
typedef GPA_Status (*GPA_GetNumCountersPtrType)(gpa_uint32*);
typedef GPA_Status (*GPA_GetCounterNamePtrType)(gpa_uint32, const char**);
typedef GPA_Status (*GPA_GetCounterDescriptionPtrType)(gpa_uint32, const char**);
typedef GPA_Status (*GPA_GetCounterDataTypePtrType)(gpa_uint32, GPA_Type*);
typedef GPA_Status (*GPA_GetCounterUsageTypePtrType)(gpa_uint32, GPA_Usage_Type*);
typedef GPA_Status (*GPA_GetCounterIndexPtrType)(const char*, gpa_uint32*);
typedef GPA_Status (*GPA_GetDataTypeAsStrPtrType)(GPA_Type, const char**);
typedef GPA_Status (*GPA_GetUsageTypeAsStrPtrType)(GPA_Usage_Type, const char**);
typedef GPA_Status (*GPA_EnableCounterPtrType)(gpa_uint32);
typedef GPA_Status (*GPA_DisableCounterPtrType)(gpa_uint32);
typedef GPA_Status (*GPA_GetEnabledCountPtrType)(gpa_uint32*);
typedef GPA_Status (*GPA_GetEnabledIndexPtrType)(gpa_uint32, gpa_uint32*);
typedef GPA_Status (*GPA_IsCounterEnabledPtrType)(gpa_uint32);
typedef GPA_Status (*GPA_EnableCounterStrPtrType)(const char*);
typedef GPA_Status (*GPA_DisableCounterStrPtrType)(const char*);
typedef GPA_Status (*GPA_EnableAllCountersPtrType)(void);
typedef GPA_Status (*GPA_DisableAllCountersPtrType)(void);
typedef GPA_Status (*GPA_GetPassCountPtrType)(gpa_uint32*);
typedef GPA_Status (*GPA_BeginSessionPtrType)(gpa_uint32*);
typedef GPA_Status (*GPA_EndSessionPtrType)(void);
typedef GPA_Status (*GPA_BeginPassPtrType)(void);
typedef GPA_Status (*GPA_EndPassPtrType)(void);
typedef GPA_Status (*GPA_BeginSamplePtrType)(gpa_uint32);
typedef GPA_Status (*GPA_EndSamplePtrType)(void);
typedef GPA_Status (*GPA_GetSampleCountPtrType)(gpa_uint32, gpa_uint32*);
typedef GPA_Status (*GPA_IsSampleReadyPtrType)(bool*, gpa_uint32, gpa_uint32);
typedef GPA_Status (*GPA_IsSessionReadyPtrType)(bool*, gpa_uint32);
typedef GPA_Status (*GPA_GetSampleUInt64PtrType)(gpa_uint32, gpa_uint32, gpa_uint32, gpa_uint64*);
typedef GPA_Status (*GPA_GetSampleUInt32PtrType)(gpa_uint32, gpa_uint32, gpa_uint32, gpa_uint32*);
typedef GPA_Status (*GPA_GetSampleFloat64PtrType)(gpa_uint32, gpa_uint32, gpa_uint32, gpa_float64*);
typedef GPA_Status (*GPA_GetSampleFloat32PtrType)(gpa_uint32, gpa_uint32, gpa_uint32, gpa_float32*);
typedef const char* (*GPA_GetStatusAsStrPtrType)(GPA_Status);

#endif /* GPU_PERFORMANCE_API_V2_GPUPERFAPIFUNCTIONTYPES_H_ */
