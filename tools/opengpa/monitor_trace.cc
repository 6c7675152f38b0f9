#include "monitor_trace.h"

#include <cmath>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

namespace opengpa::cli {
namespace {

// The counter's track name: its unit after it, and a delta's "per interval" (an amount, not a rate).
std::string TrackName(const monitor::CounterDescriptor& counter) {
  std::string unit = counter.unit;
  if (counter.kind == monitor::CounterKind::kDelta) unit += unit.empty() ? "per interval" : " per interval";
  return unit.empty() ? counter.name : counter.name + " (" + unit + ")";
}

// A GPU's trace process: pid 0 is no process to some viewers, so GPU n is pid n + 1.
int TracePid(std::uint32_t device_index) { return static_cast<int>(device_index) + 1; }

}  // namespace

MonitorTraceWriter::MonitorTraceWriter(std::ostream& out, const std::vector<monitor::DeviceIdentity>& devices,
                                       std::vector<monitor::CounterDescriptor> counters, std::uint64_t origin_ns)
    : out_(out), counters_(std::move(counters)), origin_ns_(origin_ns) {
  out_ << R"({"displayTimeUnit": "ms", "traceEvents": [)";
  bool first = true;
  for (const auto& device : devices) {
    const nlohmann::ordered_json event = {
        {"name", "process_name"},
        {"ph", "M"},
        {"pid", TracePid(device.index)},
        {"tid", 0},
        {"args", {{"name", "GPU " + std::to_string(device.index) + (device.name.empty() ? "" : ": " + device.name)}}}};
    out_ << (first ? "\n" : ",\n") << event.dump();
    first = false;
  }
  // Records follow with a leading comma: a metadata event stands first even without devices.
  if (first) {
    const nlohmann::ordered_json event = {
        {"name", "process_name"}, {"ph", "M"}, {"pid", 0}, {"tid", 0}, {"args", {{"name", "monitor"}}}};
    out_ << "\n" << event.dump();
  }
}

void MonitorTraceWriter::Add(const monitor::MonitorRecord& record) {
  if (record.counter_index >= counters_.size() || !std::isfinite(record.value)) return;
  const std::uint64_t start = record.timestamp_ns > record.duration_ns ? record.timestamp_ns - record.duration_ns : 0;
  const double ts_us = start > origin_ns_ ? static_cast<double>(start - origin_ns_) / 1000.0 : 0.0;
  const nlohmann::ordered_json event = {{"name", TrackName(counters_[record.counter_index])},
                                        {"ph", "C"},
                                        {"ts", ts_us},
                                        {"pid", TracePid(record.device_index)},
                                        {"args", {{"value", record.value}}}};
  out_ << ",\n" << event.dump();
}

void MonitorTraceWriter::Close() { out_ << "\n]}\n"; }

}  // namespace opengpa::cli
