#include "profiler/profile_writers.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "platform/text_table.h"

namespace opengpa::profiling {
namespace {

std::string QueueName(const ProfileRun& run, std::uint32_t id) {
  for (const auto& queue : run.queues) {
    if (queue.id == id) return queue.name;
  }
  return "queue " + std::to_string(id);
}

// The GPU of a queue (unknown where the queue is not listed or named none).
const GpuIdentity& GpuOf(const ProfileRun& run, std::uint32_t queue_id) {
  static const GpuIdentity unknown;
  for (const auto& queue : run.queues) {
    if (queue.id == queue_id) return queue.gpu;
  }
  return unknown;
}

const ProcessInfo& ProcessOf(const ProfileRun& run, std::uint32_t pid) {
  static const ProcessInfo unknown;
  for (const auto& process : run.processes) {
    if (process.pid == pid) return process;
  }
  return unknown;
}

std::string Dimensions(const std::array<std::uint64_t, 3>& d) {
  return std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" + std::to_string(d[2]);
}

nlohmann::ordered_json ValueJson(double value) {
  if (!std::isfinite(value)) return nullptr;
  return value;
}

// Index of the first counter measured in nanoseconds (a duration for samples without timestamps).
std::optional<std::size_t> DurationCounter(const ProfileRun& run) {
  for (std::size_t i = 0; i < run.counters.size(); ++i) {
    if (run.counters[i].usage == "nanoseconds" || run.counters[i].name == "gpu__time_duration.sum") return i;
  }
  return std::nullopt;
}

// For the summary table: six significant digits, and no exponent for the large counts of a GPU.
std::string Readable(double value) {
  char text[32];
  if (std::fabs(value) >= 1e6 && std::fabs(value) < 1e15) {
    std::snprintf(text, sizeof text, "%.0f", value);
  } else {
    std::snprintf(text, sizeof text, "%.6g", value);
  }
  return text;
}

// The short unit of a GPA usage name for table headers ("nanoseconds" -> "ns"); other units as given.
std::string UnitSymbol(const std::string& usage) {
  static const std::map<std::string, std::string> symbols = {
      {"nanoseconds", "ns"}, {"milliseconds", "ms"}, {"percentage", "%"}, {"items", "count"},
      {"kilobytes", "KiB"},  {"megabytes", "MiB"},   {"hertz", "Hz"}};
  const auto found = symbols.find(usage);
  return found == symbols.end() ? usage : found->second;
}

}  // namespace

std::string FormatValue(double value) {
  if (std::isnan(value)) return "";
  char text[32];
  // Counts (bytes, instructions, nanoseconds) print as integers, not "2e+03".
  if (std::fabs(value) < 1e15 && value == std::floor(value)) {
    std::snprintf(text, sizeof text, "%.0f", value);
    return text;
  }
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(text, sizeof text, "%.*g", precision, value);
    if (std::strtod(text, nullptr) == value) break;
  }
  return text;
}

namespace {

// A launch's open NVTX ranges in one cell, outermost first: "epoch 1 > forward".
std::string NvtxPath(const Sample& sample) {
  std::string path;
  for (const auto& range : sample.nvtx) path += (path.empty() ? "" : " > ") + range;
  return path;
}

// Counter tracks: per counter, one "C" event at each launch's start holding its value, keyed by the launch's queue
// (Perfetto draws one track per counter and queue, in the process's group; chrome://tracing one chart per
// counter), and 0 at its end unless the queue's next launch starts there with a value of its own, so that a value
// spans its kernel and neither the idle time after it nor a next launch that has none.
void AddCounterTracks(const ProfileRun& run, const std::vector<std::pair<double, double>>& placed,
                      nlohmann::ordered_json* events) {
  constexpr std::size_t kNone = SIZE_MAX;
  // The next launch of the same process and queue, found from the last launch back.
  std::vector<std::size_t> next(run.samples.size(), kNone);
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::size_t> later;
  for (std::size_t i = run.samples.size(); i-- > 0;) {
    const auto key = std::make_pair(run.samples[i].pid, run.samples[i].queue);
    const auto found = later.find(key);
    if (found != later.end()) next[i] = found->second;
    later[key] = i;
  }
  for (std::size_t i = 0; i < run.samples.size(); ++i) {
    const Sample& sample = run.samples[i];
    const std::string queue = QueueName(run, sample.queue);
    const auto pid = sample.pid == 0 ? 1 : sample.pid;
    const double end_us = placed[i].first + placed[i].second;
    const bool idle_after = next[i] == kNone || placed[next[i]].first > end_us;
    for (std::size_t c = 0; c < run.counters.size() && c < sample.values.size(); ++c) {
      if (!std::isfinite(sample.values[c])) continue;
      events->push_back({{"name", run.counters[c].name},
                         {"ph", "C"},
                         {"ts", placed[i].first},
                         {"pid", pid},
                         {"args", {{queue, sample.values[c]}}}});
      const bool next_has_value =
          !idle_after && c < run.samples[next[i]].values.size() && std::isfinite(run.samples[next[i]].values[c]);
      if (!next_has_value) {
        events->push_back(
            {{"name", run.counters[c].name}, {"ph", "C"}, {"ts", end_us}, {"pid", pid}, {"args", {{queue, 0}}}});
      }
    }
  }
}

}  // namespace

