/* A C99 v2 client: the v2 headers compile as C and a C program links a libGPUPerfAPI<X>.so (the fake backend's).
   Exit status: the number of calls that did not return the documented status. */
#include <stdio.h>

#include "gpu_performance_api/v2/GPUPerfAPI-OpenGPA.h"
#include "gpu_performance_api/v2/GPUPerfAPIFunctionTypes.h"

int main(void) {
  int failures = 0;
  bool ready = true;
  const char* text = NULL;
  GPA_GetStatusAsStrPtrType status_as_str = GPA_GetStatusAsStr;
  failures += GPA_Initialize() != GPA_STATUS_OK;
  failures += GPA_OpenContext(NULL) != GPA_STATUS_ERROR_NULL_POINTER;
  failures += GPA_IsSessionReady(&ready, 1) != GPA_STATUS_ERROR_COUNTERS_NOT_OPEN;
  failures += OpenGpa2BeginPassOnCommandList(NULL) != GPA_STATUS_ERROR_NULL_POINTER;
  failures += GPA_GetUsageTypeAsStr(GPA_USAGE_TYPE_BYTES, &text) != GPA_STATUS_OK || text[0] != 'b';
  failures += status_as_str(GPA_STATUS_ERROR_NOT_FOUND)[0] != 'N';
  failures += GPA_Destroy() != GPA_STATUS_OK;
  printf("%d failure(s)\n", failures);
  return failures;
}
