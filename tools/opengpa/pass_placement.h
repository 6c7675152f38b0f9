// Which counters land in which pass. GPA only reports how many passes a set of enabled counters needs
// (GpaGetPassCount), so placement is derived from that number alone: counters are taken in the order
// given and each joins the first group whose pass count it does not raise; a counter that fits nowhere
// opens a new group. A group that needs k passes by itself (a derived counter over many hardware
// counters) occupies k consecutive passes.
//
// The derived placement is a valid schedule but can use more passes than the library's own scheduler
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
using PassCountOracle = std::function<std::optional<std::uint32_t>(const std::vector<std::uint32_t>& counters)>;

struct PassGroup {
  std::uint32_t first_pass = 0;  // 0-based
  std::uint32_t pass_count = 1;  // passes this group occupies
  std::vector<std::uint32_t> counters;
};

struct PassPlacement {
  std::uint32_t library_passes = 0;  // the library's answer for the whole set
  std::uint32_t placed_passes = 0;   // sum of the groups' pass counts
  std::vector<PassGroup> groups;
};

// Fails (nullopt, *error set) when the oracle fails for any subset.
std::optional<PassPlacement> PlaceCountersInPasses(const std::vector<std::uint32_t>& counters,
                                                   const PassCountOracle& oracle, std::string* error);

}  // namespace opengpa::cli

#endif  // OPENGPA_TOOLS_OPENGPA_PASS_PLACEMENT_H_
