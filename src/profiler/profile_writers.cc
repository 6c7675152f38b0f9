#include "profiler/profile_writers.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "platform/text_table.h"
#include "profiler/json_text.h"

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

namespace {

// FormatValue's text, appended to `text`.
void AppendValue(std::string* text, double value) {
  if (std::isnan(value)) return;
  char digits[64];
  // Counts (bytes, instructions, nanoseconds) print as integers, not "2e+03".
  if (std::fabs(value) < 1e15 && value == std::floor(value)) {
    const auto written = std::to_chars(digits, digits + sizeof digits, value, std::chars_format::fixed, 0);
    text->append(digits, written.ptr);
    return;
  }
  // Otherwise as printf's %g prints it with the fewest significant digits that read back as `value`: that many
  // as std::to_chars' shortest form has (one call each, where trying precisions from 1 up with snprintf and strtod
  // took most of a large profile's CSV time: 17,883 sampled GPT-2 launches).
  const auto shortest = std::to_chars(digits, digits + sizeof digits, value, std::chars_format::scientific);
  int significant = 0;
  for (const char* c = digits; c != shortest.ptr && *c != 'e'; ++c) significant += *c >= '0' && *c <= '9' ? 1 : 0;
  const auto written =
      std::to_chars(digits, digits + sizeof digits, value, std::chars_format::general, std::max(significant, 1));
  text->append(digits, written.ptr);
}

}  // namespace

std::string FormatValue(double value) {
  std::string text;
  AppendValue(&text, value);
  return text;
}

namespace {

// A launch's open NVTX ranges in one cell, outermost first: "epoch 1 > forward".
std::string NvtxPath(const Sample& sample) {
  std::string path;
  for (const auto& range : sample.nvtx) path += (path.empty() ? "" : " > ") + range;
  return path;
}

// Text for `out`, gathered in one buffer and written a megabyte at a time: a stream insertion per piece took
// several times as long on a large run (17,883 GPT-2 launches).
class BufferedText {
 public:
  explicit BufferedText(std::ostream& out) : out_(out) { text_.reserve(kFlushAt + 4096); }
  ~BufferedText() { Flush(); }
  BufferedText(const BufferedText&) = delete;
  BufferedText& operator=(const BufferedText&) = delete;

  std::string& text() { return text_; }
  // After each record: writes the buffer out once it holds a megabyte.
  void RecordDone() {
    if (text_.size() >= kFlushAt) Flush();
  }

 private:
  static constexpr std::size_t kFlushAt = 1 << 20;
  void Flush() {
    out_.write(text_.data(), static_cast<std::streamsize>(text_.size()));
    text_.clear();
  }
  std::ostream& out_;
  std::string text_;
};

// Writes JSON objects (trace events, profile samples) to `out` through a BufferedText, one per line, each after a
// comma but the first.
class JsonObjectLines {
 public:
  explicit JsonObjectLines(std::ostream& out) : buffer_(out) {}

  // The object's fields go to the returned buffer, between the braces this adds.
  std::string& Begin() {
    buffer_.text().append(first_ ? "\n{" : ",\n{");
    first_ = false;
    return buffer_.text();
  }
  void End() {
    buffer_.text().push_back('}');
    buffer_.RecordDone();
  }

