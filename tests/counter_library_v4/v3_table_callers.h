// GPA v3.17's view of libGPUPerfAPICounters.so, for a test that sees only include/v4: calls through the v3
// table's Open (slot 2: the ASIC flag instead of a sample type; v3 numbers Vulkan 5) and GetCounterUuid (slot 11:
// a 24-byte GpaUuid on LP64 Linux). Made from C (v3_table_callers.c): v3's functions take v3's types, which a
// C++ caller with the v4 headers cannot name, and C++ may not call a function through a pointer of another type
// (UBSan's function check); a C caller passes the same bits.
#ifndef OPENGPA_TESTS_COUNTER_LIBRARY_V4_V3_TABLE_CALLERS_H_
#define OPENGPA_TESTS_COUNTER_LIBRARY_V4_V3_TABLE_CALLERS_H_

#include "gpu_performance_api/gpu_perf_api_counters.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct V3Uuid {
  unsigned long data_1;
  unsigned short data_2;
  unsigned short data_3;
  unsigned char data_4[8];
} V3Uuid;

GpaStatus CallV3Open(void* function, int v3_api, GpaCounterContextHardwareInfo info, GpaOpenContextFlags flags,
                     GpaUInt8 asic, GpaCounterContext* context);
GpaStatus CallV3GetCounterUuid(void* function, GpaCounterContext context, GpaUInt32 index, V3Uuid* uuid);

#ifdef __cplusplus
}
#endif

#endif  // OPENGPA_TESTS_COUNTER_LIBRARY_V4_V3_TABLE_CALLERS_H_
