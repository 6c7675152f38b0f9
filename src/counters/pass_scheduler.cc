// Greedy first-fit packing of hardware counters into passes under per-block capacities.
#include "counters/pass_scheduler.h"

#include <algorithm>
#include <unordered_map>

namespace opengpa {
namespace {

struct OpenPass {
  std::vector<HardwareCounterIndex> counters;
  std::unordered_map<std::uint32_t, std::uint32_t> used_per_block;
  bool exclusive = false;  // holds a counter that needs its own pass
};

}  // namespace

std::vector<std::vector<HardwareCounterIndex>> SchedulePasses(
    const std::vector<HardwareCounterIndex>& counters,
    const std::function<CounterPlacement(HardwareCounterIndex)>& placement_of) {
  // Work on the distinct counters in ascending order so the result depends only on the set asked for.
  std::vector<HardwareCounterIndex> ordered(counters);
  std::sort(ordered.begin(), ordered.end());
  ordered.erase(std::unique(ordered.begin(), ordered.end()), ordered.end());

  // First fit: a block's k-th counter lands in shared pass floor(k / capacity), independently of other
  // blocks, so without exclusive counters the pass count is max over blocks of ceil(count / capacity),
  // which no schedule can beat.
  std::vector<OpenPass> passes;
  for (HardwareCounterIndex counter : ordered) {
    const CounterPlacement placement = placement_of ? placement_of(counter) : CounterPlacement{};
    if (placement.needs_own_pass) {
      OpenPass pass;
      pass.counters.push_back(counter);
      pass.exclusive = true;
      passes.push_back(std::move(pass));
      continue;
    }
    const std::uint32_t capacity = std::max<std::uint32_t>(placement.block_capacity, 1);
    auto fits = [&](const OpenPass& pass) {
      if (pass.exclusive) return false;
      const auto used = pass.used_per_block.find(placement.block);
      return used == pass.used_per_block.end() || used->second < capacity;
    };
    auto target = std::find_if(passes.begin(), passes.end(), fits);
    if (target == passes.end()) {
      passes.emplace_back();
      target = passes.end() - 1;
    }
    target->counters.push_back(counter);
    ++target->used_per_block[placement.block];
  }

  std::vector<std::vector<HardwareCounterIndex>> result;
  result.reserve(passes.size());
  for (OpenPass& pass : passes) result.push_back(std::move(pass.counters));
  return result;
}

}  // namespace opengpa
