// GPA 4's SPM (streaming counter) calls, for sessions of kGpaSessionSampleTypeStreamingCounter (a live CUDA
// context offers them: CUPTI PM sampling; docs/gpa4.md "Streaming counters"). Each call first finds the session
// and checks its type (kGpaStatusErrorIncompatibleSampleTypes for another type, as GPA 4 answers), then:
//
//   GpaSpmSetSampleInterval  the interval in ns of GPU time (0: InvalidParameter; a backend may ask for more)
//   GpaSpmSetDuration        how long the caller expects to stream, in ns (sizes the hardware buffer)
//   GpaSpmBegin / GpaSpmEnd  start and stop streaming, between GpaBeginSession and GpaEndSession; command_list
//                            is not used (PM sampling is device-wide; CUDA has no command lists) and may be NULL
//   GpaSpmGetSampleResult*   after GpaEndSession: one GpaSpmData and the arrays it points to, in one buffer
//   GpaSpmCalculateDerivedCounters  the enabled counters at every timestamp of a GpaSpmData, counter by counter
#include <cstring>

#include "entry/gpa4/core_bridge.h"
#include "entry/gpa4/gpa4_entry_points.h"
#include "entry/gpa4/session_type_check.h"
#include "platform/guarded.h"

namespace opengpa::gpa4 {
namespace {

// Bytes per value in OpenGPA's GpaSpmData: a float64 each (CUPTI's value, fractional for .avg rollups).
constexpr GpaUInt32 kBytesPerValue = sizeof(double);

GpaStatus RequireStreaming(const char* function, GpaSessionId session_id) {
  return RequireSampleType(function, session_id, {SampleType::kStreaming, SampleType::kStreamingAndSqtt});
}

// The result buffer: the GpaSpmData, then its timestamps, counter infos and values, each 8-byte aligned.
struct Layout {
  size_t timestamps = 0;
  size_t infos = 0;
  size_t values = 0;
  size_t size = 0;
};
Layout LayoutOf(const SpmSeries& series) {
  Layout layout;
  layout.timestamps = sizeof(GpaSpmData);
  layout.infos = layout.timestamps + series.timestamps.size() * sizeof(GpaUInt64);
  layout.values = layout.infos + series.counters.size() * sizeof(GpaSpmCounterInfo);
  layout.size = layout.values + series.values.size() * kBytesPerValue;
  return layout;
}

}  // namespace

GpaStatus GpaSpmSetSampleInterval(GpaSessionId session_id, GpaUInt32 interval) {
  return opengpa::Guarded("GpaSpmSetSampleInterval", [&] {
    if (GpaStatus status = RequireStreaming("GpaSpmSetSampleInterval", session_id); status != kGpaStatusOk) {
      return status;
    }
    return SpmSetOption("GpaSpmSetSampleInterval", session_id, SpmOption::kIntervalNs, interval);
  });
}

GpaStatus GpaSpmSetDuration(GpaSessionId session_id, GpaUInt32 nanosecond_duration) {
  return opengpa::Guarded("GpaSpmSetDuration", [&] {
    if (GpaStatus status = RequireStreaming("GpaSpmSetDuration", session_id); status != kGpaStatusOk) return status;
    return SpmSetOption("GpaSpmSetDuration", session_id, SpmOption::kDurationNs, nanosecond_duration);
  });
}

GpaStatus GpaSpmBegin(GpaSessionId session_id, void*) {
  return opengpa::Guarded("GpaSpmBegin", [&] {
    if (GpaStatus status = RequireStreaming("GpaSpmBegin", session_id); status != kGpaStatusOk) return status;
    return SpmBegin(session_id);
  });
}

GpaStatus GpaSpmEnd(GpaSessionId session_id, void*) {
  return opengpa::Guarded("GpaSpmEnd", [&] {
    if (GpaStatus status = RequireStreaming("GpaSpmEnd", session_id); status != kGpaStatusOk) return status;
    return SpmEnd(session_id);
  });
}

GpaStatus GpaSpmGetSampleResultSize(GpaSessionId session_id, size_t* size) {
  return opengpa::Guarded("GpaSpmGetSampleResultSize", [&] {
    if (GpaStatus status = RequireStreaming("GpaSpmGetSampleResultSize", session_id); status != kGpaStatusOk) {
      return status;
    }
    if (size == nullptr) return LogError(kGpaStatusErrorNullPointer, "GpaSpmGetSampleResultSize: size is NULL");
    SpmSeries series;
    if (GpaStatus status = SpmGetSeries("GpaSpmGetSampleResultSize", session_id, &series); status != kGpaStatusOk) {
      return status;
    }
    *size = LayoutOf(series).size;
    return kGpaStatusOk;
  });
}

GpaStatus GpaSpmGetSampleResult(GpaSessionId session_id, size_t size, void* results) {
  return opengpa::Guarded("GpaSpmGetSampleResult", [&] {
    if (GpaStatus status = RequireStreaming("GpaSpmGetSampleResult", session_id); status != kGpaStatusOk) return status;
    if (results == nullptr) return LogError(kGpaStatusErrorNullPointer, "GpaSpmGetSampleResult: results is NULL");
    SpmSeries series;
    if (GpaStatus status = SpmGetSeries("GpaSpmGetSampleResult", session_id, &series); status != kGpaStatusOk) {
      return status;
    }
    const Layout layout = LayoutOf(series);
    if (size != layout.size) {
      return LogError(kGpaStatusErrorInvalidParameter,
                      "GpaSpmGetSampleResult: sample_result_size_in_bytes {} differs from the result size {} "
                      "(GpaSpmGetSampleResultSize)",
                      size, layout.size);
    }
    auto* base = static_cast<unsigned char*>(results);
    const size_t samples = series.timestamps.size();
    std::memcpy(base + layout.timestamps, series.timestamps.data(), samples * sizeof(GpaUInt64));
    auto* infos = reinterpret_cast<GpaSpmCounterInfo*>(base + layout.infos);
    for (size_t c = 0; c < series.counters.size(); ++c) {
      // NVIDIA has no GPA block ids: the hardware counter is named by its index (event_index).
      infos[c] = GpaSpmCounterInfo{0, 0, static_cast<GpaUInt32>(c * samples), series.counters[c]};
    }
    std::memcpy(base + layout.values, series.values.data(), series.values.size() * kBytesPerValue);
    GpaSpmData data{};
    data.number_of_timestamps = static_cast<GpaUInt32>(samples);
    data.number_of_spm_counter_info = static_cast<GpaUInt32>(series.counters.size());
    data.number_of_counter_data = static_cast<GpaUInt32>(series.values.size());
    data.number_of_bytes_per_counter_data = kBytesPerValue;
    data.timestamps = reinterpret_cast<const GpaUInt64*>(base + layout.timestamps);
    data.spm_counter_info = infos;
    data.counter_data_16bit = reinterpret_cast<const GpaUInt16*>(base + layout.values);
    std::memcpy(base, &data, sizeof data);
    return kGpaStatusOk;
  });
}

GpaStatus GpaSpmCalculateDerivedCounters(GpaSessionId session_id, GpaSpmData* spm_data, GpaUInt32 derived_counter_count,
                                         GpaUInt64* derived_counter_results) {
  const char* function = "GpaSpmCalculateDerivedCounters";
  return opengpa::Guarded(function, [&] {
    if (GpaStatus status = RequireStreaming(function, session_id); status != kGpaStatusOk) return status;
    if (spm_data == nullptr) return LogError(kGpaStatusErrorNullPointer, "{}: spm_data is NULL", function);
    if (derived_counter_results == nullptr) {
      return LogError(kGpaStatusErrorNullPointer, "{}: derived_counter_results is NULL", function);
    }
    const GpaSpmData& data = *spm_data;
    const size_t samples = data.number_of_timestamps;
    const size_t counters = data.number_of_spm_counter_info;
    if ((counters > 0 && (data.spm_counter_info == nullptr || data.counter_data_16bit == nullptr))) {
      return LogError(kGpaStatusErrorNullPointer, "{}: spm_data has {} counters but no counter info or data", function,
                      counters);
    }
    const GpaUInt32 width = data.number_of_bytes_per_counter_data;
    if (width != 2 && width != 4 && width != kBytesPerValue) {
      return LogError(kGpaStatusErrorInvalidParameter,
                      "{}: number_of_bytes_per_counter_data {} is none of 2, 4 (integers) and 8 (float64, OpenGPA's)",
                      function, width);
    }
    std::vector<std::uint32_t> columns(counters);
    std::vector<double> raw(samples * counters, 0.0);
    for (size_t c = 0; c < counters; ++c) {
      const GpaSpmCounterInfo& info = data.spm_counter_info[c];
      columns[c] = info.event_index;
      if (static_cast<size_t>(info.data_offset) + samples > data.number_of_counter_data) {
        return LogError(kGpaStatusErrorInvalidParameter,
                        "{}: counter {}'s values ({} from data_offset {}) lie past number_of_counter_data {}", function,
                        c, samples, info.data_offset, data.number_of_counter_data);
      }
      const auto* bytes = reinterpret_cast<const unsigned char*>(data.counter_data_16bit);
      for (size_t t = 0; t < samples; ++t) {
        const size_t at = (static_cast<size_t>(info.data_offset) + t) * width;
        double value = 0.0;
        if (width == 2) {
          GpaUInt16 v;
          std::memcpy(&v, bytes + at, sizeof v);
          value = v;
        } else if (width == 4) {
          GpaUInt32 v;
          std::memcpy(&v, bytes + at, sizeof v);
          value = v;
        } else {
          std::memcpy(&value, bytes + at, sizeof value);
        }
        raw[t * counters + c] = value;
      }
    }
    std::vector<std::uint64_t> evaluated;
    GpaUInt32 enabled = 0;
    if (GpaStatus status = SpmEvaluate(session_id, columns, samples, raw, &evaluated, &enabled);
        status != kGpaStatusOk) {
      return status;
    }
    if (static_cast<size_t>(derived_counter_count) != enabled * samples) {
      return LogError(kGpaStatusErrorInvalidParameter,
                      "{}: derived_counter_count {} is not the {} enabled counters times the {} timestamps", function,
                      derived_counter_count, enabled, samples);
    }
    // GPA 4's order: counter by counter, each over every timestamp.
    for (size_t e = 0; e < enabled; ++e) {
      for (size_t t = 0; t < samples; ++t) derived_counter_results[e * samples + t] = evaluated[t * enabled + e];
    }
    return kGpaStatusOk;
  });
}

}  // namespace opengpa::gpa4
