/* OpenGPA extension to the v2 API: what v2 cannot say on its own for APIs with command buffers.

   Vulkan records GPU work into command buffers, and OpenGPA's samples are query writes in them, so a v2
   pass on libGPUPerfAPIVK.so is begun with OpenGpa2BeginPassOnCommandList(command_buffer) instead of
   GPA_BeginPass(): the application's primary VkCommandBuffer, begun (vkBeginCommandBuffer) and not yet ended.
   Every GPA_BeginSample/GPA_EndSample of the pass records into it; after GPA_EndPass the application ends
   and submits it (once per pass), and results are read after GPA_EndSession as usual.
   OpenGL, OpenCL and CUDA have no command buffers: their libraries refuse one (GPA_STATUS_ERROR_FAILED, logged);
   use GPA_BeginPass there. */
#ifndef GPU_PERFORMANCE_API_V2_GPUPERFAPI_OPENGPA_H_
#define GPU_PERFORMANCE_API_V2_GPUPERFAPI_OPENGPA_H_

#include "gpu_performance_api/v2/GPUPerfAPI.h"

/* GPA_BeginPass's statuses, plus GPA_STATUS_ERROR_NULL_POINTER for a NULL command_list and
   GPA_STATUS_ERROR_FAILED when the library refuses the command list (logged with the reason). */
GPALIB_DECL GPA_Status OpenGpa2BeginPassOnCommandList(void* command_list);

typedef GPA_Status (*OpenGpa2BeginPassOnCommandListPtrType)(void*);

#endif /* GPU_PERFORMANCE_API_V2_GPUPERFAPI_OPENGPA_H_ */
