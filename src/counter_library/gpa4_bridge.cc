// The v3 side of the GPA 4 counter-library table (gpa4_bridge.h): the same registry, catalogs and counter engine
// as the v3 entry points, reached with GPA 4's values translated at the boundary.
#include "counter_library/gpa4_bridge.h"

#include <algorithm>
#include <cstring>
#include <memory>

#include "counter_library/context_registry.h"
#include "counter_library/device_selection.h"
#include "gpu_performance_api/gpu_perf_api_counters.h"
#include "gpu_performance_api/opengpa_ext.h"

namespace opengpa::counter_library::gpa4 {
namespace {

// v3's GpaCounterContextHardwareInfo for `device`; its attributes live in `attributes`.
GpaCounterContextHardwareInfo HardwareInfoOf(const DeviceIds& device, std::vector<GpaHardwareAttribute>* attributes) {
  for (const auto& [type, value] : device.attributes) {
    GpaHardwareAttribute attribute{};
    // Copied as the int it is: it may be no GpaHardwareAttributeType (platform/enum_argument.h).
    std::memcpy(&attribute.gpa_hardware_attribute_type, &type, sizeof type);
    attribute.gpa_hardware_attribute_value = value;
    attributes->push_back(attribute);
  }
  GpaCounterContextHardwareInfo info{};
  info.vendor_id = device.vendor_id;
  info.device_id = device.device_id;
  info.revision_id = device.revision_id;
  info.gpa_hardware_attributes = attributes->empty() ? nullptr : attributes->data();
  info.gpa_hardware_attribute_count = static_cast<GpaUInt32>(attributes->size());
  return info;
}

// The context sample-type bits (the same values in v3's opengpa_ext.h and GPA 4) a session of `type` needs.
GpaContextSampleTypeFlags RequiredBits(SampleType type) {
  switch (type) {
    case SampleType::kStreaming: return kGpaContextSampleTypeStreamingCounter;
    case SampleType::kStreamingAndSqtt: return kGpaContextSampleTypeStreamingCounter | kGpaContextSampleTypeSqtt;
    case SampleType::kSqtt: return kGpaContextSampleTypeSqtt;
    case SampleType::kDiscrete: break;
  }
  return 0;
}

// `body(context)` for a valid counter index of a live context.
template <typename Body>
GpaStatus WithCounterIndex(const char* function, _GpaCounterContext* id, GpaUInt32 index, Body&& body) {
  return WithContext(function, id, [&](CounterContext& context) -> GpaStatus {
    if (index >= context.counters().size()) {
      return LogError(kGpaStatusErrorIndexOutOfRange, "{}: gpa_counter_index {} >= {} counters", function, index,
                      context.counters().size());
    }
    return body(context);
  });
}

}  // namespace

GpaStatus OpenCounterContext(int v3_api, SampleType type, const DeviceIds& device, GpaUInt32 context_flags,
                             _GpaCounterContext** context) {
  return GuardedLocked("GpaCounterLibOpenCounterContext", [&] {
    ContextFlavor flavor;
    flavor.no_block = kNoBlock;
    flavor.streaming = type == SampleType::kStreaming || type == SampleType::kStreamingAndSqtt;
    std::vector<GpaHardwareAttribute> attributes;
    return OpenContext(v3_api, HardwareInfoOf(device, &attributes), context_flags, flavor, RequiredBits(type), context);
  });
}

GpaStatus SupportedSampleTypes(int v3_api, const DeviceIds& device, GpaUInt32* sample_types) {
  constexpr const char* kFunction = "GpaCounterLibGetSupportedSampleTypes";
  return GuardedLocked(kFunction, [&] {
    std::unique_ptr<BackendContext> backend;
    std::vector<GpaHardwareAttribute> attributes;
    if (GpaStatus status = OpenOfflineBackend(kFunction, v3_api, HardwareInfoOf(device, &attributes), &backend);
        status != kGpaStatusOk) {
      return status;
    }
    // GPA 4 gives discrete counters bit 0 (v3's value is 0, every device has them); the other bits mean the same.
    constexpr GpaUInt32 kDiscreteBit = 0x1;
    *sample_types = kDiscreteBit | (backend->SupportedSampleTypes() &
                                    (kGpaContextSampleTypeStreamingCounter | kGpaContextSampleTypeSqtt));
    return kGpaStatusOk;
  });
}

GpaStatus CounterUuid(_GpaCounterContext* context, GpaUInt32 index, Uuid16* uuid) {
  constexpr const char* kFunction = "GpaCounterLibGetCounterUuid";
  return WithCounterIndex(kFunction, context, index, [&](CounterContext& counters) {
    if (uuid == nullptr) return NullArgument(kFunction, "gpa_counter_uuid");
    // OpenGPA fills only the low 32 bits of v3's 8-byte data_1: the same UUID in both layouts.
    const GpaUuid& v3 = counters.counters().at(index).uuid;
    uuid->data_1 = static_cast<std::uint32_t>(v3.data_1);
    uuid->data_2 = v3.data_2;
    uuid->data_3 = v3.data_3;
    std::memcpy(uuid->data_4, v3.data_4, sizeof uuid->data_4);
    return kGpaStatusOk;
  });
}

GpaStatus CounterStreams(_GpaCounterContext* context, GpaUInt32 index, bool* streams) {
  constexpr const char* kFunction = "GpaCounterLibGetCounterSampleType";
  return WithCounterIndex(kFunction, context, index, [&](CounterContext& counters) {
    if (streams == nullptr) return NullArgument(kFunction, "gpa_counter_sample_type");
    *streams = counters.streaming();
    return kGpaStatusOk;
  });
}

GpaStatus ComputeDerivedCounterResult(_GpaCounterContext* context, GpaUInt32 index, const std::uint64_t* values,
                                      GpaUInt32 count, double* result) {
  // The v3 entry point checks everything; the values are copied into its GpaUInt64 (no type punning).
  std::vector<GpaUInt64> v3_values;
  if (values != nullptr) v3_values.assign(values, values + count);
  return ::GpaCounterLibComputeDerivedCounterResult(context, index, values != nullptr ? v3_values.data() : nullptr,
                                                    count, result);
}

GpaStatus ComputeSeries(_GpaCounterContext* context, const SpmColumns& series, const GpaUInt32* indices,
                        std::uint64_t count, double* results) {
  constexpr const char* kFunction = "GpaCounterlibComputeDerivedSpmCounterResults";
  return WithContext(kFunction, context, [&](CounterContext& counters) -> GpaStatus {
    const std::size_t hardware_count = counters.backend().HardwareCounters().size();
    for (std::size_t c = 0; c < series.columns.size(); ++c) {
      if (series.columns[c] >= hardware_count) {
        return LogError(kGpaStatusErrorInvalidParameter,
                        "{}: spm_counter_info[{}].event_index {} names no hardware counter (this context has {})",
                        kFunction, c, series.columns[c], hardware_count);
      }
    }
    std::vector<std::uint32_t> wanted(indices, indices + count);
    for (std::size_t k = 0; k < wanted.size(); ++k) {
      if (wanted[k] >= counters.counters().size()) {  // AMD's status for an index with no counter
        return LogError(kGpaStatusErrorCounterNotFound, "{}: gpa_counter_indices[{}] = {} >= {} counters", kFunction, k,
                        wanted[k], counters.counters().size());
      }
    }
    const std::vector<HardwareCounterIndex> columns(series.columns.begin(), series.columns.end());
    return counters.ComputeSeries(kFunction, wanted, columns, series.timestamps, series.values, results);
  });
}

}  // namespace opengpa::counter_library::gpa4
