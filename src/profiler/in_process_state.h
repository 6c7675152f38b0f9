// What the in-process entries of include/opengpa/opengpa_profile.h share (in_process.cc: the exact session,
// Python's per_kernel=True; in_process_sampled.cc: the sampled session, mode="sampled"): whether a session runs,
// the labels of its launches, and the calling thread's open ranges (PushRange/PopRange, NVTX).
#ifndef OPENGPA_PROFILER_IN_PROCESS_STATE_H_
#define OPENGPA_PROFILER_IN_PROCESS_STATE_H_

#include <cupti.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace opengpa::inject_cuda {

// One row's launch, as OpenGpaProfileGetLaunches returns it.
struct InProcessLaunch {
  std::uint64_t index = 0;
  std::string context;  // the CUcontext as "0x..."
  std::vector<std::string> ranges;
  // Where and when on the host the launch was made, so that Python can place it inside torch.profiler's CPU
  // events (python/opengpa/op_attribution.py): the OS thread id and CLOCK_REALTIME, the clock torch.profiler's
  // events are given in on Linux.
  std::int64_t thread = 0;
  std::int64_t host_ns = 0;
};

class SampledSession;  // in_process_sampled.cc
// Deletes a session (its PM sampling stopped, without a profile) where its type is known.
struct SampledSessionDeleter {
  void operator()(SampledSession* session) const;
};
using SampledSessionPointer = std::unique_ptr<SampledSession, SampledSessionDeleter>;

struct InProcessState {
  std::mutex mutex;  // guards launches (the exact session's launch hook runs on any thread)
  std::vector<InProcessLaunch> launches;
  bool running = false;
  SampledSessionPointer sampled;  // the running session is a sampled one
};

InProcessState& InProcess();

// The calling thread's labels, outermost first: Python's regions and, where NVTX reaches CUPTI, NVTX ranges.
std::vector<std::string>& OpenRangesOfThisThread();
// NVTX push/pop calls, followed onto the calling thread's labels.
void FollowNvtx(CUpti_CallbackId cbid, const CUpti_NvtxData& data);

// Ends the sampled session: its rows are attributed their shares of the PM samples and written as `opengpa
// profile`'s JSON to the session's output; `launches` gets the rows' labels. False and *error when the profile
// could not be made; a stop that lost samples or records says so in the profile's messages and succeeds.
bool StopSampledSession(SampledSessionPointer session, std::vector<InProcessLaunch>* launches, std::string* error);

}  // namespace opengpa::inject_cuda

#endif  // OPENGPA_PROFILER_IN_PROCESS_STATE_H_
