#include "counters/pass_scheduler.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <string>

namespace opengpa {
namespace {

using Passes = std::vector<std::vector<HardwareCounterIndex>>;
using PlacementOf = std::function<CounterPlacement(HardwareCounterIndex)>;

// Checks what every schedule must satisfy and returns a description of the first violation, or "".
std::string Violation(const std::vector<HardwareCounterIndex>& requested, const Passes& passes,
                      const PlacementOf& placement_of) {
  std::multiset<HardwareCounterIndex> scheduled;
  for (std::size_t p = 0; p < passes.size(); ++p) {
    if (passes[p].empty()) return "pass " + std::to_string(p) + " is empty";
    std::map<std::uint32_t, std::uint32_t> per_block;
    for (HardwareCounterIndex counter : passes[p]) {
      scheduled.insert(counter);
      const CounterPlacement placement = placement_of(counter);
      if (placement.needs_own_pass && passes[p].size() != 1) {
        return "counter " + std::to_string(counter) + " needs its own pass but shares pass " + std::to_string(p);
      }
      if (++per_block[placement.block] > placement.block_capacity) {
        return "pass " + std::to_string(p) + " exceeds the capacity of block " + std::to_string(placement.block);
      }
    }
  }
  const std::set<HardwareCounterIndex> distinct(requested.begin(), requested.end());
  for (HardwareCounterIndex counter : distinct) {
    if (scheduled.count(counter) != 1) {
      return "counter " + std::to_string(counter) + " appears " + std::to_string(scheduled.count(counter)) + " times";
    }
  }
  if (scheduled.size() != distinct.size()) return "a counter that was not requested was scheduled";
  return "";
}

// max over blocks of ceil(n_block / capacity): no schedule can use fewer passes.
std::size_t LowerBound(const std::vector<HardwareCounterIndex>& counters, const PlacementOf& placement_of) {
  std::map<std::uint32_t, std::pair<std::uint32_t, std::uint32_t>> blocks;  // block -> {count, capacity}
  for (HardwareCounterIndex counter : std::set<HardwareCounterIndex>(counters.begin(), counters.end())) {
    const CounterPlacement placement = placement_of(counter);
    blocks[placement.block].first++;
    blocks[placement.block].second = placement.block_capacity;
  }
  std::size_t bound = 0;
  for (const auto& [block, count_capacity] : blocks) {
    bound = std::max<std::size_t>(bound, (count_capacity.first + count_capacity.second - 1) / count_capacity.second);
  }
  return bound;
}

TEST(PassSchedulerTest, NoCountersNeedNoPasses) {
  EXPECT_TRUE(SchedulePasses({}, [](HardwareCounterIndex) { return CounterPlacement{}; }).empty());
}

TEST(PassSchedulerTest, CountersOfOneBlockFillPassesUpToItsCapacity) {
  const auto placement = [](HardwareCounterIndex) { return CounterPlacement{0, 2, false}; };
  EXPECT_EQ(SchedulePasses({0, 1, 2, 3, 4}, placement), (Passes{{0, 1}, {2, 3}, {4}}));
}

TEST(PassSchedulerTest, DifferentBlocksShareAPass) {
  // Counters 0-3 in block 0 (capacity 2), 4-6 in block 1 (capacity 3): two passes.
  const auto placement = [](HardwareCounterIndex c) {
    return c < 4 ? CounterPlacement{0, 2, false} : CounterPlacement{1, 3, false};
  };
  EXPECT_EQ(SchedulePasses({6, 5, 4, 3, 2, 1, 0}, placement), (Passes{{0, 1, 4, 5, 6}, {2, 3}}));
}

TEST(PassSchedulerTest, CounterThatNeedsItsOwnPassIsAlone) {
  const PlacementOf placement = [](HardwareCounterIndex c) { return CounterPlacement{0, 8, c == 1}; };
  const Passes passes = SchedulePasses({0, 1, 2}, placement);
  EXPECT_EQ(passes, (Passes{{0, 2}, {1}}));
  EXPECT_EQ(Violation({0, 1, 2}, passes, placement), "");
}

TEST(PassSchedulerTest, DuplicateRequestsAreScheduledOnce) {
  const auto placement = [](HardwareCounterIndex) { return CounterPlacement{0, 1, false}; };
  EXPECT_EQ(SchedulePasses({3, 3, 1, 3}, placement), (Passes{{1}, {3}}));
}

TEST(PassSchedulerTest, ZeroCapacityIsTreatedAsOne) {
  const auto placement = [](HardwareCounterIndex) { return CounterPlacement{0, 0, false}; };
  EXPECT_EQ(SchedulePasses({0, 1}, placement), (Passes{{0}, {1}}));
}

TEST(PassSchedulerTest, ResultDoesNotDependOnRequestOrder) {
  const auto placement = [](HardwareCounterIndex c) { return CounterPlacement{c % 3, 1 + c % 2, c == 7}; };
  std::vector<HardwareCounterIndex> counters(20);
  for (std::uint32_t i = 0; i < counters.size(); ++i) counters[i] = i;
  const Passes reference = SchedulePasses(counters, placement);
  std::mt19937 random(7);
  for (int trial = 0; trial < 10; ++trial) {
    std::shuffle(counters.begin(), counters.end(), random);
    EXPECT_EQ(SchedulePasses(counters, placement), reference);
  }
}

TEST(PassSchedulerTest, RandomSchedulesKeepCapacitiesAndReachTheLowerBound) {
  std::mt19937 random(2024);
  for (int trial = 0; trial < 500; ++trial) {
    const std::uint32_t block_count = 1 + random() % 6;
    std::vector<std::uint32_t> capacity(block_count);
    for (auto& c : capacity) c = 1 + random() % 5;
    const std::uint32_t universe = 1 + random() % 60;
    std::vector<std::uint32_t> block_of(universe);
    for (auto& b : block_of) b = random() % block_count;
    const PlacementOf placement = [&](HardwareCounterIndex c) {
      return CounterPlacement{block_of[c], capacity[block_of[c]], false};
    };
    std::vector<HardwareCounterIndex> requested;
    for (HardwareCounterIndex c = 0; c < universe; ++c) {
      if (random() % 3 != 0) requested.push_back(c);
    }
    const Passes passes = SchedulePasses(requested, placement);
    ASSERT_EQ(Violation(requested, passes, placement), "") << "trial " << trial;
    ASSERT_EQ(passes.size(), LowerBound(requested, placement)) << "trial " << trial;
  }
}

TEST(PassSchedulerTest, RandomSchedulesWithExclusiveCountersKeepEveryRule) {
  std::mt19937 random(99);
  for (int trial = 0; trial < 300; ++trial) {
    const std::uint32_t universe = 1 + random() % 40;
    std::vector<CounterPlacement> placements(universe);
    std::size_t exclusive = 0;
    for (auto& p : placements) {
      p = CounterPlacement{static_cast<std::uint32_t>(random() % 4), static_cast<std::uint32_t>(1 + random() % 4),
                           random() % 7 == 0};
      exclusive += p.needs_own_pass ? 1 : 0;
    }
    // Capacity is a property of the block: every counter of a block reports its first counter's value.
    std::map<std::uint32_t, std::uint32_t> block_capacity;
    for (auto& p : placements) p.block_capacity = block_capacity.emplace(p.block, p.block_capacity).first->second;
    const PlacementOf placement = [&](HardwareCounterIndex c) { return placements[c]; };
    std::vector<HardwareCounterIndex> requested(universe);
    for (std::uint32_t i = 0; i < universe; ++i) requested[i] = i;
    const Passes passes = SchedulePasses(requested, placement);
    ASSERT_EQ(Violation(requested, passes, placement), "") << "trial " << trial;
    // The shared counters reach their own bound; each exclusive one adds exactly one pass.
    std::vector<HardwareCounterIndex> shared;
    for (std::uint32_t i = 0; i < universe; ++i) {
      if (!placements[i].needs_own_pass) shared.push_back(i);
    }
    ASSERT_EQ(passes.size(), LowerBound(shared, placement) + exclusive) << "trial " << trial;
  }
}

}  // namespace
}  // namespace opengpa
