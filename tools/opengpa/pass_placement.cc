#include "pass_placement.h"

#include <algorithm>

namespace opengpa::cli {
namespace {

using Counters = std::vector<std::uint32_t>;

class Planner {
 public:
  Planner(const PassCountOracle& oracle, std::size_t total, const PlacementProgress& progress)
      : oracle_(oracle), total_(total), progress_(progress) {}

  std::optional<std::uint32_t> Ask(const Counters& counters, bool probing) {
    ++questions_;
    return oracle_(counters, probing);
  }
  std::size_t Questions() const { return questions_; }

  void Placed(std::size_t count) {
    placed_ += count;
    if (progress_) progress_(placed_, total_);
  }

  // Step 2 for one of the first blocks: the whole block joins the session, or waits whole for a later
  // session when the library takes it alone (it conflicts with the session as a whole), or is halved.
  void AddBlockToSession(const Counters& block, Counters* session, std::uint32_t* passes,
                         std::vector<Counters>* waiting, Counters* deferred) {
    if (block.empty()) return;
    Counters candidate = *session;
    candidate.insert(candidate.end(), block.begin(), block.end());
    if (const auto answer = Ask(candidate, true)) {
      *session = std::move(candidate);
      *passes = *answer;
      return;
    }
    if (!session->empty() && block.size() > 1 && Ask(block, true)) {
      waiting->push_back(block);
      return;
    }
    AddToSession(block, session, passes, deferred, /*known_refused=*/true);
  }

  // Step 2: adds `block` to `session` where the library accepts it, halving refused blocks; what never fits
  // goes to `deferred`. *passes follows the session's pass count.
  void AddToSession(const Counters& block, Counters* session, std::uint32_t* passes, Counters* deferred,
                    bool known_refused = false) {
    if (block.empty()) return;
    if (!known_refused) {
      Counters candidate = *session;
      candidate.insert(candidate.end(), block.begin(), block.end());
      if (const auto answer = Ask(candidate, true)) {
        *session = std::move(candidate);
        *passes = *answer;
        return;
      }
    }
    if (block.size() == 1) {
      deferred->push_back(block.front());
      return;
    }
    const auto middle = block.begin() + static_cast<std::ptrdiff_t>(block.size() / 2);
    AddToSession(Counters(block.begin(), middle), session, passes, deferred);
    AddToSession(Counters(middle, block.end()), session, passes, deferred);
  }

