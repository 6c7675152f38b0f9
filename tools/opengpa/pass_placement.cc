#include "pass_placement.h"

namespace opengpa::cli {

std::optional<PassPlacement> PlaceCountersInPasses(const std::vector<std::uint32_t>& counters,
                                                   const PassCountOracle& oracle, std::string* error) {
  PassPlacement placement;
  const auto total = oracle(counters);
  if (!total) {
    *error = "the library could not count the passes of the whole counter set";
    return std::nullopt;
  }
  placement.library_passes = *total;

  for (std::uint32_t counter : counters) {
    bool placed = false;
    for (PassGroup& group : placement.groups) {
      std::vector<std::uint32_t> candidate = group.counters;
      candidate.push_back(counter);
      const auto passes = oracle(candidate);
      if (!passes) {
        *error = "the library could not count the passes of a subset holding counter " + std::to_string(counter);
        return std::nullopt;
      }
      if (*passes <= group.pass_count) {
        group.counters.push_back(counter);
        placed = true;
        break;
      }
    }
    if (placed) continue;
    const auto alone = oracle({counter});
    if (!alone) {
      *error = "the library could not count the passes of counter " + std::to_string(counter);
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
