// How a counter set splits into sessions and passes. GPA only reports how many passes a set of enabled
// counters needs (GpaGetPassCount), and refuses a set it cannot collect in one session (CUPTI cannot
// combine some units, e.g. PCIe with SM counters), so the plan is derived from those answers alone, with
// few questions, each as large as the library can answer at once:
//
//  1. The whole set: one question. Its answer is the pass count users act on.
//  2. When the library refuses the whole set, it is split into sessions the library accepts. With the caller's
//     blocks (one per hardware unit), which blocks can share a session is first asked with one counter of each,
//     two at a time (small questions), the blocks are coloured into sessions first fit, and each session is asked
//     whole once: few large questions. The blocks of a session the library still refuses, and every set without
//     blocks, go block by block: counters are
//     added to the first session in blocks (the caller's, e.g. one per hardware unit, or halves of the set),
//     a block the library takes alone but not with the session waits whole for the next session, another
//     refused block is halved until the counter that does not fit is found, and what does not fit opens
//     the next session. Sessions are as large as the library allows,
//     so the plan has few sessions and, since a session's passes are shared by all its counters, few passes.
//     Each session is one group; its pass count is GpaGetPassCount of the session.
//  3. When the set fits one session and `place_passes` is set, its counters are placed in passes: a pass
//     starts with the first counter not yet placed and takes the longest run of the following counters
//     that does not raise its pass count, found by doubling the run and then halving the step
//     (O(log run) questions); a counter that does not fit is left for a later pass and the scan goes on
//     after it, until several in a row did not fit. A counter that needs k passes by itself (a derived
//     counter over many hardware counters) opens a group of k consecutive passes. Without `place_passes`
//     the one session is the one group, with the library's pass count.
//
// The placement of step 3 is a valid schedule but can use more passes than the library's own scheduler
// reports for the whole set (the scheduler sees all counters at once); callers print both numbers.
#ifndef OPENGPA_TOOLS_OPENGPA_PASS_PLACEMENT_H_
#define OPENGPA_TOOLS_OPENGPA_PASS_PLACEMENT_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace opengpa::cli {

// Passes needed to collect exactly `counters` (indices as GPA numbers them); nullopt when the library refused.
// `probing` is true for the trial subsets of the placement, whose refusal is expected and not worth reporting.
using PassCountOracle =
    std::function<std::optional<std::uint32_t>(const std::vector<std::uint32_t>& counters, bool probing)>;

// Called after each group is placed: counters placed so far, of `total`.
using PlacementProgress = std::function<void(std::size_t placed, std::size_t total)>;

struct PassGroup {
  std::uint32_t first_pass = 0;  // 0-based
  std::uint32_t pass_count = 1;  // passes this group occupies
  std::vector<std::uint32_t> counters;
};

struct PassPlacement {
  std::optional<std::uint32_t> library_passes;  // the library's answer for the whole set; empty: refused
  std::uint32_t placed_passes = 0;              // sum of the groups' pass counts
  // One session: the passes within it (step 3), or the session itself. Several: one group per session.
  std::vector<PassGroup> groups;
  std::size_t questions = 0;  // how many times the oracle was asked
  // Counters the library refuses even on their own (GH100: some CTC throughput metrics): left out of every group,
  // in the order found. The rest is planned without them.
  std::vector<std::uint32_t> unschedulable;
};

struct PlacementRequest {
  bool place_passes = true;  // step 3; false: one session is one group
  // Counters the library tends to accept or refuse together (the CLI: those of one hardware unit), in the
  // order to try them; together they hold every counter once. Step 2 starts from these blocks, and a block
  // the library accepts alone but not with a session waits whole for a later session instead of being
  // halved. Empty: the set is simply halved.
  std::vector<std::vector<std::uint32_t>> blocks;
};

// A counter the library refuses on its own goes to PassPlacement::unschedulable and the rest is planned; nullopt
// (with *error) is left for a failure of the oracle itself (kept for callers; none today).
std::optional<PassPlacement> PlaceCountersInPasses(const std::vector<std::uint32_t>& counters,
                                                   const PassCountOracle& oracle, std::string* error,
                                                   const PlacementProgress& progress = {},
                                                   const PlacementRequest& request = {});

}  // namespace opengpa::cli

#endif  // OPENGPA_TOOLS_OPENGPA_PASS_PLACEMENT_H_
