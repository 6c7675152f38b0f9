// Results: GpaIsPassComplete, GpaIsSessionComplete, GpaGetSampleResultSize, GpaGetSampleResult.
#include "entry/entry_support.h"

using namespace opengpa;
using namespace opengpa::entry;

GpaStatus GpaIsPassComplete(GpaSessionId session_id, GpaUInt32 pass_index) {
  return Guarded("GpaIsPassComplete", [&] {
    if (session_id == nullptr) return NullArgument("GpaIsPassComplete", "session_id");
    return WithSession("GpaIsPassComplete", session_id, [&](Session& s) { return s.IsPassComplete(pass_index); });
  });
}

GpaStatus GpaIsSessionComplete(GpaSessionId session_id) {
  return Guarded("GpaIsSessionComplete", [&] {
    if (session_id == nullptr) return NullArgument("GpaIsSessionComplete", "session_id");
    return WithSession("GpaIsSessionComplete", session_id, [](Session& s) { return s.IsComplete(); });
  });
}

GpaStatus GpaGetSampleResultSize(GpaSessionId session_id, GpaUInt32 sample_id, size_t* sample_result_size_in_bytes) {
  return Guarded("GpaGetSampleResultSize", [&] {
    if (session_id == nullptr) return NullArgument("GpaGetSampleResultSize", "session_id");
    if (sample_result_size_in_bytes == nullptr) {
      return NullArgument("GpaGetSampleResultSize", "sample_result_size_in_bytes");
    }
    return WithSession("GpaGetSampleResultSize", session_id,
                       [&](Session& s) { return s.GetSampleResultSize(sample_id, sample_result_size_in_bytes); });
  });
}

GpaStatus GpaGetSampleResult(GpaSessionId session_id, GpaUInt32 sample_id, size_t sample_result_size_in_bytes,
                             void* counter_sample_results) {
  return Guarded("GpaGetSampleResult", [&] {
    if (session_id == nullptr) return NullArgument("GpaGetSampleResult", "session_id");
    if (counter_sample_results == nullptr) return NullArgument("GpaGetSampleResult", "counter_sample_results");
    return WithSession("GpaGetSampleResult", session_id, [&](Session& s) {
      return s.GetSampleResult(sample_id, sample_result_size_in_bytes, counter_sample_results);
    });
  });
}
