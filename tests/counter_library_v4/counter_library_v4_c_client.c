/* A C client of libGPUPerfAPICounters.so compiled against include/v4 only, written the way GPA 4.3's clients
   are: dlopen, GpaCounterLibGetFuncTable with the versions set by hand (C has no constructor), then every step
   through the v4 table on the Vulkan catalog. Exits non-zero at the first step that does not give what the
   catalog and the GPA 4.3 ABI say. */
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
  CHECK(sizeof lib == 160);
  lib.gpa_counter_lib_major_version = GPA_COUNTER_LIB_FUNC_TABLE_MAJOR_VERSION;
  lib.gpa_counter_lib_minor_version = GPA_COUNTER_LIB_FUNC_TABLE_MINOR_VERSION;
  CHECK(get_table(&lib) == kGpaStatusOk);
  CHECK(lib.GpaCounterlibComputeDerivedSpmCounterResults != NULL);

  GpaSupportedSampleTypeInfo sample_info;
  memset(&sample_info, 0, sizeof sample_info);
  sample_info.vendor_id = 0x1002;
  sample_info.device_id = 0x744C;
  sample_info.driver_info.driver_type = kIgnoreDriver;
  GpaContextSampleTypeFlags sample_types = 0;
  CHECK(lib.GpaCounterLibGetSupportedSampleTypes(kGpaApiVulkan, &sample_info, &sample_types) == kGpaStatusOk);
  CHECK(sample_types == kGpaContextSampleTypeDiscreteCounter);

  GpaCounterContextHardwareInfo device = {0x1002, 0x744C, 0, NULL, 0};
  GpaCounterContext context = NULL;
  CHECK(lib.GpaCounterLibOpenCounterContext(kGpaApiVulkan, kGpaSessionSampleTypeStreamingCounter, device,
                                            kGpaOpenContextDefaultBit,
                                            &context) == kGpaStatusErrorIncompatibleSampleTypes);
  CHECK(lib.GpaCounterLibOpenCounterContext(kGpaApiVulkan, kGpaSessionSampleTypeDiscreteCounter, device,
                                            kGpaOpenContextEnableHardwareCountersBit, &context) == kGpaStatusOk);

  /* catalogs/vulkan.json starts GPUTime, ExecutionDuration, ExecutionStart, ExecutionEnd. */
  GpaUInt32 count = 0;
  CHECK(lib.GpaCounterLibGetNumCounters(context, &count) == kGpaStatusOk);
  const char* name = NULL;
  CHECK(lib.GpaCounterLibGetCounterName(context, 1, &name) == kGpaStatusOk);
  CHECK(strcmp(name, "ExecutionDuration") == 0);
  GpaUuid uuid;
  CHECK(lib.GpaCounterLibGetCounterUuid(context, 0, &uuid) == kGpaStatusOk);
  CHECK(sizeof uuid == 16);
  GpaCounterSampleType sample_type = kGpaCounterSampleTypeStreaming;
  CHECK(lib.GpaCounterLibGetCounterSampleType(context, 0, &sample_type) == kGpaStatusOk);
  CHECK(sample_type == kGpaCounterSampleTypeDiscrete);

  /* PSPixelsPerPrimitive = fragment_shader_invocations / max(clipping_primitives, 1). */
  GpaCounterParam param;
  memset(&param, 0, sizeof param);
  param.is_derived_counter = true;
  param.derived_counter_name = "pspixelsperprimitive";
  GpaUInt32 ppp = 0;
  CHECK(lib.GpaCounterLibGetCounterIndex(context, &param, &ppp) == kGpaStatusOk);
  const GpaCounterInfo* info = NULL;
  CHECK(lib.GpaCounterLibGetCounterInfo(context, ppp, &info) == kGpaStatusOk);
  CHECK(info->is_derived_counter);
  CHECK(info->gpa_derived_counter->gpa_hw_counter_count == 2);
  GpaUInt64 raw[2];
  GpaSpmCounterInfo columns[2];
  GpaUInt16 series[4];
  for (GpaUInt32 k = 0; k < 2; ++k) {
    const GpaHwCounter* hw = &info->gpa_derived_counter->gpa_hw_counters[k];
    CHECK(!hw->is_timing_block && hw->gpa_hw_block == kGpaHwBlockCount && kGpaHwBlockCount == 56);
    memset(&param, 0, sizeof param);
    param.gpa_hw_counter = *hw;
    GpaUInt32 index = 0;
    CHECK(lib.GpaCounterLibGetCounterIndex(context, &param, &index) == kGpaStatusOk);
    CHECK(lib.GpaCounterLibGetCounterName(context, index, &name) == kGpaStatusOk);
    const int is_fragments = strcmp(name, "fragment_shader_invocations") == 0;
    raw[k] = is_fragments ? 900 : 300;
    columns[k].gpu_block_id = hw->gpa_hw_block;
    columns[k].gpu_block_instance = 0;
    columns[k].data_offset = 2 * k;
    columns[k].event_index = hw->gpa_hw_block_event_id;
    series[2 * k] = is_fragments ? 900 : 300;
    series[2 * k + 1] = is_fragments ? 50 : 0;
  }
  GpaFloat64 result = 0;
  CHECK(lib.GpaCounterLibComputeDerivedCounterResult(context, ppp, raw, 2, &result) == kGpaStatusOk);
  CHECK(result == 3.0);

  const GpaUInt64 timestamps[2] = {1000, 2000};
  GpaSpmData spm;
  memset(&spm, 0, sizeof spm);
  spm.number_of_timestamps = 2;
  spm.number_of_spm_counter_info = 2;
  spm.number_of_counter_data = 4;
  spm.number_of_bytes_per_counter_data = 2;
  spm.timestamps = timestamps;
  spm.spm_counter_info = columns;
  spm.counter_data_16bit = series;
  GpaFloat64 over_time[2] = {0, 0};
  CHECK(lib.GpaCounterlibComputeDerivedSpmCounterResults(context, &spm, 1, &ppp, over_time) == kGpaStatusOk);
  CHECK(over_time[0] == 3.0 && over_time[1] == 50.0);

  GpaUInt32 passes = 0;
  CHECK(lib.GpaCounterLibGetPassCount(context, &ppp, 1, &passes) == kGpaStatusOk);
  CHECK(passes == 1);

  printf("v4 C client: %u counters, PSPixelsPerPrimitive %.1f then %.1f, %u pass\n", count, over_time[0], over_time[1],
         passes);
  CHECK(lib.GpaCounterLibCloseCounterContext(context) == kGpaStatusOk);
  CHECK(lib.GpaCounterLibGetNumCounters(context, &count) == kGpaStatusErrorContextNotOpen);
  return 0;
}
