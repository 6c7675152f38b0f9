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
  std::set<std::uint32_t> loner;        // refused together with any other counter
  std::map<std::uint32_t, int> domain;  // counters of two different domains are refused together (0: any)
  int calls = 0;
  std::size_t asked = 0;  // counters in all questions: CUPTI's time grows with a question's size

  std::optional<std::uint32_t> Passes(const std::vector<std::uint32_t>& counters) {
    ++calls;
    asked += counters.size();
    if (counters.size() > 1 && std::any_of(counters.begin(), counters.end(), [&](auto c) { return loner.count(c); })) {
      return std::nullopt;
    }
    std::set<int> domains;
    for (auto counter : counters) {
      if (domain.count(counter) && domain.at(counter) != 0) domains.insert(domain.at(counter));
    }
    if (domains.size() > 1) return std::nullopt;
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
  ModelLibrary library{{{0, 'a'}, {1, 'b'}, {2, 'c'}}, {{'a', 1}, {'b', 1}, {'c', 1}}, {}, {}};
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
  ModelLibrary library{{{0, 'a'}, {1, 'a'}, {2, 'a'}, {3, 'b'}}, {{'a', 2}, {'b', 1}}, {}, {}};
  std::string error;
  auto placement = PlaceCountersInPasses({0, 1, 2, 3}, library.Oracle(), &error);
  ASSERT_TRUE(placement) << error;
  EXPECT_EQ(placement->library_passes, 2u);
  EXPECT_EQ(placement->placed_passes, 2u);
  ASSERT_EQ(placement->groups.size(), 2u);
  // Counter 2 would raise the first pass's count: it is left for the next pass and counter 3 still joins.
  EXPECT_EQ(placement->groups[0].counters, (std::vector<std::uint32_t>{0, 1, 3}));
  EXPECT_EQ(placement->groups[1].first_pass, 1u);
  EXPECT_EQ(placement->groups[1].counters, (std::vector<std::uint32_t>{2}));
}

TEST(PassPlacementTest, ALargeSetIsPlacedWithFewQuestions) {
  // 1,000 counters of one block that holds 50 per pass: 20 passes. Asking counter by counter and group by
  // group would take about n * passes / 2 = 10,000 questions; runs found by doubling take a few per pass.
  ModelLibrary library;
  library.slots['a'] = 50;
  std::vector<std::uint32_t> counters;
  for (std::uint32_t i = 0; i < 1000; ++i) {
    library.block_of[i] = 'a';
    counters.push_back(i);
  }
  std::string error;
  std::size_t progress_calls = 0;
  std::size_t last_placed = 0;
  auto placement =
      PlaceCountersInPasses(counters, library.Oracle(), &error, [&](std::size_t placed, std::size_t total) {
        ++progress_calls;
        EXPECT_GT(placed, last_placed);
        EXPECT_EQ(total, 1000u);
        last_placed = placed;
      });
  ASSERT_TRUE(placement) << error;
  EXPECT_EQ(placement->library_passes, 20u);
  EXPECT_EQ(placement->placed_passes, 20u);
  EXPECT_EQ(placement->questions, static_cast<std::size_t>(library.calls));
  // Per pass: about 2 log2(50) questions for the run, then up to 8 counters in a row that do not fit.
  EXPECT_LT(library.calls, 20 * 24) << "questions per pass should grow with log(run), not with the set";
  EXPECT_EQ(progress_calls, 20u);
  EXPECT_EQ(last_placed, 1000u);
}

TEST(PassPlacementTest, ASetTheLibraryRefusesSplitsIntoAsFewSessionsAsItAllows) {
  // 62 counters of two domains that cannot share a session, interleaved (like CUPTI's units): two sessions,
  // each collecting one domain in the passes its block needs, whatever the order they came in.
  ModelLibrary library;
  library.slots['a'] = 4;
  std::vector<std::uint32_t> counters;
  for (std::uint32_t i = 0; i < 62; ++i) {
    library.block_of[i] = 'a';
    library.domain[i] = 1 + static_cast<int>(i % 2);
    counters.push_back(i);
  }
  std::string error;
  auto placement = PlaceCountersInPasses(counters, library.Oracle(), &error);
  ASSERT_TRUE(placement) << error;
  EXPECT_FALSE(placement->library_passes.has_value());
  ASSERT_EQ(placement->groups.size(), 2u);
  std::uint32_t total = 0;
  for (const auto& group : placement->groups) {
    EXPECT_EQ(group.counters.size(), 31u);
    EXPECT_EQ(library.Passes(group.counters), group.pass_count);
    total += group.pass_count;
  }
  EXPECT_EQ(placement->placed_passes, total);
  EXPECT_EQ(total, 16u);  // 31 counters, 4 per pass: 8 passes per session
}

