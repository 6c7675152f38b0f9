// Results: GpaIsPassComplete, GpaIsSessionComplete, GpaGetSampleResultSize, GpaGetSampleResult.
#include <optional>

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
    // The first read may wait for the device (up to the backend's result timeout), so it runs without the
    // library lock: calls on other sessions and contexts go on. The pin keeps the session alive meanwhile.
    Session* session = nullptr;
    std::optional<Session::Pin> pin;
    {
      SharedLock lock(Library().mutex);
      if (GpaStatus status = FindSession("GpaGetSampleResult", session_id, &session); status != kGpaStatusOk) {
        return status;
      }
      pin.emplace(*session);
    }
    return session->GetSampleResult(sample_id, sample_result_size_in_bytes, counter_sample_results);
  });
}
