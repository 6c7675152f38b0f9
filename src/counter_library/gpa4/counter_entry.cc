// GPA 4's per-counter calls whose answer differs from v3's: the UUID (GPA 4's GpaUuid is 16 bytes, v3's 24 on
// LP64 Linux), the sample type (streaming in a context opened for streaming counters) and the computation (its
// values are GPA 4's GpaUInt64, unsigned long, where v3's is unsigned long long).
#include "counter_library/gpa4/gpa4_entry_points.h"
#include "counter_library/gpa4_bridge.h"

namespace opengpa::counter_library::gpa4 {

static_assert(sizeof(GpaUuid) == sizeof(Uuid16), "GPA 4's GpaUuid is 16 bytes");

GpaStatus GetCounterUuid(const GpaCounterContext gpa_virtual_context, GpaUInt32 gpa_counter_index,
                         GpaUuid* gpa_counter_uuid) {
  Uuid16 uuid{};
  const GpaStatus status =
      CounterUuid(gpa_virtual_context, gpa_counter_index, gpa_counter_uuid != nullptr ? &uuid : nullptr);
  if (status != kGpaStatusOk) return status;
  gpa_counter_uuid->data_1 = uuid.data_1;
  gpa_counter_uuid->data_2 = uuid.data_2;
  gpa_counter_uuid->data_3 = uuid.data_3;
  for (int i = 0; i < 8; ++i) gpa_counter_uuid->data_4[i] = uuid.data_4[i];
  return kGpaStatusOk;
}

static_assert(sizeof(GpaUInt64) == sizeof(std::uint64_t), "GPA 4's GpaUInt64 is 64 bits");

GpaStatus ComputeDerivedCounterResultV4(const GpaCounterContext gpa_virtual_context, GpaUInt32 gpa_counter_index,
                                        const GpaUInt64* gpa_counter_result, GpaUInt32 gpa_counter_result_count,
                                        GpaFloat64* gpa_counter_value) {
  return ComputeDerivedCounterResult(gpa_virtual_context, gpa_counter_index,
                                     reinterpret_cast<const std::uint64_t*>(gpa_counter_result),
                                     gpa_counter_result_count, gpa_counter_value);
}

GpaStatus GetCounterSampleType(const GpaCounterContext gpa_virtual_context, GpaUInt32 gpa_counter_index,
                               GpaCounterSampleType* gpa_counter_sample_type) {
  bool streams = false;
  const GpaStatus status =
      CounterStreams(gpa_virtual_context, gpa_counter_index, gpa_counter_sample_type != nullptr ? &streams : nullptr);
  if (status != kGpaStatusOk) return status;
  *gpa_counter_sample_type = streams ? kGpaCounterSampleTypeStreaming : kGpaCounterSampleTypeDiscrete;
  return kGpaStatusOk;
}

}  // namespace opengpa::counter_library::gpa4
