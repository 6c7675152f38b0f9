#include "profiler/sampled_profile.h"

#include <algorithm>
#include <limits>
#include <map>

#include "profiler/launch_filter.h"
#include "profiler/nvtx_filter.h"

namespace opengpa::profiling {
namespace {

bool SameGpu(const GpuIdentity& a, const GpuIdentity& b) {
  if (!a.uuid.empty() && !b.uuid.empty()) return a.uuid == b.uuid;
  if (!a.pci_bus_id.empty() && !b.pci_bus_id.empty()) return a.pci_bus_id == b.pci_bus_id;
  return a.index >= 0 && a.index == b.index;
}

// Which series each queue's work ran on; -1 when none matches.
std::map<std::uint32_t, int> SeriesOfQueues(const std::vector<GpuSampleSeries>& gpus, const ProfileRun& run) {
  std::map<std::uint32_t, int> series;
  for (const Queue& queue : run.queues) {
    int found = -1;
    for (std::size_t i = 0; i < gpus.size(); ++i) {
      if (SameGpu(queue.gpu, gpus[i].gpu)) found = static_cast<int>(i);
    }
    series[queue.id] = found;
  }
  return series;
}

void NumberLaunches(ProfileRun* run) {
  // Samples arrive grouped by process (ReadSampleStream keeps that order) and sorted by correlation id within.
  std::uint32_t pid = 0;
  std::uint64_t next = 0;
  for (std::size_t i = 0; i < run->samples.size(); ++i) {
    Sample& sample = run->samples[i];
    if (i == 0 || sample.pid != pid) {
      pid = sample.pid;
      next = 0;
    }
    sample.index = next++;
  }
}

}  // namespace

bool IsPmMetricName(const std::string& name) {
  const std::size_t unit_end = name.find("__");
  return unit_end != std::string::npos && unit_end != 0 && name.find('.', unit_end) != std::string::npos;
}

void AttributeSampledRun(const std::vector<GpuSampleSeries>& gpus, const std::vector<ProfiledCounter>& metrics,
                         const std::vector<MetricKind>& kinds, std::uint64_t interval_ns, ProfileRun* run) {
  NumberLaunches(run);
  run->counters = metrics;
  run->counters.push_back({kCoverageColumn, "ratio", "float64"});
  run->counters.push_back({kSamplesColumn, "items", "uint64"});
  run->counters.push_back({kOverlappedColumn, "boolean", "uint64"});
  run->counters.push_back({kShortColumn, "boolean", "uint64"});
  run->outputs.clear();

  const std::map<std::uint32_t, int> series_of = SeriesOfQueues(gpus, *run);
  auto series_index = [&series_of](std::uint32_t queue) {
    auto found = series_of.find(queue);
    return found == series_of.end() ? -1 : found->second;
  };
  // Each GPU's work: its launches (rows) and the copies and memsets beside them.
  std::vector<std::vector<TimedWork>> work(gpus.size());
  std::vector<std::vector<std::size_t>> rows(gpus.size());
  for (std::size_t row = 0; row < run->samples.size(); ++row) {
    const Sample& sample = run->samples[row];
    const int gpu = series_index(sample.queue);
    if (gpu < 0 || !sample.start_ns || !sample.end_ns) continue;
    work[static_cast<std::size_t>(gpu)].push_back({*sample.start_ns, *sample.end_ns, true});
    rows[static_cast<std::size_t>(gpu)].push_back(row);
  }
  for (const OtherWork& other : run->other_work) {
    const int gpu = series_index(other.queue);
    if (gpu >= 0) work[static_cast<std::size_t>(gpu)].push_back({other.start_ns, other.end_ns, false});
  }

  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (Sample& sample : run->samples) {
    sample.values.assign(metrics.size(), nan);
    sample.values.insert(sample.values.end(), {0.0, 0.0, 0.0, 0.0});
  }
  for (std::size_t gpu = 0; gpu < gpus.size(); ++gpu) {
    const std::vector<AttributedWork> shares = AttributeSamples(work[gpu], gpus[gpu].samples, kinds, interval_ns);
    for (std::size_t i = 0; i < rows[gpu].size(); ++i) {
      const AttributedWork& share = shares[i];  // the launches come first in work[gpu], in row order
      Sample& sample = run->samples[rows[gpu][i]];
      std::copy(share.values.begin(), share.values.end(), sample.values.begin());
      const std::size_t base = metrics.size();
      sample.values[base] = share.coverage;
      sample.values[base + 1] = share.samples;
      sample.values[base + 2] = share.overlapped ? 1.0 : 0.0;
      sample.values[base + 3] = share.short_work ? 1.0 : 0.0;
    }
  }
}

bool KeepChosenLaunches(const std::string& kernel_name, std::uint64_t skip, std::uint64_t count, ProfileRun* run,
                        std::string* error, const std::vector<std::string>& nvtx_include) {
  LaunchFilter prototype;
  if (!LaunchFilter::Create(kernel_name, skip, count, &prototype, error)) return false;
  NvtxFilter ranges;
  if (!NvtxFilter::Create(nvtx_include, &ranges, error)) return false;
  std::map<std::uint32_t, LaunchFilter> filters;  // each process chooses among its own launches
  std::vector<Sample> kept;
  for (Sample& sample : run->samples) {
    if (ranges.Active() && !ranges.MatchesLabels(sample.nvtx)) continue;  // as the exact mode: ranges first
    auto [filter, first] = filters.try_emplace(sample.pid, prototype);
    if (filter->second.Profile(sample.name)) kept.push_back(std::move(sample));
  }
  run->samples = std::move(kept);
  return true;
}

}  // namespace opengpa::profiling