void WriteProfileCsv(const ProfileRun& run, std::ostream& out) {
  out << "pid,rank,host,gpu,gpu_uuid,pci_bus_id,index,kernel,queue,context,graph,graph_node,grid_x,grid_y,grid_z,"
         "block_x,block_y,block_z,start_ns,end_ns,nvtx";
  for (const auto& counter : run.counters) out << ',' << CsvCell(counter.name);
  out << '\n';
  for (const auto& sample : run.samples) {
    const ProcessInfo& process = ProcessOf(run, sample.pid);
    const GpuIdentity& gpu = GpuOf(run, sample.queue);
    out << sample.pid << ',' << (process.rank ? std::to_string(*process.rank) : "") << ',' << CsvCell(process.host)
        << ',' << (gpu.index >= 0 ? std::to_string(gpu.index) : "") << ',' << CsvCell(gpu.uuid) << ','
        << CsvCell(gpu.pci_bus_id) << ',' << sample.index << ',' << CsvCell(sample.name) << ','
        << CsvCell(QueueName(run, sample.queue)) << ',' << (sample.context ? std::to_string(sample.context) : "") << ','
        << (sample.graph ? std::to_string(*sample.graph) : "") << ','
        << (sample.graph_node ? std::to_string(*sample.graph_node) : "");
    for (auto v : sample.grid) out << ',' << v;
    for (auto v : sample.block) out << ',' << v;
    out << ',' << (sample.start_ns ? std::to_string(*sample.start_ns) : "");
    out << ',' << (sample.end_ns ? std::to_string(*sample.end_ns) : "");
    out << ',' << CsvCell(NvtxPath(sample));
    for (double value : sample.values) out << ',' << FormatValue(value);
    out << '\n';
  }
}

nlohmann::ordered_json ProfileJson(const ProfileRun& run) {
  nlohmann::ordered_json json;
  json["schema"] = "opengpa-profile/1";
  json["api"] = run.api;
  json["device"] = run.device;
  json["command"] = run.command;
  json["exit_code"] = run.exit_code;
  json["wall_time_s"] = run.wall_time_s;
  if (!run.replay.empty()) json["replay"] = {{"mode", run.replay}, {"passes", run.passes}};
  json["counters"] = nlohmann::ordered_json::array();
  for (const auto& counter : run.counters) {
    json["counters"].push_back({{"name", counter.name}, {"usage", counter.usage}, {"data_type", counter.data_type}});
  }
  json["queues"] = nlohmann::ordered_json::array();
  for (const auto& queue : run.queues) {
    nlohmann::ordered_json entry = {{"id", queue.id}, {"name", queue.name}, {"device", queue.device}};
    if (queue.gpu.index >= 0) entry["gpu"] = queue.gpu.index;
    if (!queue.gpu.uuid.empty()) entry["gpu_uuid"] = queue.gpu.uuid;
    if (!queue.gpu.pci_bus_id.empty()) entry["pci_bus_id"] = queue.gpu.pci_bus_id;
    json["queues"].push_back(std::move(entry));
  }
  json["processes"] = nlohmann::ordered_json::array();
  for (const auto& process : run.processes) {
    nlohmann::ordered_json entry = {{"pid", process.pid}, {"rank", nullptr}, {"host", process.host}};
    if (process.rank) entry["rank"] = *process.rank;
    json["processes"].push_back(std::move(entry));
  }
  json["unprofiled"] = nlohmann::ordered_json::array();
  for (const auto& unprofiled : run.unprofiled) {
    json["unprofiled"].push_back({{"pid", unprofiled.pid}, {"reason", unprofiled.reason}});
  }
  json["samples"] = nlohmann::ordered_json::array();
  for (const auto& sample : run.samples) {
    const ProcessInfo& process = ProcessOf(run, sample.pid);
    const GpuIdentity& gpu = GpuOf(run, sample.queue);
    nlohmann::ordered_json entry = {{"pid", sample.pid},
                                    {"rank", process.rank ? nlohmann::ordered_json(*process.rank) : nullptr},
                                    {"host", process.host},
                                    {"gpu", gpu.index >= 0 ? nlohmann::ordered_json(gpu.index) : nullptr},
                                    {"gpu_uuid", gpu.uuid},
                                    {"pci_bus_id", gpu.pci_bus_id},
                                    {"index", sample.index},
                                    {"kernel", sample.name},
                                    {"queue", sample.queue},
                                    {"grid", {sample.grid[0], sample.grid[1], sample.grid[2]}},
                                    {"block", {sample.block[0], sample.block[1], sample.block[2]}}};
    if (sample.start_ns) entry["start_ns"] = *sample.start_ns;
    if (sample.end_ns) entry["end_ns"] = *sample.end_ns;
    entry["nvtx"] = sample.nvtx;
    if (sample.context != 0) entry["context"] = sample.context;
    if (sample.graph) entry["graph"] = *sample.graph;
    if (sample.graph_node) entry["graph_node"] = *sample.graph_node;
    nlohmann::ordered_json values = nlohmann::ordered_json::object();
    for (std::size_t i = 0; i < run.counters.size() && i < sample.values.size(); ++i) {
      values[run.counters[i].name] = ValueJson(sample.values[i]);
    }
    entry["values"] = std::move(values);
    json["samples"].push_back(std::move(entry));
  }
  json["messages"] = run.messages;
  return json;
}

