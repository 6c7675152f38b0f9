// GPA 4's counter queries take a session: they answer for the counters of the session's context, which are
// the counters a session of any sample type collects (a streaming session streams the same counters).
#include "entry/gpa4/core_bridge.h"
#include "entry/gpa4/gpa4_entry_points.h"
#include "entry/gpa4/v3_entry_points.h"
#include "platform/logging.h"

namespace opengpa::gpa4 {
namespace {

// Looks the session's context up (SessionNotFound, logged under `function`), then asks v3's query.
template <typename Query>
GpaStatus OnSessionContext(const char* function, GpaSessionId session_id, Query&& query) {
  GpaContextId context_id = nullptr;
  if (GpaStatus status = SessionContext(function, session_id, &context_id); status != kGpaStatusOk) return status;
  return query(context_id);
}

}  // namespace

GpaStatus GpaGetNumCounters(GpaSessionId session_id, GpaUInt32* number_of_counters) {
  return OnSessionContext("GpaGetNumCounters", session_id,
                          [&](GpaContextId c) { return ::GpaGetNumCounters(c, number_of_counters); });
}

GpaStatus GpaGetCounterName(GpaSessionId session_id, GpaUInt32 index, const char** counter_name) {
  return OnSessionContext("GpaGetCounterName", session_id,
                          [&](GpaContextId c) { return ::GpaGetCounterName(c, index, counter_name); });
}

GpaStatus GpaGetCounterIndex(GpaSessionId session_id, const char* counter_name, GpaUInt32* counter_index) {
  return OnSessionContext("GpaGetCounterIndex", session_id,
                          [&](GpaContextId c) { return ::GpaGetCounterIndex(c, counter_name, counter_index); });
}

GpaStatus GpaGetCounterGroup(GpaSessionId session_id, GpaUInt32 index, const char** counter_group) {
  return OnSessionContext("GpaGetCounterGroup", session_id,
                          [&](GpaContextId c) { return ::GpaGetCounterGroup(c, index, counter_group); });
}

GpaStatus GpaGetCounterDescription(GpaSessionId session_id, GpaUInt32 index, const char** counter_description) {
  return OnSessionContext("GpaGetCounterDescription", session_id,
                          [&](GpaContextId c) { return ::GpaGetCounterDescription(c, index, counter_description); });
}

GpaStatus GpaGetCounterDataType(GpaSessionId session_id, GpaUInt32 index, GpaDataType* counter_data_type) {
  return OnSessionContext("GpaGetCounterDataType", session_id,
                          [&](GpaContextId c) { return ::GpaGetCounterDataType(c, index, counter_data_type); });
}

GpaStatus GpaGetCounterUsageType(GpaSessionId session_id, GpaUInt32 index, GpaUsageType* counter_usage_type) {
  return OnSessionContext("GpaGetCounterUsageType", session_id,
                          [&](GpaContextId c) { return ::GpaGetCounterUsageType(c, index, counter_usage_type); });
}

GpaStatus GpaGetCounterUuid(GpaSessionId session_id, GpaUInt32 index, GpaUuid* counter_uuid) {
  static_assert(sizeof(GpaUuid) == sizeof(Uuid16), "GPA 4's GpaUuid is 16 bytes");
  if (counter_uuid == nullptr) return LogError(kGpaStatusErrorNullPointer, "GpaGetCounterUuid: counter_uuid is NULL");
  Uuid16 uuid{};
  if (GpaStatus status = CounterUuid(session_id, index, &uuid); status != kGpaStatusOk) return status;
  counter_uuid->data_1 = uuid.data_1;
  counter_uuid->data_2 = uuid.data_2;
  counter_uuid->data_3 = uuid.data_3;
  for (int i = 0; i < 8; ++i) counter_uuid->data_4[i] = uuid.data_4[i];
  return kGpaStatusOk;
}

GpaStatus GpaGetCounterSampleType(GpaSessionId session_id, GpaUInt32 index, GpaCounterSampleType* counter_sample_type) {
  return OnSessionContext("GpaGetCounterSampleType", session_id, [&](GpaContextId c) {
    GpaUInt32 count = 0;
    if (GpaStatus status = ::GpaGetNumCounters(c, &count); status != kGpaStatusOk) return status;
    if (counter_sample_type == nullptr) {
      return LogError(kGpaStatusErrorNullPointer, "GpaGetCounterSampleType: counter_sample_type is NULL");
    }
    if (index >= count) {
      return LogError(kGpaStatusErrorIndexOutOfRange,
                      "GpaGetCounterSampleType: index {} is not below the counter count {}", index, count);
    }
    SampleType type = SampleType::kDiscrete;
    if (GpaStatus status = SessionSampleType("GpaGetCounterSampleType", session_id, &type); status != kGpaStatusOk) {
      return status;
    }
    const bool streams = type == SampleType::kStreaming || type == SampleType::kStreamingAndSqtt;
    *counter_sample_type = streams ? kGpaCounterSampleTypeStreaming : kGpaCounterSampleTypeDiscrete;
    return kGpaStatusOk;
  });
}

}  // namespace opengpa::gpa4
