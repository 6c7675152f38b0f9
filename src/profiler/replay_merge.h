// Application replay: the program runs once per pass, each run collecting a part of the metrics, and the
// runs are joined launch by launch. They are joined only when every run profiled the same launches in the
// same order: same count, and at each position the same kernel name, grid and block. Anything else is
// reported and never mixed, since a value of one launch would land on another. The processes of a job are joined
// rank with rank (their order in each run's stream is the order they started in, which varies); processes
// without ranks by their order.
#ifndef OPENGPA_PROFILER_REPLAY_MERGE_H_
#define OPENGPA_PROFILER_REPLAY_MERGE_H_

#include <string>
#include <vector>

#include "profiler/profile_run.h"

namespace opengpa::profiling {

// passes[p] is the run of pass p. *merged gets pass 0's launches with the columns of every pass (in pass
// order) and every pass's messages. False and *error naming the pass and the first launch that differs.
bool MergeReplayPasses(const std::vector<ProfileRun>& passes, ProfileRun* merged, std::string* error);

}  // namespace opengpa::profiling

#endif  // OPENGPA_PROFILER_REPLAY_MERGE_H_