void WriteProfileSummary(const ProfileRun& run, std::ostream& out, std::size_t max_width) {
  struct KernelTotals {
    std::size_t first_seen = 0;
    std::uint64_t launches = 0;
    std::vector<double> sums;
    std::vector<std::uint64_t> finite;
  };
  std::map<std::string, KernelTotals> kernels;
  for (const auto& sample : run.samples) {
    auto [it, inserted] = kernels.try_emplace(sample.name);
    KernelTotals& totals = it->second;
    if (inserted) {
      totals.first_seen = kernels.size();
      totals.sums.assign(run.counters.size(), 0.0);
      totals.finite.assign(run.counters.size(), 0);
    }
    ++totals.launches;
    for (std::size_t i = 0; i < run.counters.size() && i < sample.values.size(); ++i) {
      if (std::isfinite(sample.values[i])) {
        totals.sums[i] += sample.values[i];
        ++totals.finite[i];
      }
    }
  }
  std::vector<const std::pair<const std::string, KernelTotals>*> order;
  order.reserve(kernels.size());
  for (const auto& entry : kernels) order.push_back(&entry);
  // Heaviest kernels first when the first counter is a duration; otherwise in order of first launch.
  const auto duration = DurationCounter(run);
  std::sort(order.begin(), order.end(), [&duration](const auto* a, const auto* b) {
    if (duration) return a->second.sums[*duration] > b->second.sums[*duration];
    return a->second.first_seen < b->second.first_seen;
  });

  // Units in the header; with a duration counter, each kernel's share of the time and its total; a last
  // row of totals over every launch.
  std::uint64_t all_launches = 0;
  std::vector<double> all_sums(run.counters.size(), 0.0);
  std::vector<std::uint64_t> all_finite(run.counters.size(), 0);
  for (const auto& entry : kernels) {
    all_launches += entry.second.launches;
    for (std::size_t i = 0; i < run.counters.size(); ++i) {
      all_sums[i] += entry.second.sums[i];
      all_finite[i] += entry.second.finite[i];
    }
  }
  auto with_unit = [](const ProfiledCounter& counter) {
    const std::string unit = UnitSymbol(counter.usage);
    return counter.name + (unit.empty() ? "" : " (" + unit + ")");
  };
  TextTable table;
  table.header = {"kernel", "launches"};
  table.alignment = {Alignment::kLeft, Alignment::kRight};
  if (duration) {
    table.header.emplace_back("time %");
    table.header.push_back("total " + with_unit(run.counters[*duration]));
    table.alignment.insert(table.alignment.end(), {Alignment::kRight, Alignment::kRight});
  }
  for (const auto& counter : run.counters) {
    table.header.push_back("mean " + with_unit(counter));
    table.alignment.push_back(Alignment::kRight);
  }
  auto add_row = [&](const std::string& name, std::uint64_t launches, const std::vector<double>& sums,
                     const std::vector<std::uint64_t>& finite) {
    std::vector<std::string> row = {name, std::to_string(launches)};
    if (duration) {
      const double total = all_sums[*duration];
      char share[16];
      std::snprintf(share, sizeof share, "%.1f", total > 0 ? 100.0 * sums[*duration] / total : 0.0);
      row.emplace_back(finite[*duration] == 0 ? "-" : share);
      row.push_back(finite[*duration] == 0 ? "-" : Readable(sums[*duration]));
    }
    for (std::size_t i = 0; i < run.counters.size(); ++i) {
      row.push_back(finite[i] == 0 ? "-" : Readable(sums[i] / static_cast<double>(finite[i])));
    }
    table.rows.push_back(std::move(row));
  };
  for (const auto* entry : order) {
    add_row(entry->first, entry->second.launches, entry->second.sums, entry->second.finite);
  }
  if (!order.empty()) add_row("(all kernels)", all_launches, all_sums, all_finite);
  table.max_width = max_width;
  WriteAligned(table, out);
}

