/* NvPmApi.h from C (C11): PerfKit 4.x's layout pinned (slot offsets, result codes, structs), then the library
   loaded and driven as a C PerfKit client would. Exit status 0 when every check holds. */
#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>

#define NVPM_INITGUID
#include "nvpmapi/NvPmApi.h"

/* Slot k of the table is at 8 + 8 k on LP64 (struct_size, padded, then pointers). */
#define SLOT(member, k) _Static_assert(offsetof(NvPmApi, member) == 8 + 8 * (k), #member " is not slot " #k)
SLOT(SetWarningLevel, 0);
SLOT(Init, 2);
SLOT(CreateContextFromOGLContext, 4);
SLOT(CreateContextFromCudaContext, 5);
SLOT(DestroyContext, 6);
SLOT(GetCounterAttribute, 12);
SLOT(AddCounterByName, 13);
SLOT(RemoveAllCounters, 19);
SLOT(BeginExperiment, 22);
SLOT(EndObject, 27);
SLOT(Sample, 28);
SLOT(GetCounterValue, 31);
SLOT(GetGPUBottleneckName, 32);
SLOT(EnumCountersByContextUserData, 36);
SLOT(GetCounterValueByNameUint64, 37);
SLOT(GetCounterValueByNameFloat64, 38);
_Static_assert(sizeof(NvPmApi) == 8 + 8 * 39, "the table has 39 functions");
_Static_assert(NVPM_ERROR_INVALID_PARAMETER == 1 && NVPM_ERROR_INVALID_COUNTER == 7 &&
                   NVPM_ERROR_EXPERIMENT_INCOMPLETE == 9 && NVPM_ERROR_EXPERIMENT_NOT_RUN == 14 &&
                   NVPM_ERROR_INTERNAL == 17 && NVPM_ERROR_INVALID_CONTEXT == 23 && NVPM_INCORRECT_VALUE_TYPE == 25,
               "PerfKit 4.x's result codes");
_Static_assert(NVPM_LIBRARY_NOT_FOUND == -2 && NVPM_FAILURE_DISABLED == -5, "PerfKit's negative results");
_Static_assert(sizeof(NVPMSampleValue) == 24 && sizeof(NVPMSampleValueEx) == 32, "sample structs");
_Static_assert(offsetof(NVPMSampleValueEx, ulCycles) == 16, "NVPMSampleValueEx layout");
_Static_assert(sizeof(NVPM_UUID) == 16, "NVPM_UUID");

int main(void) {
  void* library = dlopen(OPENGPA_NVPMAPI_LIBRARY, RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) return printf("cannot load %s\n", OPENGPA_NVPMAPI_LIBRARY), 1;
  NVPMGetExportTable_Pfn get = NULL;
  *(void**)(&get) = dlsym(library, "NVPMGetExportTable"); /* POSIX's way to a function pointer */
  void* table = NULL;
  if (get == NULL || get(&ETID_NvPmApi, &table) != NVPM_OK) return printf("no table\n"), 1;
  const NvPmApi* api = (const NvPmApi*)table;
  int failed = 0;
  NVPMUINT length = 0;
  failed += api->struct_size != sizeof(NvPmApi);
  failed += api->GetCounterName(1, NULL, &length) != NVPM_ERROR_NOT_INITIALIZED;
  failed += api->Init() != NVPM_OK;
  failed += api->GetCounterName(1, NULL, &length) != NVPM_ERROR_INVALID_COUNTER; /* no context: no ids yet */
  failed += api->DestroyContext(42) != NVPM_ERROR_INVALID_CONTEXT;
  failed += api->Shutdown() != NVPM_OK;
  dlclose(library);
  printf("%s\n", failed == 0 ? "ok" : "FAILED");
  return failed == 0 ? 0 : 1;
}
