// What GPA 4's entry points (src/entry/gpa4/, compiled against the v4 headers) need from the core beyond the
// exported v3 entry points. The v3 and v4 header sets define some types differently (GpaUuid, GpaApiType,
// the sample-type enums), so the two sides meet only through types both sets define alike: the opaque ids,
// GpaStatus, GpaUInt32 and plain integers. Implemented in src/entry/gpa4_core_bridge.cc, against the v3 set.
#ifndef OPENGPA_ENTRY_GPA4_CORE_BRIDGE_H_
#define OPENGPA_ENTRY_GPA4_CORE_BRIDGE_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "gpu_performance_api/gpu_perf_api_types.h"  // the includer's set: v3 or v4

namespace opengpa::gpa4 {

// Fills the v4 table at `table` (its major_version is 4), checking its size as GpaGetFuncTable does for v3.
// Defined on the v4 side; GpaGetFuncTable calls it.
[[nodiscard]] GpaStatus FillFunctionTable(void* table);

// The context of session `session_id` (null check and lookup logged under `function`).
[[nodiscard]] GpaStatus SessionContext(const char* function, GpaSessionId session_id, GpaContextId* context_id);

// GPA 4's GpaSessionSampleType values, which the core stores as OpenGPA's extension values of v3's enum.
enum class SampleType : std::uint32_t { kDiscrete = 0, kStreaming = 1, kSqtt = 2, kStreamingAndSqtt = 3 };
[[nodiscard]] GpaStatus CreateSession(GpaContextId context_id, int v4_sample_type, GpaSessionId* session_id);
[[nodiscard]] GpaStatus SessionSampleType(const char* function, GpaSessionId session_id, SampleType* type);

// GPA 4's GpaUuid: 16 bytes in RFC 4122 order (v3's is 24 on LP64 Linux).
struct Uuid16 {
  std::uint32_t data_1;
  std::uint16_t data_2;
  std::uint16_t data_3;
  std::uint8_t data_4[8];
};
[[nodiscard]] GpaStatus CounterUuid(GpaSessionId session_id, GpaUInt32 index, Uuid16* uuid);

[[nodiscard]] GpaStatus ResetSession(GpaSessionId session_id);
[[nodiscard]] GpaStatus AbortSession(GpaSessionId session_id);

// Streaming sessions (GPA 4's GpaSpm*). Each finds the session (logged under `function`) and then asks the core.
enum class SpmOption { kIntervalNs, kDurationNs };
[[nodiscard]] GpaStatus SpmSetOption(const char* function, GpaSessionId session_id, SpmOption option,
                                     std::uint64_t value);
[[nodiscard]] GpaStatus SpmBegin(GpaSessionId session_id);
[[nodiscard]] GpaStatus SpmEnd(GpaSessionId session_id);
// The series after GpaEndSession: timestamps[t] ends sample t (GPU clock, ns); values[c * T + t] is hardware
// counter counters[c] over sample t (CUPTI's value: an amount for counters, a reading for ratios).
struct SpmSeries {
  std::vector<std::uint64_t> timestamps;
  std::vector<std::uint32_t> counters;
  std::vector<double> values;
};
[[nodiscard]] GpaStatus SpmGetSeries(const char* function, GpaSessionId session_id, SpmSeries* series);
// The session's enabled counters over `rows` samples of `raw` (row-major, columns = hardware counter indices):
// out[row * enabled + e].
[[nodiscard]] GpaStatus SpmEvaluate(GpaSessionId session_id, const std::vector<std::uint32_t>& columns,
                                    std::size_t rows, const std::vector<double>& raw, std::vector<std::uint64_t>* out,
                                    GpaUInt32* enabled);

enum class DeviceLimit { kWaveSlots, kVgprs, kLdsBytes };
[[nodiscard]] GpaStatus GetDeviceLimit(const char* function, GpaContextId context_id, DeviceLimit limit,
                                       GpaUInt32* value);
[[nodiscard]] GpaStatus UpdateDeviceInformation(GpaContextId context_id, GpaUInt32 shader_engines,
                                                GpaUInt32 compute_units, GpaUInt32 simds, GpaUInt32 waves_per_simd);

}  // namespace opengpa::gpa4

#endif  // OPENGPA_ENTRY_GPA4_CORE_BRIDGE_H_