nlohmann::ordered_json ChromeTrace(const ProfileRun& run) {
  nlohmann::ordered_json events = nlohmann::ordered_json::array();
  // One trace process per process of the program (its pid; 1 where the stream named none), its queues as threads.
  std::map<std::uint32_t, std::set<std::uint32_t>> queues_of;  // trace pid -> queue ids its samples use
  for (const auto& sample : run.samples) queues_of[sample.pid == 0 ? 1 : sample.pid].insert(sample.queue);
  if (queues_of.empty()) queues_of[1];
  for (const auto& [pid, queue_ids] : queues_of) {
    const std::string suffix = pid == 1 ? "" : " (pid " + std::to_string(pid) + ")";
    events.push_back({{"name", "process_name"},
                      {"ph", "M"},
                      {"pid", pid},
                      {"tid", 0},
                      {"args", {{"name", run.api + " " + run.device + suffix}}}});
    for (const auto& queue : run.queues) {
      if (queues_of.size() > 1 && queue_ids.count(queue.id) == 0) continue;
      events.push_back(
          {{"name", "thread_name"}, {"ph", "M"}, {"pid", pid}, {"tid", queue.id}, {"args", {{"name", queue.name}}}});
    }
  }
  std::uint64_t origin = UINT64_MAX;
  for (const auto& sample : run.samples) {
    if (sample.start_ns) origin = std::min(origin, *sample.start_ns);
  }
  if (origin == UINT64_MAX) origin = 0;
  const auto duration_counter = DurationCounter(run);
  std::map<std::uint32_t, double> queue_cursor_us;  // where untimed samples are laid end to end
  std::vector<std::pair<double, double>> placed;    // per sample: ts and dur (µs)
  placed.reserve(run.samples.size());
  for (const auto& sample : run.samples) {
    double ts_us = 0.0;
    double dur_us = 0.0;
    bool laid_out = false;
    if (sample.start_ns && sample.end_ns && *sample.end_ns >= *sample.start_ns) {
      ts_us = static_cast<double>(*sample.start_ns - origin) / 1000.0;
      dur_us = static_cast<double>(*sample.end_ns - *sample.start_ns) / 1000.0;
    } else {
      // No device timestamps (kernel replay): consecutive on the queue, as long as the measured duration.
      laid_out = true;
      ts_us = queue_cursor_us[sample.queue];
      if (duration_counter && sample.values.size() > *duration_counter &&
          std::isfinite(sample.values[*duration_counter])) {
        dur_us = sample.values[*duration_counter] / 1000.0;
      }
    }
    queue_cursor_us[sample.queue] = std::max(queue_cursor_us[sample.queue], ts_us + dur_us);
    nlohmann::ordered_json args = {
        {"index", sample.index}, {"grid", Dimensions(sample.grid)}, {"block", Dimensions(sample.block)}};
    if (!sample.nvtx.empty()) args["nvtx"] = NvtxPath(sample);
    if (laid_out) args["timeline"] = "laid end to end (no device timestamps)";
    for (std::size_t i = 0; i < run.counters.size() && i < sample.values.size(); ++i) {
      args[run.counters[i].name] = ValueJson(sample.values[i]);
    }
    events.push_back({{"name", sample.name},
                      {"cat", run.api},
                      {"ph", "X"},
                      {"ts", ts_us},
                      {"dur", dur_us},
                      {"pid", sample.pid == 0 ? 1 : sample.pid},
                      {"tid", sample.queue},
                      {"args", std::move(args)}});
    placed.emplace_back(ts_us, dur_us);
  }
  AddCounterTracks(run, placed, &events);
  return {{"traceEvents", std::move(events)}, {"displayTimeUnit", "ns"}};
}

}  // namespace opengpa::profiling
