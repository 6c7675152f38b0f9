#include "profiler/replay_merge.h"

#include <algorithm>
#include <limits>

namespace opengpa::profiling {
namespace {

std::string Shape(const Sample& sample) {
  auto triple = [](const std::array<std::uint64_t, 3>& v) {
    return std::to_string(v[0]) + "x" + std::to_string(v[1]) + "x" + std::to_string(v[2]);
  };
  return sample.name + " (grid " + triple(sample.grid) + ", block " + triple(sample.block) + ")";
}

}  // namespace

bool MergeReplayPasses(const std::vector<ProfileRun>& passes, ProfileRun* merged, std::string* error) {
  if (passes.empty()) {
    *error = "application replay: no pass was run";
    return false;
  }
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
