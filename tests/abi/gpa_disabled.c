// A GPA client built with DISABLE_GPA=1 (gpu_perf_api_stub.h): it compiles, links without any GPA library,
// and every call, direct or through the loader's table, does nothing and returns kGpaStatusOk.
#define DISABLE_GPA 1
#include <stdio.h>

#include "gpu_performance_api/gpu_perf_api.h"
#include "gpu_performance_api/gpu_perf_api_interface_loader.h"

GpaFuncTableInfo* gpa_function_table_info = NULL;

int main(void) {
  int failures = 0;
  GpaContextId context = NULL;
  const GpaFunctionTable* gpa = NULL;
  GpaFunctionTable small;
  if (GpaInitialize(kGpaInitializeDefaultBit) != kGpaStatusOk) ++failures;
  if (GpaOpenContext(&context, kGpaOpenContextDefaultBit, &context) != kGpaStatusOk) ++failures;
  if (GpaInterfaceLoaderLoadApi(kGpaApiVulkan, NULL) != kGpaStatusOk) ++failures;  // nothing is loaded
  gpa = GpaInterfaceLoaderGetFunctionTable(kGpaApiVulkan);
  if (gpa == NULL || gpa->GpaBeginSession == NULL || gpa->GpaBeginSession(NULL) != kGpaStatusOk) ++failures;
  if (gpa != NULL && gpa->GpaGetDeviceGeneration != GpaGetDeviceGeneration) ++failures;
  // The stub's GpaGetFuncTable checks versions as the library's does.
  small.major_version = 2;
  small.minor_version = (GpaUInt32)sizeof small;
  if (GpaGetFuncTable(&small) != kGpaStatusErrorLibLoadMajorVersionMismatch || small.major_version != 3) ++failures;
  GpaInterfaceLoaderClearLoader();
  if (failures != 0) fprintf(stderr, "%d check(s) of the DISABLE_GPA stubs failed\n", failures);
  return failures == 0 ? 0 : 1;
}
