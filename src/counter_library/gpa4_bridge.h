// What the GPA 4 counter-library table (src/counter_library/gpa4/, compiled against include/v4) needs from the
// library's core (compiled against the v3 set): the v3 and v4 headers define several types differently
// (GpaApiType's values, GpaUuid, the sample-type enums, GpaHwBlock's count), so the two sides meet only through
// types both define alike: GpaStatus, GpaUInt32, the opaque context id and plain integers.
#ifndef OPENGPA_COUNTER_LIBRARY_GPA4_BRIDGE_H_
#define OPENGPA_COUNTER_LIBRARY_GPA4_BRIDGE_H_

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "gpu_performance_api/gpu_perf_api_types.h"  // the includer's set: v3 or v4

struct _GpaCounterContext;  // GpaCounterContext, as both sets' gpu_perf_api_counters.h define it

namespace opengpa::counter_library::gpa4 {

// A caller may state this major version for the v4 table; GPA 4.3's own headers state 3 (and a larger size).
inline constexpr GpaUInt32 kTableMajorVersion = 4;

// GPA 4's kGpaHwBlockCount (v3's is 51): the gpa_hw_block a v4 context's hardware counters name (no AMD block).
inline constexpr std::uint32_t kNoBlock = 56;

// Fills the v4 table at `table` (the caller stated major version 4, or 3 with a size above v3's), checking its
// size as GpaCounterLibGetFuncTable does for v3. Defined on the v4 side.
[[nodiscard]] GpaStatus FillFunctionTable(void* table);

// ---- Defined on the v3 side (gpa4_bridge.cc), each under the library lock and logged ----

// GpaCounterContextHardwareInfo's fields (the same layout in both sets; its attribute enum differs).
struct DeviceIds {
  std::uint32_t vendor_id = 0;
  std::uint32_t device_id = 0;
  std::uint32_t revision_id = 0;
  // The attributes as (type, value): the type is the int the caller wrote. The types the library reads have the
  // same value in both sets (kGpaHardwareAttributeNumComputeUnits 3, OpenGPA's from 0x100).
  std::vector<std::pair<int, std::uint32_t>> attributes;
};

// GPA 4's GpaSessionSampleType values.
enum class SampleType : std::uint32_t { kDiscrete = 0, kStreaming = 1, kSqtt = 2, kStreamingAndSqtt = 3 };

// Opens a context for `v3_api` (the API in v3's numbering) listing the counters of a session of `type`
// (kDiscrete, kStreaming or kStreamingAndSqtt; the device must offer it, else IncompatibleSampleTypes).
[[nodiscard]] GpaStatus OpenCounterContext(int v3_api, SampleType type, const DeviceIds& device,
                                           GpaUInt32 context_flags, _GpaCounterContext** context);

// GPA 4's GpaContextSampleTypeBits the device offers for `v3_api` (discrete counters always: bit 0).
[[nodiscard]] GpaStatus SupportedSampleTypes(int v3_api, const DeviceIds& device, GpaUInt32* sample_types);

// GPA 4's GpaUuid: 16 bytes in RFC 4122 order (v3's is 24 on LP64 Linux).
struct Uuid16 {
  std::uint32_t data_1;
  std::uint16_t data_2;
  std::uint16_t data_3;
  std::uint8_t data_4[8];
};
[[nodiscard]] GpaStatus CounterUuid(_GpaCounterContext* context, GpaUInt32 index, Uuid16* uuid);

// Whether counter `index` streams (the context was opened for streaming counters).
[[nodiscard]] GpaStatus CounterStreams(_GpaCounterContext* context, GpaUInt32 index, bool* streams);

// A streaming-counter time series as GpaSpmData carries it, read into doubles: `columns[c]` is the hardware
// counter (index h) of column c, `values[c * timestamps + t]` its value at timestamp t.
struct SpmColumns {
  std::size_t timestamps = 0;
  std::vector<std::uint32_t> columns;
  std::vector<double> values;
};
// GpaCounterLibComputeDerivedCounterResult with the values as std::uint64_t: v4's GpaUInt64 is unsigned long, v3's
// unsigned long long (the same 64 bits on LP64 Linux, but another C++ type, so the v3 function may not be called
// through the v4 table's pointer type: UBSan's function check).
GpaStatus ComputeDerivedCounterResult(_GpaCounterContext* context, GpaUInt32 index, const std::uint64_t* values,
                                      GpaUInt32 count, double* result);

// results[k * timestamps + t]: counter indices[k] at timestamp t.
[[nodiscard]] GpaStatus ComputeSeries(_GpaCounterContext* context, const SpmColumns& series, const GpaUInt32* indices,
                                      std::uint64_t count, double* results);

}  // namespace opengpa::counter_library::gpa4

#endif  // OPENGPA_COUNTER_LIBRARY_GPA4_BRIDGE_H_