 private:
  BufferedText buffer_;
  bool first_ = true;
};

void AppendKey(std::string* text, std::string_view key) {
  AppendJsonString(text, key);
  text->push_back(':');
}

void AppendUnsigned(std::string* text, std::uint64_t value) { text->append(std::to_string(value)); }

// `strings` as a JSON array.
void AppendJsonStrings(std::string* text, const std::vector<std::string>& strings) {
  text->push_back('[');
  for (std::size_t i = 0; i < strings.size(); ++i) {
    if (i != 0) text->push_back(',');
    AppendJsonString(text, strings[i]);
  }
  text->push_back(']');
}

// A process's rank as a JSON value: null where the process named none.
std::string RankJson(const ProcessInfo& process) {
  return process.rank ? std::to_string(*process.rank) : std::string("null");
}

// A metadata event naming a trace process (tid 0) or thread.
void WriteName(JsonObjectLines* events, const char* what, std::uint32_t pid, std::uint32_t tid,
               const std::string& name) {
  std::string& text = events->Begin();
  AppendKey(&text, "name");
  AppendJsonString(&text, what);
  text.append(R"(,"ph":"M","pid":)");
  AppendUnsigned(&text, pid);
  text.append(",\"tid\":");
  AppendUnsigned(&text, tid);
  text.append(R"(,"args":{"name":)");
  AppendJsonString(&text, name);
  text.push_back('}');
  events->End();
}

// One "C" event: counter `name`'s value on track `queue` from `ts_us` on.
void WriteCounterEvent(JsonObjectLines* events, const std::string& name, double ts_us, std::uint32_t pid,
                       const std::string& queue, double value) {
  std::string& text = events->Begin();
  AppendKey(&text, "name");
  AppendJsonString(&text, name);
  text.append(R"(,"ph":"C","ts":)");
  AppendJsonNumber(&text, ts_us);
  text.append(",\"pid\":");
  AppendUnsigned(&text, pid);
  text.append(",\"args\":{");
  AppendKey(&text, queue);
  AppendJsonNumber(&text, value);
  text.push_back('}');
  events->End();
}

// Counter tracks: per counter, one "C" event at each launch's start holding its value, keyed by the launch's queue
// (Perfetto draws one track per counter and queue, in the process's group; chrome://tracing one chart per
// counter), and 0 at its end unless the queue's next launch starts there with a value of its own, so that a value
// spans its kernel and neither the idle time after it nor a next launch that has none.
void WriteCounterTracks(const ProfileRun& run, const std::vector<std::pair<double, double>>& placed,
                        JsonObjectLines* events) {
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
  std::map<std::uint32_t, std::string> queue_names;
  for (std::size_t i = 0; i < run.samples.size(); ++i) {
    const Sample& sample = run.samples[i];
    auto [named, added] = queue_names.try_emplace(sample.queue);
    if (added) named->second = QueueName(run, sample.queue);
    const std::string& queue = named->second;
    const auto pid = sample.pid == 0 ? 1 : sample.pid;
    const double end_us = placed[i].first + placed[i].second;
    const bool idle_after = next[i] == kNone || placed[next[i]].first > end_us;
    for (std::size_t c = 0; c < run.counters.size() && c < sample.values.size(); ++c) {
      if (!std::isfinite(sample.values[c])) continue;
      WriteCounterEvent(events, run.counters[c].name, placed[i].first, pid, queue, sample.values[c]);
      const bool next_has_value =
          !idle_after && c < run.samples[next[i]].values.size() && std::isfinite(run.samples[next[i]].values[c]);
      if (!next_has_value) WriteCounterEvent(events, run.counters[c].name, end_us, pid, queue, 0.0);
    }
  }
}

}  // namespace

void WriteProfileCsv(const ProfileRun& run, std::ostream& out) {
  BufferedText buffer(out);
  std::string& text = buffer.text();
  text.append(
      "pid,rank,host,gpu,gpu_uuid,pci_bus_id,index,kernel,queue,context,graph,graph_node,grid_x,grid_y,grid_z,"
      "block_x,block_y,block_z,start_ns,end_ns,nvtx");
  for (const auto& counter : run.counters) text.append(",").append(CsvCell(counter.name));
  text.push_back('\n');
  for (const auto& sample : run.samples) {
    const ProcessInfo& process = ProcessOf(run, sample.pid);
    const GpuIdentity& gpu = GpuOf(run, sample.queue);
    AppendUnsigned(&text, sample.pid);
    text.push_back(',');
    if (process.rank) text.append(std::to_string(*process.rank));
    text.append(",").append(CsvCell(process.host)).push_back(',');
    if (gpu.index >= 0) AppendUnsigned(&text, static_cast<std::uint64_t>(gpu.index));
    text.append(",").append(CsvCell(gpu.uuid)).append(",").append(CsvCell(gpu.pci_bus_id)).push_back(',');
    AppendUnsigned(&text, sample.index);
    text.append(",").append(CsvCell(sample.name)).append(",").append(CsvCell(QueueName(run, sample.queue)));
    text.push_back(',');
    if (sample.context != 0) AppendUnsigned(&text, sample.context);
    text.push_back(',');
    if (sample.graph) AppendUnsigned(&text, *sample.graph);
    text.push_back(',');
    if (sample.graph_node) AppendUnsigned(&text, *sample.graph_node);
    for (auto v : sample.grid) {
      text.push_back(',');
      AppendUnsigned(&text, v);
    }
    for (auto v : sample.block) {
      text.push_back(',');
      AppendUnsigned(&text, v);
    }
    text.push_back(',');
    if (sample.start_ns) AppendUnsigned(&text, *sample.start_ns);
    text.push_back(',');
    if (sample.end_ns) AppendUnsigned(&text, *sample.end_ns);
    text.append(",").append(CsvCell(NvtxPath(sample)));
    for (double value : sample.values) {
      text.push_back(',');
      AppendValue(&text, value);
    }
    text.push_back('\n');
    buffer.RecordDone();
  }
}

