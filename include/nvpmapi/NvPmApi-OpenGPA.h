/* OpenGPA's extensions to NvPmApi, exported by libNvPmApi.Core.so beside NVPMGetExportTable (dlsym them). */
#ifndef NVPMAPI_NVPMAPI_OPENGPA_H_
#define NVPMAPI_NVPMAPI_OPENGPA_H_

#include "NvPmApi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A context for a chip CUPTI knows ("GH100", "AD102", ...) with no GPU, as NvPmApiQuery's --chip: it lists the
   chip's counters and BeginExperiment sets the pass count of the added counters, then refuses with
   NVPM_ERROR_CONTEXT_NOT_SUPPORTED. NVPM_ERROR_CONTEXT_NOT_SUPPORTED for a chip CUPTI does not know. */
NVPMRESULT OpenGpaNvPmCreateContextFromChipName(const char* chip_name, NVPMContext* context);
typedef NVPMRESULT (*OpenGpaNvPmCreateContextFromChipName_Pfn)(const char* chip_name, NVPMContext* context);

/* A context of any GPA v3 library (libGPUPerfAPIVK.so, libGPUPerfAPICL.so, ...), by path, on `open_info`: what that
   library's GpaOpenContext takes (a cl_command_queue, a GpaVkContextOpenInfo*, ...). Its counters are the
   library's, under their GPA names. NVPM_ERROR_CONTEXT_NOT_SUPPORTED when the library does not load or refuses. */
NVPMRESULT OpenGpaNvPmCreateContextFromGpaLibrary(const char* gpa_library, void* open_info, NVPMContext* context);
typedef NVPMRESULT (*OpenGpaNvPmCreateContextFromGpaLibrary_Pfn)(const char* gpa_library, void* open_info,
                                                                NVPMContext* context);

/* Why the last call that failed failed (PerfKit's GetExtendedError gives only the code). *length: in, the
   size of text; out, the size needed with the NUL; text NULL asks for the size only. */
NVPMRESULT OpenGpaNvPmGetLastMessage(char* text, NVPMUINT* length);
typedef NVPMRESULT (*OpenGpaNvPmGetLastMessage_Pfn)(char* text, NVPMUINT* length);

#ifdef __cplusplus
}
#endif

#endif /* NVPMAPI_NVPMAPI_OPENGPA_H_ */
