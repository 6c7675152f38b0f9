// `opengpa monitor --trace FILE`: the monitor's records as a Chrome trace (docs/schema/chrome-trace.schema.json), for
// ui.perfetto.dev and chrome://tracing beside a profile's trace: one trace process per GPU ("GPU 0: NVIDIA H100 ..."),
// one counter track per counter ("C" events, args {"value": v}), each record at the start of the interval it covers
// (its timestamp less its duration), in microseconds from the monitor's start. Written as records arrive, so that a
// long run keeps no records in memory; the caller's stream decides where it lands (output_file.h).
#ifndef OPENGPA_TOOLS_OPENGPA_MONITOR_TRACE_H_
#define OPENGPA_TOOLS_OPENGPA_MONITOR_TRACE_H_

#include <cstdint>
#include <ostream>
#include <vector>

#include "monitor/monitor_types.h"

namespace opengpa::cli {

class MonitorTraceWriter {
 public:
  // Writes the trace's head and the GPUs' names. `origin_ns`: CLOCK_REALTIME of the monitor's start (time 0).
  MonitorTraceWriter(std::ostream& out, const std::vector<monitor::DeviceIdentity>& devices,
                     std::vector<monitor::CounterDescriptor> counters, std::uint64_t origin_ns);
  void Add(const monitor::MonitorRecord& record);
  // Writes the trace's tail; nothing may be added after.
  void Close();

 private:
  std::ostream& out_;
  std::vector<monitor::CounterDescriptor> counters_;
  std::uint64_t origin_ns_;
};

}  // namespace opengpa::cli

#endif  // OPENGPA_TOOLS_OPENGPA_MONITOR_TRACE_H_
