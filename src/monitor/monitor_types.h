// The vocabulary of real-time (non-replay) monitoring: what a counter is, which GPU a value belongs to,
// and the timestamped record a sampler produces. Shared by every counter source, the sampler thread,
// the exposition formats and the C API.
#ifndef OPENGPA_MONITOR_MONITOR_TYPES_H_
#define OPENGPA_MONITOR_MONITOR_TYPES_H_

#include <cstdint>
#include <string>

namespace opengpa::monitor {

// How a value relates to time. A gauge is a reading (a clock, a temperature, a utilisation averaged over
// the record's interval); a delta is an amount accumulated during the record's interval (bytes, joules,
// instructions), which Prometheus sees as a counter the monitor keeps summing.
enum class CounterKind { kGauge, kDelta };

// Where a counter's values come from.
enum class CounterOrigin { kNvml, kNvmlGpm, kCuptiPmSampling, kTest };

struct CounterDescriptor {
  std::string name;         // "gpu_utilization_percent", "sm__cycles_active.avg"
  std::string description;  // one sentence, for --list-counters and # HELP
  std::string unit;         // "percent", "bytes", "gpc_cycle", ...
  CounterKind kind = CounterKind::kGauge;
  CounterOrigin origin = CounterOrigin::kNvml;
};

// One monitored GPU. `index` is the label users see (nvidia-smi order when NVML is present).
struct DeviceIdentity {
  uint32_t index = 0;
  std::string uuid;  // "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"
  std::string name;  // "NVIDIA H100 80GB HBM3"
};

// One value of one counter on one device. `timestamp_ns` is the end of the interval the value covers,
// in nanoseconds since the Unix epoch (CLOCK_REALTIME); `duration_ns` is its length (0 for a reading
// taken at one instant).
struct MonitorRecord {
  uint64_t timestamp_ns = 0;
  uint64_t duration_ns = 0;
  uint32_t device_index = 0;
  uint32_t counter_index = 0;
  double value = 0.0;
};

}  // namespace opengpa::monitor

#endif  // OPENGPA_MONITOR_MONITOR_TYPES_H_
