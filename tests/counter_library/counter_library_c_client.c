/* A C client of libGPUPerfAPICounters.so written the way AMD's are: dlopen, GpaCounterLibGetFuncTable with
   the versions set by hand (C has no constructor), then every step through the table. Exits non-zero at the
   first step that does not give what the catalog says. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "gpu_performance_api/gpu_perf_api_counters.h"

#define CHECK(condition)                                      \
  do {                                                        \
    if (!(condition)) {                                       \
      fprintf(stderr, "line %d: %s\n", __LINE__, #condition); \
      return 1;                                               \
    }                                                         \
  } while (0)

int main(int argc, char** argv) {
  CHECK(argc == 2);
  void* library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  CHECK(library != NULL);
  GpaCounterLibGetFuncTablePtrType get_table =
      (GpaCounterLibGetFuncTablePtrType)dlsym(library, "GpaCounterLibGetFuncTable");
  CHECK(get_table != NULL);

  GpaCounterLibFuncTable lib;
  memset(&lib, 0, sizeof lib);
  lib.gpa_counter_lib_major_version = GPA_COUNTER_LIB_FUNC_TABLE_MAJOR_VERSION;
  lib.gpa_counter_lib_minor_version = GPA_COUNTER_LIB_FUNC_TABLE_MINOR_VERSION;
  CHECK(get_table(&lib) == kGpaStatusOk);
  CHECK(lib.GpaCounterLibGetCountersByPass != NULL);

  GpaCounterContextHardwareInfo device = {0x1002, 0x744C, 0, NULL, 0};
  GpaCounterContext context = NULL;
  CHECK(lib.GpaCounterLibOpenCounterContext(kGpaApiOpencl, device, kGpaOpenContextDefaultBit, 1, &context) ==
        kGpaStatusOk);

  /* catalogs/opencl.json: GPUTime, ExecutionStart, ExecutionEnd, ExecutionDuration, QueueToStartLatency. */
  GpaUInt32 count = 0;
  CHECK(lib.GpaCounterLibGetNumCounters(context, &count) == kGpaStatusOk);
  CHECK(count == 5);
  const char* name = NULL;
  CHECK(lib.GpaCounterLibGetCounterName(context, 4, &name) == kGpaStatusOk);
  CHECK(strcmp(name, "QueueToStartLatency") == 0);

  GpaCounterParam param;
  memset(&param, 0, sizeof param);
  param.is_derived_counter = true;
  param.derived_counter_name = "gputime";
  GpaUInt32 gpu_time = 99;
  CHECK(lib.GpaCounterLibGetCounterIndex(context, &param, &gpu_time) == kGpaStatusOk);
  CHECK(gpu_time == 0);

  /* GPUTime = EndMarkerEnd - BeginMarkerEnd over two timing hardware counters. */
  const GpaCounterInfo* info = NULL;
  CHECK(lib.GpaCounterLibGetCounterInfo(context, gpu_time, &info) == kGpaStatusOk);
  CHECK(info->is_derived_counter);
  CHECK(info->gpa_derived_counter->gpa_hw_counter_count == 2);
  CHECK(info->gpa_derived_counter->gpa_hw_counters[0].is_timing_block);

  GpaUInt32 passes = 0;
  const GpaUInt32 all[5] = {0, 1, 2, 3, 4};
  CHECK(lib.GpaCounterLibGetPassCount(context, all, 5, &passes) == kGpaStatusOk);
  CHECK(passes == 1);

  printf("C client: %u counters, %u pass\n", count, passes);
  CHECK(lib.GpaCounterLibCloseCounterContext(context) == kGpaStatusOk);
  CHECK(lib.GpaCounterLibGetNumCounters(context, &count) == kGpaStatusErrorContextNotOpen);
  return 0;
}
