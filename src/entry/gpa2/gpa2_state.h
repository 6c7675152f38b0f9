// The v2 API's global state, kept over v3 objects of the same core:
//   - each context GPA_OpenContext opened is a v3 context (GpaOpenContext with default flags); one of them
//     is current (the last opened or selected; after GPA_CloseContext the first still open);
//   - the counters enabled on a context live in a created, never-begun v3 session (`selection`), so v3
//     checks every enable and counts the passes;
//   - GPA_BeginSession begins that session (a fresh selection with the same counters replaces it), each
//     v2 pass is one v3 command list, each v2 sample a v3 sample; results are read with GpaGetSampleResult.
//   - a context keeps the results of its last kBufferedSessions sessions; older ones are deleted, and their
//     ids then read GPA_STATUS_ERROR_SESSION_NOT_FOUND, as the v2 guide's result buffering describes.
// Every v2 entry point holds `mutex` (recursive: a logging callback may call back into GPA).
#ifndef OPENGPA_ENTRY_GPA2_GPA2_STATE_H_
#define OPENGPA_ENTRY_GPA2_GPA2_STATE_H_

#include <cstddef>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <vector>

#include "entry/gpa2/gpa2_counters.h"
#include "entry/gpa2/gpa2_logging.h"
#include "gpu_performance_api/gpu_perf_api.h"
#include "gpu_performance_api/v2/GPUPerfAPI.h"
#include "platform/guarded.h"

namespace opengpa::gpa2 {

// AMD's last v2 release buffered 32 sessions for its graphics APIs (the guide asks for at least four).
inline constexpr std::size_t kBufferedSessions = 32;

struct V2Session {
  gpa_uint32 id = 0;
  GpaSessionId v3 = nullptr;
  gpa_uint32 pass_count = 0;                       // passes its counters need
  std::vector<gpa_uint32> enabled;                 // counter indices, in the order of the v3 result words
  std::vector<std::set<gpa_uint32>> pass_samples;  // sample ids ended in each needed pass

  bool HasSampleInAllPasses(gpa_uint32 sample_id) const;
};

// Between GPA_BeginSession and GPA_EndSession.
struct Recording {
  gpa_uint32 passes_begun = 0;
  bool pass_open = false;
  GpaCommandListId list = nullptr;  // the open pass's command list; none in a pass beyond those needed
  bool sample_open = false;
  gpa_uint32 open_sample_id = 0;
  std::set<gpa_uint32> ids_in_pass;
  gpa_uint32 samples_in_pass = 0;
  gpa_uint32 samples_in_first_pass = 0;
};

struct V2Context {
  void* api_context = nullptr;
  GpaContextId v3 = nullptr;
  std::vector<CounterView> counters;
  GpaSessionId selection = nullptr;
  gpa_uint32 next_session_id = 1;  // session ids start from 1 on a newly opened context
  std::deque<V2Session> sessions;  // oldest first; while recording, back() is the session being recorded
  std::optional<Recording> recording;

  V2Session* FindSession(gpa_uint32 id);
  bool IsRecording(const V2Session& session) const { return recording && &session == &sessions.back(); }
};

struct State {
  std::recursive_mutex mutex;
  std::vector<std::unique_ptr<V2Context>> contexts;
  V2Context* current = nullptr;
};

State& Gpa2();

// The counter indices enabled on a v3 session, in enable order.
std::vector<gpa_uint32> EnabledCounters(GpaSessionId session);

// A v3 session on `context` with `counters` enabled, not begun; nullptr (logged) on failure.
GpaSessionId CreateSelection(GpaContextId context, const std::vector<gpa_uint32>& counters);

// Runs body() under the state's mutex; an exception becomes GPA_STATUS_ERROR_FAILED with a message.
template <typename Body>
GPA_Status Guarded(const char* function, Body&& body) noexcept {
  return GuardedWith<GPA_Status>(
      function, GPA_STATUS_ERROR_FAILED,
      [](const std::string& message) { Fail(GPA_STATUS_ERROR_FAILED, "{}", message); },
      [&] {
        std::lock_guard<std::recursive_mutex> lock(Gpa2().mutex);
        return body();
      });
}

// Guarded, for calls that need the current context: GPA_STATUS_ERROR_COUNTERS_NOT_OPEN without one.
template <typename Body>
GPA_Status WithCurrentContext(const char* function, Body&& body) noexcept {
  return Guarded(function, [&]() -> GPA_Status {
    V2Context* context = Gpa2().current;
    if (context == nullptr) {
      return Fail(GPA_STATUS_ERROR_COUNTERS_NOT_OPEN, "{}: no context is open: call GPA_OpenContext first", function);
    }
    return body(*context);
  });
}

}  // namespace opengpa::gpa2

#endif  // OPENGPA_ENTRY_GPA2_GPA2_STATE_H_
