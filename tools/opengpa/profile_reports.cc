#include "profile_reports.h"

#include <algorithm>
#include <map>
#include <set>

namespace opengpa::cli {
namespace {

// `pattern` expanded with the first %i that no file and no earlier report of this run has.
std::string WithFreeIndex(const std::string& pattern, const OutputNameKeys& keys, OutputNameValues values,
                          const std::function<bool(const std::string&)>& taken, const std::set<std::string>& planned) {
  if (!keys.index) return ExpandOutputName(pattern, values);
  for (std::uint64_t index = 0;; ++index) {
    values.index = std::to_string(index);
    std::string name = ExpandOutputName(pattern, values);
    if (planned.count(name) == 0 && !taken(name)) return name;
  }
}

const profiling::ProcessInfo* FindProcess(const profiling::ProfileRun& run, std::uint32_t pid) {
  for (const auto& process : run.processes) {
    if (process.pid == pid) return &process;
  }
  return nullptr;
}

}  // namespace

std::string ReportPattern(const std::string& pattern, const OutputNameKeys& keys, bool per_process) {
  return per_process && !keys.PerProcess() ? pattern + ".%p" : pattern;
}

std::vector<ProfileReport> PlanReports(const profiling::ProfileRun& run, const std::string& pattern,
                                       const OutputNameKeys& keys, const OutputNameValues& values,
                                       const std::function<bool(const std::string&)>& taken) {
  std::vector<ProfileReport> reports;
  std::set<std::string> planned;
  if (!keys.PerProcess()) {
    reports.push_back({WithFreeIndex(pattern, keys, values, taken, planned), run});
    return reports;
  }
  // Each process's name (without %i), in the order the processes' samples come; processes of one name share it.
  std::vector<std::string> order;
  std::map<std::string, std::set<std::uint32_t>> pids_of;
  std::map<std::string, OutputNameValues> values_of;
  for (const auto& sample : run.samples) {
    OutputNameValues mine = values;
    mine.pid = std::to_string(sample.pid);
    mine.rank = "none";
    if (const profiling::ProcessInfo* process = FindProcess(run, sample.pid)) {
      if (process->rank) mine.rank = std::to_string(*process->rank);
      if (!process->host.empty()) mine.host = process->host;
      const auto environment = process->environment;
      mine.variable = [environment](const std::string& name) {
        for (const auto& [variable, value] : environment) {
          if (variable == name) return value;
        }
        return std::string();
      };
    }
    OutputNameValues without_index = mine;
    without_index.index = "%i";  // kept as a key until the index is chosen
    const std::string key = ExpandOutputName(pattern, without_index);
    if (pids_of.count(key) == 0) {
      order.push_back(key);
      values_of[key] = mine;
    }
    pids_of[key].insert(sample.pid);
  }
  for (const std::string& key : order) {
    const std::set<std::uint32_t>& pids = pids_of[key];
    ProfileReport report;
    report.prefix = WithFreeIndex(pattern, keys, values_of[key], taken, planned);
    planned.insert(report.prefix);
    report.run = run;
    report.run.samples.clear();
    std::set<std::uint32_t> queues;
    for (const auto& sample : run.samples) {
      if (pids.count(sample.pid) == 0) continue;
      report.run.samples.push_back(sample);
      queues.insert(sample.queue);
    }
    report.run.queues.erase(std::remove_if(report.run.queues.begin(), report.run.queues.end(),
                                           [&queues](const profiling::Queue& q) { return queues.count(q.id) == 0; }),
                            report.run.queues.end());
    report.run.processes.erase(
        std::remove_if(report.run.processes.begin(), report.run.processes.end(),
                       [&pids](const profiling::ProcessInfo& p) { return pids.count(p.pid) == 0; }),
        report.run.processes.end());
    if (!report.run.queues.empty()) report.run.device = report.run.queues.front().device;
    reports.push_back(std::move(report));
  }
  return reports;
}

}  // namespace opengpa::cli