 private:
  const PassCountOracle& oracle_;
  std::size_t total_;
  const PlacementProgress& progress_;
  std::size_t questions_ = 0;
  std::size_t placed_ = 0;
};

// Step 3: the passes of one session. A pass starts with the first counter not yet placed and takes the
// longest run of the following counters that keeps its pass count (doubling, then halving the step); a
// counter that does not fit is left for a later pass and the scan goes on after it, until kMaxMisses
// counters in a row did not fit.
constexpr std::size_t kMaxMisses = 8;

// Step 3's second look: the runs above are found in the order given, so a counter left for a later pass often
// fits an earlier pass whose run had already ended. Each later group is moved whole into the first earlier group
// that takes it without raising that group's pass count: at most groups^2 / 2 questions, none once the groups'
// passes are as few as the library's own count for the set (`library_passes`), which no placement can beat.
void MergeGroups(Planner& planner, std::uint32_t library_passes, std::vector<PassGroup>* groups) {
  auto placed = [&] {
    std::uint32_t total = 0;
    for (const PassGroup& group : *groups) total += group.pass_count;
    return total;
  };
  auto joins = [&](const PassGroup& into, const Counters& extra) {
    Counters candidate = into.counters;
    candidate.insert(candidate.end(), extra.begin(), extra.end());
    const auto passes = planner.Ask(candidate, true);
    return passes && *passes <= into.pass_count;
  };
  for (std::size_t later = 1; later < groups->size() && placed() > library_passes;) {
    bool merged = false;
    for (std::size_t earlier = 0; earlier < later && !merged; ++earlier) {
      if (!joins((*groups)[earlier], (*groups)[later].counters)) continue;
      Counters& into = (*groups)[earlier].counters;
      into.insert(into.end(), (*groups)[later].counters.begin(), (*groups)[later].counters.end());
      groups->erase(groups->begin() + static_cast<std::ptrdiff_t>(later));
      merged = true;
    }
    if (!merged) ++later;
  }
}

void PlaceWithinSession(Planner& planner, std::uint32_t library_passes, const Counters& counters,
                        std::vector<PassGroup>* groups, Counters* unschedulable) {
  Counters remaining = counters;
  while (!remaining.empty()) {
    const auto alone = planner.Ask({remaining.front()}, true);
    if (!alone) {  // refused on its own: left out, the rest placed
      unschedulable->push_back(remaining.front());
      remaining.erase(remaining.begin());
      continue;
    }
    const std::uint32_t budget = std::max<std::uint32_t>(*alone, 1);
    Counters group = {remaining.front()};
    Counters later;
    auto fits = [&](std::size_t from, std::size_t length) {
      Counters candidate = group;
      candidate.insert(candidate.end(), remaining.begin() + static_cast<std::ptrdiff_t>(from),
                       remaining.begin() + static_cast<std::ptrdiff_t>(from + length));
      const auto passes = planner.Ask(candidate, true);
      return passes && *passes <= budget;
    };
    std::size_t next = 1;
    std::size_t misses = 0;
    while (next < remaining.size() && misses < kMaxMisses) {
      const std::size_t left = remaining.size() - next;
      std::size_t fit = 0;   // a run known to fit
      std::size_t fail = 0;  // a run known not to fit; 0: none found yet
      for (std::size_t trial = 1; fail == 0 && fit < left; trial = std::min(fit * 2, left)) {
        if (fits(next, trial)) {
          fit = trial;
        } else {
          fail = trial;
        }
      }
      while (fail != 0 && fail - fit > 1) {
        const std::size_t trial = fit + (fail - fit) / 2;
        if (fits(next, trial)) {
          fit = trial;
        } else {
          fail = trial;
        }
      }
      group.insert(group.end(), remaining.begin() + static_cast<std::ptrdiff_t>(next),
                   remaining.begin() + static_cast<std::ptrdiff_t>(next + fit));
      next += fit;
      if (next < remaining.size() && fail != 0) {  // remaining[next] does not fit: leave it for a later pass
        later.push_back(remaining[next]);
        ++next;
        misses = fit == 0 ? misses + 1 : 1;
      }
    }
    later.insert(later.end(), remaining.begin() + static_cast<std::ptrdiff_t>(next), remaining.end());
    PassGroup placed;
    placed.pass_count = budget;
    placed.counters = std::move(group);
    planner.Placed(placed.counters.size());
    groups->push_back(std::move(placed));
    remaining = std::move(later);
  }
  MergeGroups(planner, library_passes, groups);
}

// Step 2 from the blocks, block by block: each session takes every block the library accepts with it (halving refused
// blocks), and what is left opens the next session. Each question holds the session so far, so with a large first
// block every question is large.
void AddSessionsBlockByBlock(Planner& planner, std::vector<Counters> blocks, PassPlacement* placement) {
  while (!blocks.empty()) {
    Counters session;
    Counters deferred;
    std::vector<Counters> waiting;  // whole blocks for a later session
    std::uint32_t passes = 0;
    for (const Counters& block : blocks) planner.AddBlockToSession(block, &session, &passes, &waiting, &deferred);
    if (session.empty()) {
      // Nothing joined: every counter left was asked on its own (the session was empty) and refused.
      placement->unschedulable.insert(placement->unschedulable.end(), deferred.begin(), deferred.end());
      for (const Counters& block : waiting) {
        placement->unschedulable.insert(placement->unschedulable.end(), block.begin(), block.end());
      }
      break;
    }
    PassGroup group;
    group.pass_count = std::max<std::uint32_t>(passes, 1);
    group.counters = std::move(session);
    planner.Placed(group.counters.size());
    placement->groups.push_back(std::move(group));
    if (!deferred.empty()) waiting.push_back(std::move(deferred));
    blocks = std::move(waiting);
  }
}

// How many counters of a block are asked alone, in order, to find one the library takes (its representative).
constexpr std::size_t kRepresentativeTries = 4;

// Step 2 before the above, when the caller's blocks are hardware units (the library accepts or refuses the
// counters of a unit together): which units can share a session is asked with one counter of each, two at a
// time (small questions: on GH100 a question of 14,000 metrics takes CUPTI about 12 s, one of two a few
// milliseconds), the units are coloured into sessions greedily, first fit in the blocks' order, and each session
// is then asked whole, once. The sessions the library accepts become groups; the blocks of a session it refuses
// (a unit with a counter refused even alone, or a limit no pair shows) are returned for the block-by-block split.
std::vector<Counters> SessionsByConflicts(Planner& planner, const std::vector<Counters>& blocks,
                                          std::vector<PassGroup>* groups) {
  std::vector<std::optional<std::uint32_t>> representative(blocks.size());
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    for (std::size_t i = 0; i < blocks[b].size() && i < kRepresentativeTries && !representative[b]; ++i) {
      if (planner.Ask({blocks[b][i]}, true)) representative[b] = blocks[b][i];
    }
  }
  std::vector<std::vector<std::size_t>> sessions;  // block indices
  std::vector<Counters> left;                      // blocks without a representative: split block by block
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    if (!representative[b]) {
      left.push_back(blocks[b]);
      continue;
    }
    auto compatible = [&](const std::vector<std::size_t>& session) {
      return std::all_of(session.begin(), session.end(), [&](std::size_t other) {
        return planner.Ask({*representative[other], *representative[b]}, true).has_value();
      });
    };
    auto fits = std::find_if(sessions.begin(), sessions.end(), compatible);
    if (fits != sessions.end()) {
      fits->push_back(b);
    } else {
      sessions.push_back({b});
    }
  }
  std::vector<Counters> refused;
  for (const std::vector<std::size_t>& session : sessions) {
    Counters counters;
    for (std::size_t b : session) counters.insert(counters.end(), blocks[b].begin(), blocks[b].end());
    std::optional<std::uint32_t> passes = planner.Ask(counters, true);
    if (!passes) {
      // A unit holding a counter the library refuses even alone (GH100's CTC throughput metrics) makes every
      // session with it refused, though its one counter paired well: each block is asked alone, the refused ones
      // go block by block, and the rest is asked again.
      std::vector<std::size_t> accepted;
      for (std::size_t b : session) {
        if (planner.Ask(blocks[b], true)) {
          accepted.push_back(b);
        } else {
          refused.push_back(blocks[b]);
        }
      }
      counters.clear();
      for (std::size_t b : accepted) counters.insert(counters.end(), blocks[b].begin(), blocks[b].end());
      if (accepted.size() < session.size() && !counters.empty()) passes = planner.Ask(counters, true);
      if (!passes) {
        for (std::size_t b : accepted) refused.push_back(blocks[b]);
        continue;
      }
    }
    PassGroup group;
    group.pass_count = std::max<std::uint32_t>(*passes, 1);
    group.counters = std::move(counters);
    planner.Placed(group.counters.size());
    groups->push_back(std::move(group));
  }
  refused.insert(refused.end(), left.begin(), left.end());
  return refused;
}

