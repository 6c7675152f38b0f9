// Counter interrogation: GpaGetNumCounters ... GpaGetUsageTypeAsStr.
#include "entry/entry_support.h"
#include "platform/type_strings.h"

using namespace opengpa;
using namespace opengpa::entry;

namespace {

// ReadContextCounter for reads that need only the counter: `read(const PublicCounter&)`.
template <typename Output, typename Read>
GpaStatus ReadCounter(const char* function, const char* output_name, GpaContextId context_id, GpaUInt32 index,
                      Output* output, Read&& read) {
  return ReadContextCounter(function, output_name, context_id, index, output,
                            [&](Context&, const PublicCounter& counter) { return read(counter); });
}

}  // namespace

GpaStatus GpaGetNumCounters(GpaContextId context_id, GpaUInt32* number_of_counters) {
  return Guarded("GpaGetNumCounters", [&] {
    if (number_of_counters == nullptr) return NullArgument("GpaGetNumCounters", "number_of_counters");
    if (context_id == nullptr) return NullArgument("GpaGetNumCounters", "context_id");
    return WithContext("GpaGetNumCounters", context_id, [&](Context& context) {
      *number_of_counters = context.counters().size();
      return kGpaStatusOk;
    });
  });
}

GpaStatus GpaGetCounterName(GpaContextId context_id, GpaUInt32 index, const char** counter_name) {
  return ReadCounter("GpaGetCounterName", "counter_name", context_id, index, counter_name,
                     [](const PublicCounter& c) { return c.name.c_str(); });
}

GpaStatus GpaGetCounterIndex(GpaContextId context_id, const char* counter_name, GpaUInt32* counter_index) {
  return Guarded("GpaGetCounterIndex", [&] {
    if (counter_name == nullptr) return NullArgument("GpaGetCounterIndex", "counter_name");
    if (counter_index == nullptr) return NullArgument("GpaGetCounterIndex", "counter_index");
    if (context_id == nullptr) return NullArgument("GpaGetCounterIndex", "context_id");
    return WithContext("GpaGetCounterIndex", context_id, [&](Context& context) {
      const auto index = context.counters().Find(counter_name);
      if (!index) {
        return LogError(kGpaStatusErrorCounterNotFound,
                        "GpaGetCounterIndex: counter_name '{}' is not a counter of this context", counter_name);
      }
      *counter_index = *index;
      return kGpaStatusOk;
    });
  });
}

GpaStatus GpaGetCounterGroup(GpaContextId context_id, GpaUInt32 index, const char** counter_group) {
  return ReadCounter("GpaGetCounterGroup", "counter_group", context_id, index, counter_group,
                     [](const PublicCounter& c) { return c.group.c_str(); });
}

GpaStatus GpaGetCounterDescription(GpaContextId context_id, GpaUInt32 index, const char** counter_description) {
  return ReadCounter("GpaGetCounterDescription", "counter_description", context_id, index, counter_description,
                     [](const PublicCounter& c) { return c.description.c_str(); });
}

GpaStatus GpaGetCounterDataType(GpaContextId context_id, GpaUInt32 index, GpaDataType* counter_data_type) {
  return ReadCounter("GpaGetCounterDataType", "counter_data_type", context_id, index, counter_data_type,
                     [](const PublicCounter& c) { return c.data_type; });
}

GpaStatus GpaGetCounterUsageType(GpaContextId context_id, GpaUInt32 index, GpaUsageType* counter_usage_type) {
  return ReadCounter("GpaGetCounterUsageType", "counter_usage_type", context_id, index, counter_usage_type,
                     [](const PublicCounter& c) { return c.usage; });
}

GpaStatus GpaGetCounterUuid(GpaContextId context_id, GpaUInt32 index, GpaUuid* counter_uuid) {
  return ReadCounter("GpaGetCounterUuid", "counter_uuid", context_id, index, counter_uuid,
                     [](const PublicCounter& c) { return c.uuid; });
}

GpaStatus GpaGetCounterSampleType(GpaContextId context_id, GpaUInt32 index, GpaCounterSampleType* counter_sample_type) {
  // Every OpenGPA counter is collected per sample (discrete); none is streamed.
  return ReadCounter("GpaGetCounterSampleType", "counter_sample_type", context_id, index, counter_sample_type,
                     [](const PublicCounter&) { return kGpaCounterSampleTypeDiscrete; });
}

GpaStatus GpaGetDataTypeAsStr(GpaDataType counter_data_type, const char** type_as_str) {
  return Guarded("GpaGetDataTypeAsStr", [&] {
    if (type_as_str == nullptr) return NullArgument("GpaGetDataTypeAsStr", "type_as_str");
    const int type = EnumArgument(counter_data_type);
    const char* text = DataTypeAsString(type);
    if (text == nullptr) {
      return LogError(kGpaStatusErrorInvalidParameter, "GpaGetDataTypeAsStr: counter_data_type {} is not a GpaDataType",
                      type);
    }
    *type_as_str = text;
    return kGpaStatusOk;
  });
}

GpaStatus GpaGetUsageTypeAsStr(GpaUsageType counter_usage_type, const char** usage_type_as_str) {
  return Guarded("GpaGetUsageTypeAsStr", [&] {
    if (usage_type_as_str == nullptr) return NullArgument("GpaGetUsageTypeAsStr", "usage_type_as_str");
    const int usage = EnumArgument(counter_usage_type);
    const char* text = UsageTypeAsString(usage);
    if (text == nullptr) {
      return LogError(kGpaStatusErrorInvalidParameter,
                      "GpaGetUsageTypeAsStr: counter_usage_type {} is not a GpaUsageType", usage);
    }
    *usage_type_as_str = text;
    return kGpaStatusOk;
  });
}