void WriteProfileJson(const ProfileRun& run, std::ostream& out) {
  std::string text = "{\"schema\":\"opengpa-profile/1\",\n\"api\":";
  AppendJsonString(&text, run.api);
  text.append(",\n\"device\":");
  AppendJsonString(&text, run.device);
  text.append(",\n\"command\":");
  AppendJsonStrings(&text, run.command);
  text.append(",\n\"exit_code\":" + std::to_string(run.exit_code) + ",\n\"wall_time_s\":");
  AppendJsonNumber(&text, run.wall_time_s);
  if (!run.replay.empty()) {
    text.append(",\n\"replay\":{\"mode\":");
    AppendJsonString(&text, run.replay);
    text.append(",\"passes\":" + std::to_string(run.passes) + "}");
  }
  text.append(",\n\"counters\":[");
  out << text;
  {
    JsonObjectLines counters(out);
    for (const auto& counter : run.counters) {
      std::string& entry = counters.Begin();
      AppendKey(&entry, "name");
      AppendJsonString(&entry, counter.name);
      entry.append(",\"usage\":");
      AppendJsonString(&entry, counter.usage);
      entry.append(",\"data_type\":");
      AppendJsonString(&entry, counter.data_type);
      counters.End();
    }
  }
  out << "],\n\"queues\":[";
  {
    JsonObjectLines queues(out);
    for (const Queue& queue : run.queues) {
      std::string& entry = queues.Begin();
      entry.append("\"id\":");
      AppendUnsigned(&entry, queue.id);
      entry.append(",\"name\":");
      AppendJsonString(&entry, queue.name);
      entry.append(",\"device\":");
      AppendJsonString(&entry, queue.device);
      if (queue.gpu.index >= 0) entry.append(",\"gpu\":" + std::to_string(queue.gpu.index));
      if (!queue.gpu.uuid.empty()) {
        entry.append(",\"gpu_uuid\":");
        AppendJsonString(&entry, queue.gpu.uuid);
      }
      if (!queue.gpu.pci_bus_id.empty()) {
        entry.append(",\"pci_bus_id\":");
        AppendJsonString(&entry, queue.gpu.pci_bus_id);
      }
      queues.End();
    }
  }
  out << "],\n\"processes\":[";
  {
    JsonObjectLines processes(out);
    for (const ProcessInfo& process : run.processes) {
      std::string& entry = processes.Begin();
      entry.append("\"pid\":");
      AppendUnsigned(&entry, process.pid);
      entry.append(",\"rank\":" + RankJson(process) + ",\"host\":");
      AppendJsonString(&entry, process.host);
      processes.End();
    }
  }
  out << "],\n\"unprofiled\":[";
  {
    JsonObjectLines unprofiled(out);
    for (const UnprofiledProcess& process : run.unprofiled) {
      std::string& entry = unprofiled.Begin();
      entry.append("\"pid\":");
      AppendUnsigned(&entry, process.pid);
      entry.append(",\"reason\":");
      AppendJsonString(&entry, process.reason);
      unprofiled.End();
    }
  }
  out << "],\n\"samples\":[";
  {
    JsonObjectLines samples(out);  // one sample per line, written as made
    for (const auto& sample : run.samples) {
      const ProcessInfo& process = ProcessOf(run, sample.pid);
      const GpuIdentity& gpu = GpuOf(run, sample.queue);
      std::string& entry = samples.Begin();
      entry.append("\"pid\":");
      AppendUnsigned(&entry, sample.pid);
      entry.append(",\"rank\":" + RankJson(process) + ",\"host\":");
      AppendJsonString(&entry, process.host);
      entry.append(",\"gpu\":" + (gpu.index >= 0 ? std::to_string(gpu.index) : std::string("null")) + ",\"gpu_uuid\":");
      AppendJsonString(&entry, gpu.uuid);
      entry.append(",\"pci_bus_id\":");
      AppendJsonString(&entry, gpu.pci_bus_id);
      entry.append(",\"index\":");
      AppendUnsigned(&entry, sample.index);
      entry.append(",\"kernel\":");
      AppendJsonString(&entry, sample.name);
      entry.append(",\"queue\":");
      AppendUnsigned(&entry, sample.queue);
      for (const auto& [key, dimensions] : {std::pair{"grid", &sample.grid}, std::pair{"block", &sample.block}}) {
        entry.append(",\"" + std::string(key) + "\":[");
        for (std::size_t d = 0; d < 3; ++d) {
          if (d != 0) entry.push_back(',');
          AppendUnsigned(&entry, (*dimensions)[d]);
        }
        entry.push_back(']');
      }
      if (sample.start_ns) entry.append(",\"start_ns\":" + std::to_string(*sample.start_ns));
      if (sample.end_ns) entry.append(",\"end_ns\":" + std::to_string(*sample.end_ns));
      entry.append(",\"nvtx\":");
      AppendJsonStrings(&entry, sample.nvtx);
      if (sample.context != 0) entry.append(",\"context\":" + std::to_string(sample.context));
      if (sample.graph) entry.append(",\"graph\":" + std::to_string(*sample.graph));
      if (sample.graph_node) entry.append(",\"graph_node\":" + std::to_string(*sample.graph_node));
      entry.append(",\"values\":{");
      for (std::size_t i = 0; i < run.counters.size() && i < sample.values.size(); ++i) {
        if (i != 0) entry.push_back(',');
        AppendKey(&entry, run.counters[i].name);
        AppendJsonNumber(&entry, sample.values[i]);
      }
      entry.push_back('}');
      samples.End();
    }
  }
  text = "],\n\"messages\":";
  AppendJsonStrings(&text, run.messages);
  text.append("}");
  out << text;
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

void WriteChromeTrace(const ProfileRun& run, std::ostream& out) {
  out << R"({"displayTimeUnit":"ns","traceEvents":[)";
  {
    JsonObjectLines events(out);
    // One trace process per process of the program (its pid; 1 where the stream named none), its queues as threads.
    std::map<std::uint32_t, std::set<std::uint32_t>> queues_of;  // trace pid -> queue ids its samples use
    for (const auto& sample : run.samples) queues_of[sample.pid == 0 ? 1 : sample.pid].insert(sample.queue);
    if (queues_of.empty()) queues_of[1];
    for (const auto& [pid, queue_ids] : queues_of) {
      const std::string suffix = pid == 1 ? "" : " (pid " + std::to_string(pid) + ")";
      WriteName(&events, "process_name", pid, 0, run.api + " " + run.device + suffix);
      for (const auto& queue : run.queues) {
        if (queues_of.size() > 1 && queue_ids.count(queue.id) == 0) continue;
        WriteName(&events, "thread_name", pid, queue.id, queue.name);
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
      std::string& text = events.Begin();
      AppendKey(&text, "name");
      AppendJsonString(&text, sample.name);
      text.append(",\"cat\":");
      AppendJsonString(&text, run.api);
      text.append(R"(,"ph":"X","ts":)");
      AppendJsonNumber(&text, ts_us);
      text.append(",\"dur\":");
      AppendJsonNumber(&text, dur_us);
      text.append(",\"pid\":");
      AppendUnsigned(&text, sample.pid == 0 ? 1 : sample.pid);
      text.append(",\"tid\":");
      AppendUnsigned(&text, sample.queue);
      text.append(R"(,"args":{"index":)");
      AppendUnsigned(&text, sample.index);
      text.append(",\"grid\":");
      AppendJsonString(&text, Dimensions(sample.grid));
      text.append(",\"block\":");
      AppendJsonString(&text, Dimensions(sample.block));
      if (!sample.nvtx.empty()) {
        text.append(",\"nvtx\":");
        AppendJsonString(&text, NvtxPath(sample));
      }
      if (laid_out) text.append(",\"timeline\":\"laid end to end (no device timestamps)\"");
      for (std::size_t i = 0; i < run.counters.size() && i < sample.values.size(); ++i) {
        text.push_back(',');
        AppendKey(&text, run.counters[i].name);
        AppendJsonNumber(&text, sample.values[i]);
      }
      text.push_back('}');
      events.End();
      placed.emplace_back(ts_us, dur_us);
    }
    WriteCounterTracks(run, placed, &events);
  }
  out << "\n]}";
}

}  // namespace opengpa::profiling
