// What GPA 4's entry points (src/entry/gpa4/, compiled against the v4 headers) need from the core beyond the
// exported v3 entry points. The v3 and v4 header sets define some types differently (GpaUuid, GpaApiType,
// the sample-type enums), so the two sides meet only through types both sets define alike: the opaque ids,
// GpaStatus, GpaUInt32 and plain integers. Implemented in src/entry/gpa4_core_bridge.cc, against the v3 set.
#ifndef OPENGPA_ENTRY_GPA4_CORE_BRIDGE_H_
#define OPENGPA_ENTRY_GPA4_CORE_BRIDGE_H_

#include <cstddef>
#include <cstdint>

#include "gpu_performance_api/gpu_perf_api_types.h"  // the includer's set: v3 or v4

namespace opengpa::gpa4 {

// Fills the v4 table at `table` (its major_version is 4), checking its size as GpaGetFuncTable does for v3.
// Defined on the v4 side; GpaGetFuncTable calls it.
GpaStatus FillFunctionTable(void* table);

// The context of session `session_id` (null check and lookup logged under `function`).
GpaStatus SessionContext(const char* function, GpaSessionId session_id, GpaContextId* context_id);

// GPA 4's GpaSessionSampleType values, which the core stores as OpenGPA's extension values of v3's enum.
enum class SampleType : std::uint32_t { kDiscrete = 0, kStreaming = 1, kSqtt = 2, kStreamingAndSqtt = 3 };
GpaStatus CreateSession(GpaContextId context_id, std::uint32_t v4_sample_type, GpaSessionId* session_id);
GpaStatus SessionSampleType(const char* function, GpaSessionId session_id, SampleType* type);

// GPA 4's GpaUuid: 16 bytes in RFC 4122 order (v3's is 24 on LP64 Linux).
struct Uuid16 {
  std::uint32_t data_1;
  std::uint16_t data_2;
  std::uint16_t data_3;
  std::uint8_t data_4[8];
};
GpaStatus CounterUuid(GpaSessionId session_id, GpaUInt32 index, Uuid16* uuid);

GpaStatus ResetSession(GpaSessionId session_id);
GpaStatus AbortSession(GpaSessionId session_id);

enum class DeviceLimit { kWaveSlots, kVgprs, kLdsBytes };
GpaStatus GetDeviceLimit(const char* function, GpaContextId context_id, DeviceLimit limit, GpaUInt32* value);
GpaStatus UpdateDeviceInformation(GpaContextId context_id, GpaUInt32 shader_engines, GpaUInt32 compute_units,
                                  GpaUInt32 simds, GpaUInt32 waves_per_simd);

}  // namespace opengpa::gpa4

#endif  // OPENGPA_ENTRY_GPA4_CORE_BRIDGE_H_
