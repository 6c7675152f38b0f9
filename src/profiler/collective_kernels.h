// Collective kernels: launches that wait for peers in other processes or on other GPUs (NCCL's all-reduce,
// broadcast, send/recv kernels, or any kernel the user names with --collective-kernel). Such a kernel finishes
// only when every peer's matching kernel runs, so a profiler must never run it on its own (CUPTI's kernel replay
// runs each launch once per pass, device memory restored in between: the second run of an all-reduce waits for
// peers that already finished theirs) and must never make one process wait for a GPU on a peer's behalf while
// that peer waits for the collective. The rule (docs/cli.md, "Collectives"):
//   - under kernel replay a collective launch is measured in one pass of its own with user replay (no replay):
//     the metrics of one single-pass group (the one holding the duration) are measured, the others are left
//     empty, and the run's messages say which and why;
//   - none and application replay run every launch once already: collectives are profiled as any launch;
//   - a collective launch never waits for a GPU's turn (gpu_turns.h) nor makes another context of its process end
//     a batch that holds a collective: it runs unprofiled instead, named with the reason.
// Pure logic (no CUDA) so that CI tests it.
#ifndef OPENGPA_PROFILER_COLLECTIVE_KERNELS_H_
#define OPENGPA_PROFILER_COLLECTIVE_KERNELS_H_

#include <cstddef>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "profiler/profile_environment.h"

namespace opengpa::profiling {

// NCCL's kernels, as their demangled names start: ncclKernel_* (NCCL 2.18 and older), ncclDevKernel_* and
// ncclDevKernelDebug_* (2.19 on).
inline constexpr const char* kNcclKernelPattern = "^nccl(Dev)?Kernel";

class CollectiveKernels {
 public:
  // `extra`: --collective-kernel's regular expression (searched in the demangled name, as --kernel-name's), or
  // empty. False and *error quoting it when it does not compile.
  static bool Create(const std::string& extra, CollectiveKernels* out, std::string* error);
  // Whether a launch of kernel `name` (demangled) waits for peers.
  bool Matches(const std::string& name) const;

 private:
  std::optional<std::regex> extra_;
};

// Whether collective launches need a pass of their own under `mode` (the replay the context resolved: none,
// kernel or application): only kernel replay runs a launch more than once.
bool CollectivesNeedOwnPass(ReplayMode mode);

// Of the single-pass groups of a set (counter_plan.h's SplitIntoSinglePassGroups), the one a collective's own
// pass measures: the first that holds `duration` (the timeline needs it), else the first. `groups` not empty.
std::size_t CollectivePassGroup(const std::vector<std::vector<std::string>>& groups, const std::string& duration);

// The message a process writes at its first collective launch measured in a pass of its own: the kernel, the
// metrics measured and those left empty.
std::string CollectivePassNote(const std::string& kernel, const std::vector<std::string>& measured,
                               const std::vector<std::string>& left_empty);

}  // namespace opengpa::profiling

#endif  // OPENGPA_PROFILER_COLLECTIVE_KERNELS_H_