TEST(PassPlacementTest, EveryGroupIsASetTheLibraryCollectsInItsOwnPassCount) {
  ModelLibrary library{
      {{0, 'a'}, {1, 'a'}, {2, 'a'}, {3, 'b'}, {4, 'b'}, {5, 'c'}}, {{'a', 1}, {'b', 2}, {'c', 1}}, {}, {}};
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
  ModelLibrary library{{{0, 'a'}, {1, 'p'}, {2, 'b'}}, {{'a', 1}, {'p', 1}, {'b', 1}}, {1}, {}};
  std::string error;
  auto placement = PlaceCountersInPasses({0, 1, 2}, library.Oracle(), &error);
  ASSERT_TRUE(placement) << error;
  EXPECT_FALSE(placement->library_passes.has_value());
  ASSERT_EQ(placement->groups.size(), 2u);
  EXPECT_EQ(placement->groups[0].counters, (std::vector<std::uint32_t>{0, 2}));
  EXPECT_EQ(placement->groups[1].counters, (std::vector<std::uint32_t>{1}));
}

TEST(PassPlacementTest, WithoutPassPlacementTheOneSessionIsOneGroupAfterOneQuestion) {
  ModelLibrary library{{{0, 'a'}, {1, 'a'}, {2, 'a'}, {3, 'b'}}, {{'a', 2}, {'b', 1}}, {}, {}};
  std::string error;
  auto placement = PlaceCountersInPasses({0, 1, 2, 3}, library.Oracle(), &error, {}, PlacementRequest{false, {}});
  ASSERT_TRUE(placement) << error;
  EXPECT_EQ(library.calls, 1);
  ASSERT_EQ(placement->groups.size(), 1u);
  EXPECT_EQ(placement->groups[0].pass_count, 2u);
  EXPECT_EQ(placement->placed_passes, 2u);
  EXPECT_EQ(placement->groups[0].counters, (std::vector<std::uint32_t>{0, 1, 2, 3}));
}

TEST(PassPlacementTest, BlocksThatConflictWithASessionWaitWholeForTheNextOne) {
  // 400 counters of two units that cannot share a session, interleaved, given as one block per unit (what
  // the CLI derives from OpenGpaGetCounterHardwareUnit): two sessions after a handful of questions, where
  // halving counter by counter would ask hundreds; and few counters asked in all (the whole set once, each
  // session once, one counter of each unit otherwise), where adding block after block asked 1,400.
  ModelLibrary library;
  library.slots['a'] = 100;
  std::vector<std::uint32_t> counters;
  PlacementRequest request{false, {{}, {}}};
  for (std::uint32_t i = 0; i < 400; ++i) {
    library.block_of[i] = 'a';
    library.domain[i] = 1 + static_cast<int>(i % 2);
    counters.push_back(i);
    request.blocks[i % 2].push_back(i);
  }
  std::string error;
  auto placement = PlaceCountersInPasses(counters, library.Oracle(), &error, {}, request);
  ASSERT_TRUE(placement) << error;
  ASSERT_EQ(placement->groups.size(), 2u);
  EXPECT_EQ(placement->groups[0].counters, request.blocks[0]);
  EXPECT_EQ(placement->groups[1].counters, request.blocks[1]);
  EXPECT_EQ(placement->placed_passes, 4u);
  EXPECT_LE(library.calls, 6);
  EXPECT_LE(library.asked, 2u * counters.size() + 8u);
}

