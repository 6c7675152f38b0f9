#include "profiler/replay_merge.h"

#include <algorithm>
#include <limits>
#include <map>

namespace opengpa::profiling {
namespace {

std::string Shape(const Sample& sample) {
  auto triple = [](const std::array<std::uint64_t, 3>& v) {
    return std::to_string(v[0]) + "x" + std::to_string(v[1]) + "x" + std::to_string(v[2]);
  };
  return sample.name + " (grid " + triple(sample.grid) + ", block " + triple(sample.block) + ")";
}

// The pids of a run in the order its samples hold them (samples are grouped by process).
std::vector<std::uint32_t> SampleProcesses(const ProfileRun& run) {
  std::vector<std::uint32_t> pids;
  for (const Sample& sample : run.samples) {
    if (pids.empty() || pids.back() != sample.pid) pids.push_back(sample.pid);
  }
  return pids;
}

// Each pid's rank, when every process of `pids` has one and no two share it; empty otherwise.
std::map<std::int64_t, std::uint32_t> ProcessOfRank(const ProfileRun& run, const std::vector<std::uint32_t>& pids) {
  std::map<std::int64_t, std::uint32_t> by_rank;
  for (std::uint32_t pid : pids) {
    auto process = std::find_if(run.processes.begin(), run.processes.end(),
                                [pid](const ProcessInfo& info) { return info.pid == pid; });
    if (process == run.processes.end() || !process->rank || !by_rank.emplace(*process->rank, pid).second) return {};
  }
  return by_rank;
}

// The ranks of a job write to the stream in whatever order they start, which differs from run to run; their
// launches are alike (DDP's ranks launch the same kernels), so joining by position could join rank 0's pass 1 with
// rank 1's pass 2 and never notice. When every process of both runs has a rank of its own and both runs have the
// same ranks, `run`'s samples are put in `first`'s order of ranks; otherwise they stay as they are.
ProfileRun InRankOrderOf(const ProfileRun& first, const ProfileRun& run) {
  const std::vector<std::uint32_t> first_pids = SampleProcesses(first);
  const std::vector<std::uint32_t> run_pids = SampleProcesses(run);
  const auto first_ranks = ProcessOfRank(first, first_pids);
  const auto run_ranks = ProcessOfRank(run, run_pids);
  if (first_ranks.empty() || first_ranks.size() != first_pids.size() || run_ranks.size() != run_pids.size() ||
      first_ranks.size() != run_ranks.size()) {
    return run;
  }
  std::map<std::uint32_t, std::int64_t> rank_of_first;
  for (const auto& [rank, pid] : first_ranks) rank_of_first[pid] = rank;
  ProfileRun ordered = run;
  ordered.samples.clear();
  for (std::uint32_t pid : first_pids) {
    auto match = run_ranks.find(rank_of_first[pid]);
    if (match == run_ranks.end()) return run;  // another set of ranks: joined (and checked) by position
    for (const Sample& sample : run.samples) {
      if (sample.pid == match->second) ordered.samples.push_back(sample);
    }
  }
  return ordered;
}

}  // namespace

bool MergeReplayPasses(const std::vector<ProfileRun>& given, ProfileRun* merged, std::string* error) {
  if (given.empty()) {
    *error = "application replay: no pass was run";
    return false;
  }
  std::vector<ProfileRun> passes;
  passes.reserve(given.size());
  for (const ProfileRun& run : given) passes.push_back(InRankOrderOf(given[0], run));
  const ProfileRun& first = passes[0];
  for (std::size_t p = 1; p < passes.size(); ++p) {
    const ProfileRun& run = passes[p];
    const std::string which =
        "application replay: pass " + std::to_string(p + 1) + " of " + std::to_string(passes.size());
    const std::size_t common = std::min(run.samples.size(), first.samples.size());
    for (std::size_t i = 0; i < common; ++i) {
      const Sample& a = first.samples[i];
      const Sample& b = run.samples[i];
      // A graph launch matches a launch of a graph of the same nodes (the name lists them), whatever CUPTI
      // numbered the executable graph in each run.
      if (a.name != b.name || a.grid != b.grid || a.block != b.block || a.graph.has_value() != b.graph.has_value() ||
          a.graph_node != b.graph_node) {
        *error = which + " profiled " + Shape(b) + " as its launch " + std::to_string(i + 1) + " where pass 1 had " +
                 Shape(a) + ": the program does not repeat its launches, so the passes cannot be joined " +
                 "(--replay-mode kernel replays each launch instead)";
        return false;
      }
    }
    if (run.samples.size() != first.samples.size()) {
      *error = which + " profiled " + std::to_string(run.samples.size()) + " launches where pass 1 profiled " +
               std::to_string(first.samples.size()) +
               ": the program does not repeat its launches, so the passes cannot be joined " +
               "(--replay-mode kernel replays each launch instead)";
      return false;
    }
  }

  ProfileRun result = first;
  result.counters.clear();
  for (Sample& sample : result.samples) sample.values.clear();
  result.messages.clear();
  for (std::size_t p = 0; p < passes.size(); ++p) {
    const ProfileRun& run = passes[p];
    for (std::size_t column = 0; column < run.counters.size(); ++column) {
      const bool known = std::any_of(result.counters.begin(), result.counters.end(),
                                     [&](const ProfiledCounter& c) { return c.name == run.counters[column].name; });
      if (known) continue;  // a metric two passes both collected: the first pass's value is kept
      result.counters.push_back(run.counters[column]);
      for (std::size_t i = 0; i < result.samples.size(); ++i) {
        const std::vector<double>& values = run.samples[i].values;
        result.samples[i].values.push_back(column < values.size() ? values[column]
                                                                  : std::numeric_limits<double>::quiet_NaN());
      }
    }
    for (const std::string& message : run.messages) {
      const std::string text = passes.size() > 1 ? "pass " + std::to_string(p + 1) + ": " + message : message;
      result.messages.push_back(text);
    }
  }
  result.pass = 0;
  result.passes = static_cast<std::uint32_t>(passes.size());
  *merged = std::move(result);
  return true;
}

}  // namespace opengpa::profiling
