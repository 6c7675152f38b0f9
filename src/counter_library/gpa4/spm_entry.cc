// GpaCounterlibComputeDerivedSpmCounterResults: counters over a streaming-counter time series (GpaSpmData), as
// GPA 4.3 checks it: every pointer set, no count zero, number_of_timestamps x number_of_spm_counter_info values,
// each counter's values starting at a multiple of number_of_timestamps. Values are 2- or 4-byte integers (AMD's
// widths) or 8-byte float64s (what OpenGPA's GpaSpmGetSampleResult returns: CUPTI's values are fractional).
// OpenGPA's hardware counters belong to no AMD block, so a GpaSpmCounterInfo names one by event_index alone
// (its hardware-counter index), as the live library's GpaSpmCalculateDerivedCounters reads it.
#include <cstring>

#include "counter_library/gpa4/gpa4_entry_points.h"
#include "counter_library/gpa4_bridge.h"
#include "platform/guarded.h"

namespace opengpa::counter_library::gpa4 {
namespace {

constexpr const char* kFunction = "GpaCounterlibComputeDerivedSpmCounterResults";

double ValueAt(const unsigned char* bytes, std::size_t at, GpaUInt32 width) {
  if (width == 2) {
    GpaUInt16 v;
    std::memcpy(&v, bytes + at * width, sizeof v);
    return v;
  }
  if (width == 4) {
    GpaUInt32 v;
    std::memcpy(&v, bytes + at * width, sizeof v);
    return v;
  }
  double v;
  std::memcpy(&v, bytes + at * width, sizeof v);
  return v;
}

// `data` read into columns of doubles, checked as GPA 4.3 checks it.
GpaStatus ReadSeries(const GpaSpmData& data, SpmColumns* series) {
  if (data.timestamps == nullptr) return opengpa::NullArgument(kFunction, "spm_data->timestamps");
  if (data.counter_data_16bit == nullptr) return opengpa::NullArgument(kFunction, "spm_data->counter_data_16bit");
  if (data.spm_counter_info == nullptr) return opengpa::NullArgument(kFunction, "spm_data->spm_counter_info");
  const std::size_t samples = data.number_of_timestamps;
  const std::size_t columns = data.number_of_spm_counter_info;
  if (samples == 0 || columns == 0 || data.number_of_counter_data == 0) {
    return LogError(kGpaStatusErrorInvalidParameter,
                    "{}: spm_data has {} timestamps, {} counter infos and {} values: none may be 0", kFunction, samples,
                    columns, data.number_of_counter_data);
  }
  const GpaUInt32 width = data.number_of_bytes_per_counter_data;
  if (width != 2 && width != 4 && width != sizeof(double)) {
    return LogError(kGpaStatusErrorInvalidParameter,
                    "{}: number_of_bytes_per_counter_data {} is none of 2, 4 (integers) and 8 (float64, OpenGPA's)",
                    kFunction, width);
  }
  if (samples * columns != data.number_of_counter_data) {
    return LogError(kGpaStatusErrorInvalidParameter,
                    "{}: number_of_counter_data {} is not number_of_timestamps {} x number_of_spm_counter_info {}",
                    kFunction, data.number_of_counter_data, samples, columns);
  }
  series->timestamps = samples;
  series->columns.resize(columns);
  series->values.resize(samples * columns);
  const auto* bytes = reinterpret_cast<const unsigned char*>(data.counter_data_16bit);
  for (std::size_t c = 0; c < columns; ++c) {
    const GpaSpmCounterInfo& info = data.spm_counter_info[c];
    if (info.data_offset % samples != 0 || info.data_offset + samples > data.number_of_counter_data) {
      return LogError(kGpaStatusErrorInvalidParameter,
                      "{}: spm_counter_info[{}].data_offset {} is not a multiple of the {} timestamps within the {} "
                      "values",
                      kFunction, c, info.data_offset, samples, data.number_of_counter_data);
    }
    series->columns[c] = info.event_index;
    for (std::size_t t = 0; t < samples; ++t) {
      series->values[c * samples + t] = ValueAt(bytes, info.data_offset + t, width);
    }
  }
  return kGpaStatusOk;
}

}  // namespace

GpaStatus ComputeDerivedSpmCounterResults(const GpaCounterContext gpa_virtual_context, const GpaSpmData* spm_data,
                                          GpaUInt64 gpa_counter_indices_count, const GpaUInt32* gpa_counter_indices,
                                          GpaFloat64* gpa_counter_results) {
  return opengpa::Guarded(kFunction, [&]() -> GpaStatus {
    if (gpa_virtual_context == nullptr) return opengpa::NullArgument(kFunction, "gpa_virtual_context");
    if (spm_data == nullptr) return opengpa::NullArgument(kFunction, "spm_data");
    if (gpa_counter_results == nullptr) return opengpa::NullArgument(kFunction, "gpa_counter_results");
    if (gpa_counter_indices == nullptr) return opengpa::NullArgument(kFunction, "gpa_counter_indices");
    if (gpa_counter_indices_count == 0) {
      return LogError(kGpaStatusErrorInvalidParameter, "{}: gpa_counter_indices_count is 0", kFunction);
    }
    SpmColumns series;
    if (GpaStatus status = ReadSeries(*spm_data, &series); status != kGpaStatusOk) return status;
    return ComputeSeries(gpa_virtual_context, series, gpa_counter_indices, gpa_counter_indices_count,
                         gpa_counter_results);
  });
}

}  // namespace opengpa::counter_library::gpa4