TEST(PassPlacementTest, UnitsArePairedByOneCounterEachAndEachSessionIsAskedWholeOnce) {
  // GH100's shape (issue 30): many units that share a session, one very large; three interconnect units that
  // cannot share one with them; and in one interconnect unit counters refused even alone. Every group must be a set
  // the library accepts, the refused counters named, and no question but the whole set and the large session may
  // hold more than a tenth of the counters (each such question costs CUPTI seconds on the real chip).
  ModelLibrary library;
  library.slots = {{'x', 1000}};
  std::vector<std::uint32_t> counters;
  PlacementRequest request{false, {}};
  const std::vector<std::uint32_t> unit_sizes = {4000, 900, 800, 600, 60, 50, 40, 30, 20, 16, 68, 68, 48};
  std::set<std::uint32_t> refused_alone;
  std::uint32_t next = 0;
  for (std::size_t unit = 0; unit < unit_sizes.size(); ++unit) {
    request.blocks.emplace_back();
    for (std::uint32_t i = 0; i < unit_sizes[unit]; ++i, ++next) {
      library.block_of[next] = 'x';
      library.domain[next] = unit >= 10 ? 2 : 1;  // the last three units: the interconnect
      if (unit == 12 && i >= 40) refused_alone.insert(next);
      counters.push_back(next);
      request.blocks.back().push_back(next);
    }
  }
  std::vector<std::size_t> sizes;
  const PassCountOracle oracle = [&](const std::vector<std::uint32_t>& set, bool) -> std::optional<std::uint32_t> {
    sizes.push_back(set.size());
    if (std::any_of(set.begin(), set.end(), [&](std::uint32_t c) { return refused_alone.count(c) != 0; })) {
      return std::nullopt;
    }
    return library.Passes(set);
  };
  std::string error;
  auto placement = PlaceCountersInPasses(counters, oracle, &error, {}, request);
  ASSERT_TRUE(placement) << error;
  EXPECT_EQ(std::set<std::uint32_t>(placement->unschedulable.begin(), placement->unschedulable.end()), refused_alone);
  ASSERT_EQ(placement->groups.size(), 2u);
  std::size_t placed = 0;
  for (const PassGroup& group : placement->groups) {
    EXPECT_TRUE(oracle(group.counters, false)) << "a group the library refuses";
    placed += group.counters.size();
  }
  sizes.resize(sizes.size() - placement->groups.size());  // the checks above
  EXPECT_EQ(placed, counters.size() - refused_alone.size());
  EXPECT_EQ(std::count_if(sizes.begin(), sizes.end(), [&](std::size_t n) { return n > counters.size() / 10; }), 2);
}

TEST(PassPlacementTest, CountersTheLibraryRefusesEvenAloneAreLeftOutAndTheRestPlanned) {
  // Issue 30: planning every GH100 counter failed at the first of 8 CTC metrics GpaGetPassCount refuses alone.
  ModelLibrary library;
  std::vector<std::uint32_t> counters;
  for (std::uint32_t c = 0; c < 40; ++c) {
    counters.push_back(c);
    library.block_of[c] = c % 2 == 0 ? 'a' : 'b';
  }
  library.slots = {{'a', 4}, {'b', 4}};
  const std::set<std::uint32_t> refused = {3, 17, 18, 39};
  const PassCountOracle oracle = [&](const std::vector<std::uint32_t>& set, bool) -> std::optional<std::uint32_t> {
    if (std::any_of(set.begin(), set.end(), [&](std::uint32_t c) { return refused.count(c) != 0; })) {
      return std::nullopt;
    }
    return library.Passes(set);
  };
  for (bool place_passes : {true, false}) {
    std::string error;
    auto placement = PlaceCountersInPasses(counters, oracle, &error, {}, PlacementRequest{place_passes, {}});
    ASSERT_TRUE(placement) << error;
    EXPECT_EQ(std::set<std::uint32_t>(placement->unschedulable.begin(), placement->unschedulable.end()), refused);
    std::set<std::uint32_t> placed;
    for (const PassGroup& group : placement->groups) {
      EXPECT_TRUE(oracle(group.counters, false)) << "a group the library refuses";
      placed.insert(group.counters.begin(), group.counters.end());
    }
    EXPECT_EQ(placed.size(), counters.size() - refused.size());
    for (std::uint32_t c : refused) EXPECT_EQ(placed.count(c), 0u);
  }
}

TEST(PassPlacementTest, ASetOfOnlyRefusedCountersPlansNothingAndNamesThemAll) {
  const PassCountOracle refuse_all = [](const std::vector<std::uint32_t>&, bool) {
    return std::optional<std::uint32_t>();
  };
  std::string error;
  auto placement = PlaceCountersInPasses({7, 9}, refuse_all, &error);
  ASSERT_TRUE(placement) << error;
  EXPECT_TRUE(placement->groups.empty());
  EXPECT_EQ(placement->unschedulable, (std::vector<std::uint32_t>{7, 9}));
}

}  // namespace
}  // namespace opengpa::cli
