// Which counters land in which pass. GPA only reports how many passes a set of enabled counters needs
// (GpaGetPassCount), so placement is derived from that number alone: counters are taken in the order
// given and each joins the first group whose pass count it does not raise; a counter that fits nowhere
// opens a new group. A group that needs k passes by itself (a derived counter over many hardware
// counters) occupies k consecutive passes.
//
// The derived placement is a valid schedule but can use more passes than the library's own scheduler
// reports for the whole set (the scheduler sees all counters at once); callers print both numbers.
// A subset the library refuses to schedule together (CUPTI cannot combine some units, e.g. PCIe with SM
// counters) simply does not fit: the counter goes to another group. When the library refuses the whole
// set, library_passes is empty and the groups say how to split it into sessions it accepts.
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

struct PassGroup {
  std::uint32_t first_pass = 0;  // 0-based
  std::uint32_t pass_count = 1;  // passes this group occupies
  std::vector<std::uint32_t> counters;
};

struct PassPlacement {
  std::optional<std::uint32_t> library_passes;  // the library's answer for the whole set; empty: refused
  std::uint32_t placed_passes = 0;   // sum of the groups' pass counts
  std::vector<PassGroup> groups;
};

// Fails (nullopt, *error set) only when the library refuses a counter on its own.
std::optional<PassPlacement> PlaceCountersInPasses(const std::vector<std::uint32_t>& counters,
                                                   const PassCountOracle& oracle, std::string* error);

}  // namespace opengpa::cli

#endif  // OPENGPA_TOOLS_OPENGPA_PASS_PLACEMENT_H_
