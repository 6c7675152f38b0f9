// How `opengpa profile --api cuda` replays a counter set: the --replay-mode asked for, or what `auto` picks, or
// why the set is refused. Pure logic over CUPTI's pass counts (counter_plan.h asks CUPTI for them), so that CI
// tests it without a GPU.
//
// The values a set gives must be the values its counters give in one pass (docs/cli.md, "Replay modes"):
//   - one pass: `none`, each launch once;
//   - several passes whose metrics each fit one: `application`, the program once per pass;
//   - a metric that alone needs several passes (GH100: sm__throughput.avg.pct_of_peak_sustained_elapsed 8,
//     lts__t_sector_hit_rate.pct 2) cannot be split across runs, and CUPTI's kernel replay, the one mode that
//     collects it, restores device memory before each later pass with no flush in between: on the H100 DRAM
//     writes read up to 274 times one pass's, L2 hit rates above 100% and times several % longer. `auto`
//     refuses such a set, naming the metrics; `--replay-mode kernel` collects it as asked, with a note.
#ifndef OPENGPA_PROFILER_REPLAY_CHOICE_H_
#define OPENGPA_PROFILER_REPLAY_CHOICE_H_

#include <cstddef>
#include <string>
#include <vector>

#include "profiler/profile_environment.h"

namespace opengpa::inject_cuda {

// A metric of the set that CUPTI cannot collect in one pass even alone, and how many it needs.
struct SelfMultiPassMetric {
  std::string name;
  std::size_t passes = 0;
};

struct ReplayChoice {
  profiling::ReplayMode mode = profiling::ReplayMode::kNone;  // none, application or kernel; never auto
  std::string refusal;                                        // non-empty: the set is not collected, this is why
  std::string note;  // for the run's messages: which values differ from one pass's
};

// `asked`: --replay-mode; `passes`: CUPTI's pass count of the whole set on `chip`; `alone`: the set's metrics
// that need several passes by themselves (only looked for when passes > 1).
ReplayChoice ChooseReplay(profiling::ReplayMode asked, std::size_t passes,
                          const std::vector<SelfMultiPassMetric>& alone, const std::string& chip);

// The note a run collected with kernel replay over `passes` passes carries (empty for one pass): which of its
// values differ from one pass's, and why.
std::string KernelReplayNote(std::size_t passes);

}  // namespace opengpa::inject_cuda

#endif  // OPENGPA_PROFILER_REPLAY_CHOICE_H_