// After SessionsByConflicts, the sessions split block by block (what was left of a unit with counters refused even
// alone) each try to join an earlier session, smallest first (the cheapest question), as a whole.
void JoinLaterSessions(Planner& planner, std::size_t earlier, std::vector<PassGroup>* groups) {
  for (std::size_t later = earlier; later < groups->size();) {
    std::vector<std::size_t> order(earlier);
    for (std::size_t i = 0; i < earlier; ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return (*groups)[a].counters.size() < (*groups)[b].counters.size();
    });
    bool joined = false;
    for (std::size_t into : order) {
      Counters candidate = (*groups)[into].counters;
      candidate.insert(candidate.end(), (*groups)[later].counters.begin(), (*groups)[later].counters.end());
      if (const auto passes = planner.Ask(candidate, true)) {
        (*groups)[into].counters = std::move(candidate);
        (*groups)[into].pass_count = std::max<std::uint32_t>(*passes, 1);
        groups->erase(groups->begin() + static_cast<std::ptrdiff_t>(later));
        joined = true;
        break;
      }
    }
    if (!joined) ++later;
  }
}

}  // namespace

std::optional<PassPlacement> PlaceCountersInPasses(const std::vector<std::uint32_t>& counters,
                                                   const PassCountOracle& oracle, std::string* /*error*/,
                                                   const PlacementProgress& progress, const PlacementRequest& request) {
  Planner planner(oracle, counters.size(), progress);
  PassPlacement placement;
  placement.library_passes = planner.Ask(counters, true);  // a refusal is an answer here: the set is split

  if (placement.library_passes && request.place_passes) {
    PlaceWithinSession(planner, *placement.library_passes, counters, &placement.groups, &placement.unschedulable);
  } else if (placement.library_passes) {
    PassGroup session;
    session.pass_count = std::max<std::uint32_t>(*placement.library_passes, 1);
    session.counters = counters;
    planner.Placed(counters.size());
    placement.groups.push_back(std::move(session));
  } else {
    // The first blocks: the caller's, else the halves of the set just refused.
    std::vector<Counters> blocks = request.blocks;
    if (blocks.empty() && counters.size() > 1) {
      const auto middle = counters.begin() + static_cast<std::ptrdiff_t>(counters.size() / 2);
      blocks = {Counters(counters.begin(), middle), Counters(middle, counters.end())};
    } else if (blocks.empty()) {
      blocks = {counters};
    }
    if (request.blocks.size() > 1) blocks = SessionsByConflicts(planner, blocks, &placement.groups);
    const std::size_t by_conflicts = placement.groups.size();
    AddSessionsBlockByBlock(planner, std::move(blocks), &placement);
    if (by_conflicts > 0) JoinLaterSessions(planner, by_conflicts, &placement.groups);
  }

  std::uint32_t next_pass = 0;
  for (PassGroup& group : placement.groups) {
    group.first_pass = next_pass;
    next_pass += group.pass_count;
  }
  placement.placed_passes = next_pass;
  placement.questions = planner.Questions();
  return placement;
}

}  // namespace opengpa::cli
