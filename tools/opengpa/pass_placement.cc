#include "pass_placement.h"

namespace opengpa::cli {

std::optional<PassPlacement> PlaceCountersInPasses(const std::vector<std::uint32_t>& counters,
                                                   const PassCountOracle& oracle, std::string* error) {
  PassPlacement placement;
  placement.library_passes = oracle(counters, false);

  for (std::uint32_t counter : counters) {
    bool placed = false;
    for (PassGroup& group : placement.groups) {
      std::vector<std::uint32_t> candidate = group.counters;
      candidate.push_back(counter);
      const auto passes = oracle(candidate, true);
      if (passes && *passes <= group.pass_count) {
        group.counters.push_back(counter);
        placed = true;
        break;
      }
    }
    if (placed) continue;
    const auto alone = oracle({counter}, false);
    if (!alone) {
      *error = "the library cannot schedule counter " + std::to_string(counter) + " even on its own";
      return std::nullopt;
    }
    PassGroup group;
    group.pass_count = *alone == 0 ? 1 : *alone;
    group.counters.push_back(counter);
    placement.groups.push_back(std::move(group));
  }

  std::uint32_t next_pass = 0;
  for (PassGroup& group : placement.groups) {
    group.first_pass = next_pass;
    next_pass += group.pass_count;
  }
  placement.placed_passes = next_pass;
  return placement;
}

}  // namespace opengpa::cli
