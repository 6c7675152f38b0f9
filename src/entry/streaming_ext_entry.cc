// OpenGPA's streaming-counter extensions (gpu_perf_api/opengpa_ext.h): the options and the time series of a
// streaming session, for GPA v3 clients (which have no SPM calls) and GPA 4 clients alike. Not in
// GpaFunctionTable; clients resolve them with dlsym.
#include "gpu_performance_api/opengpa_ext.h"

#include "entry/entry_support.h"

using namespace opengpa;
using namespace opengpa::entry;

// Two of these take GpaUInt64, which the v3 headers declare unsigned long long and the v4 headers unsigned long:
// the same 64 bits on LP64 Linux, one symbol for both header sets, but two C++ types. A C++ GPA 4 client calling
// them through opengpa_ext.h's v4 pointer types calls a function of another C++ type, which UBSan's function
// check (-fsanitize=function, C++ callers only) would report although the call is the one a C client makes. So
// these two carry no C++ type signature for that check (docs/gpa4.md, docs/sanitizers.md).
#if defined(__clang__)
#define OPENGPA_SHARED_BY_BOTH_HEADER_SETS __attribute__((no_sanitize("function")))
#else
#define OPENGPA_SHARED_BY_BOTH_HEADER_SETS
#endif

namespace {

// Null check, lookup, and the session's type, logged under `function`.
template <typename Body>
GpaStatus WithStreamingSession(const char* function, GpaSessionId session_id, Body&& body) {
  return Guarded(function, [&] {
    if (session_id == nullptr) return NullArgument(function, "session_id");
    return WithSession(function, session_id, [&](Session& session) {
      if (!session.streaming()) {
        return LogError(kGpaStatusErrorIncompatibleSampleTypes,
                        "{}: session_id {:#x} is not a streaming session (kGpaSessionSampleTypeStreamingCounter)",
                        function, HandleValueOf(session_id));
      }
      return body(session);
    });
  });
}

}  // namespace

OPENGPA_SHARED_BY_BOTH_HEADER_SETS
GpaStatus OpenGpaSetStreamingOptions(GpaSessionId session_id, GpaUInt64 interval_ns, GpaUInt64 hardware_buffer_bytes) {
  return WithStreamingSession("OpenGpaSetStreamingOptions", session_id, [&](Session& session) {
    if (interval_ns != 0) {
      if (GpaStatus status = session.SetStreamingInterval(interval_ns); status != kGpaStatusOk) return status;
    }
    if (hardware_buffer_bytes != 0) return session.SetStreamingBufferBytes(hardware_buffer_bytes);
    return kGpaStatusOk;
  });
}

GpaStatus OpenGpaGetStreamingInfo(GpaSessionId session_id, OpenGpaStreamingInfo* info) {
  return WithStreamingSession("OpenGpaGetStreamingInfo", session_id, [&](Session& session) {
    if (info == nullptr) return NullArgument("OpenGpaGetStreamingInfo", "info");
    StreamingSeries series;
    std::vector<HardwareCounterIndex> columns;
    if (GpaStatus status = session.GetStreamingSeries(&series, &columns); status != kGpaStatusOk) return status;
    *info = OpenGpaStreamingInfo{};
    info->sample_count = static_cast<GpaUInt32>(series.start_ns.size());
    info->enabled_counter_count = session.NumEnabledCounters();
    info->interval_ns = series.interval_ns;
    info->begin_ns = series.begin_ns;
    info->end_ns = series.stop_ns;
    info->covered_ns = series.covered_ns;
    info->lost_sample_count = series.lost_samples;
    info->overflow_count = series.overflows;
    return kGpaStatusOk;
  });
}

OPENGPA_SHARED_BY_BOTH_HEADER_SETS
GpaStatus OpenGpaGetStreamingSamples(GpaSessionId session_id, GpaUInt32 first_sample, GpaUInt32 sample_count,
                                     GpaUInt64* start_ns, GpaUInt64* end_ns, GpaUInt64* results) {
  return WithStreamingSession("OpenGpaGetStreamingSamples", session_id, [&](Session& session) {
    StreamingSeries series;
    std::vector<HardwareCounterIndex> columns;
    if (GpaStatus status = session.GetStreamingSeries(&series, &columns); status != kGpaStatusOk) return status;
    const std::size_t available = series.start_ns.size();
    if (static_cast<std::size_t>(first_sample) + sample_count > available) {
      return LogError(kGpaStatusErrorIndexOutOfRange,
                      "OpenGpaGetStreamingSamples: samples {} .. {} are not within the {} samples streamed",
                      first_sample, static_cast<std::size_t>(first_sample) + sample_count, available);
    }
    for (GpaUInt32 i = 0; i < sample_count; ++i) {
      if (start_ns != nullptr) start_ns[i] = series.start_ns[first_sample + i];
      if (end_ns != nullptr) end_ns[i] = series.end_ns[first_sample + i];
    }
    if (results == nullptr || sample_count == 0) return kGpaStatusOk;
    const std::size_t width = columns.size();
    std::vector<double> raw(series.values.begin() + static_cast<std::ptrdiff_t>(first_sample * width),
                            series.values.begin() + static_cast<std::ptrdiff_t>((first_sample + sample_count) * width));
    std::vector<std::uint64_t> evaluated;
    if (GpaStatus status = session.EvaluateStreaming(columns, sample_count, raw, &evaluated); status != kGpaStatusOk) {
      return status;
    }
    std::copy(evaluated.begin(), evaluated.end(), results);
    return kGpaStatusOk;
  });
}
