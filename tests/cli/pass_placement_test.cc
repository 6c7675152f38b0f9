#include "pass_placement.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

namespace opengpa::cli {
namespace {

// A model library: each counter uses one slot of a hardware block, each block has a slot limit per pass,
// and some counters cannot share a session with others at all (like CUPTI's PCIe counters).
struct ModelLibrary {
  std::map<std::uint32_t, char> block_of;
  std::map<char, std::uint32_t> slots;
  std::set<std::uint32_t> loner;  // refused together with any other counter
  int calls = 0;

  std::optional<std::uint32_t> Passes(const std::vector<std::uint32_t>& counters) {
    ++calls;
    if (counters.size() > 1 && std::any_of(counters.begin(), counters.end(), [&](auto c) { return loner.count(c); })) {
      return std::nullopt;
    }
    std::map<char, std::uint32_t> used;
    for (auto counter : counters) ++used[block_of.at(counter)];
    std::uint32_t passes = 1;
    for (const auto& [block, count] : used) passes = std::max(passes, (count + slots.at(block) - 1) / slots.at(block));
    return passes;
  }
  PassCountOracle Oracle() {
    return [this](const std::vector<std::uint32_t>& counters, bool) { return Passes(counters); };
  }
};

TEST(PassPlacementTest, CountersThatFitOnePassShareTheFirstPass) {
  ModelLibrary library{{{0, 'a'}, {1, 'b'}, {2, 'c'}}, {{'a', 1}, {'b', 1}, {'c', 1}}, {}};
  std::string error;
  auto placement = PlaceCountersInPasses({0, 1, 2}, library.Oracle(), &error);
  ASSERT_TRUE(placement) << error;
  EXPECT_EQ(placement->library_passes, 1u);
  EXPECT_EQ(placement->placed_passes, 1u);
  ASSERT_EQ(placement->groups.size(), 1u);
  EXPECT_EQ(placement->groups[0].counters, (std::vector<std::uint32_t>{0, 1, 2}));
}

TEST(PassPlacementTest, ACounterThatWouldRaiseThePassCountOpensTheNextPass) {
  // Block 'a' holds two counters per pass: counters 0, 1, 2 of block 'a' need two passes.
  ModelLibrary library{{{0, 'a'}, {1, 'a'}, {2, 'a'}, {3, 'b'}}, {{'a', 2}, {'b', 1}}, {}};
  std::string error;
  auto placement = PlaceCountersInPasses({0, 1, 2, 3}, library.Oracle(), &error);
  ASSERT_TRUE(placement) << error;
  EXPECT_EQ(placement->library_passes, 2u);
  EXPECT_EQ(placement->placed_passes, 2u);
  ASSERT_EQ(placement->groups.size(), 2u);
  EXPECT_EQ(placement->groups[0].counters, (std::vector<std::uint32_t>{0, 1, 3}));
  EXPECT_EQ(placement->groups[1].first_pass, 1u);
  EXPECT_EQ(placement->groups[1].counters, (std::vector<std::uint32_t>{2}));
}

TEST(PassPlacementTest, EveryGroupIsASetTheLibraryCollectsInItsOwnPassCount) {
  ModelLibrary library{{{0, 'a'}, {1, 'a'}, {2, 'a'}, {3, 'b'}, {4, 'b'}, {5, 'c'}},
                       {{'a', 1}, {'b', 2}, {'c', 1}}, {}};
  std::string error;
  auto placement = PlaceCountersInPasses({0, 1, 2, 3, 4, 5}, library.Oracle(), &error);
  ASSERT_TRUE(placement) << error;
  std::uint32_t next = 0;
  std::set<std::uint32_t> placed;
  for (const auto& group : placement->groups) {
    EXPECT_EQ(group.first_pass, next);
    EXPECT_EQ(library.Passes(group.counters), group.pass_count);
    next += group.pass_count;
    placed.insert(group.counters.begin(), group.counters.end());
  }
  EXPECT_EQ(placed.size(), 6u);
  EXPECT_GE(placement->placed_passes, *placement->library_passes);
}

TEST(PassPlacementTest, ACounterTheLibraryRefusesToCombineGetsAGroupOfItsOwn) {
  ModelLibrary library{{{0, 'a'}, {1, 'p'}, {2, 'b'}}, {{'a', 1}, {'p', 1}, {'b', 1}}, {1}};
  std::string error;
  auto placement = PlaceCountersInPasses({0, 1, 2}, library.Oracle(), &error);
  ASSERT_TRUE(placement) << error;
  EXPECT_FALSE(placement->library_passes.has_value());
  ASSERT_EQ(placement->groups.size(), 2u);
  EXPECT_EQ(placement->groups[0].counters, (std::vector<std::uint32_t>{0, 2}));
  EXPECT_EQ(placement->groups[1].counters, (std::vector<std::uint32_t>{1}));
}

TEST(PassPlacementTest, FailsWhenTheLibraryRefusesACounterOnItsOwn) {
  const PassCountOracle refuse_all = [](const std::vector<std::uint32_t>&, bool) {
    return std::optional<std::uint32_t>();
  };
  std::string error;
  EXPECT_FALSE(PlaceCountersInPasses({7}, refuse_all, &error));
  EXPECT_NE(error.find("counter 7"), std::string::npos) << error;
}

}  // namespace
}  // namespace opengpa::cli
