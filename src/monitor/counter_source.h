// A producer of counter values for the monitor's sampler thread: NVML readings, CUPTI PM samples, or a
// test double. Start/Poll/Stop are called from one thread at a time (the monitor serialises them).
#ifndef OPENGPA_MONITOR_COUNTER_SOURCE_H_
#define OPENGPA_MONITOR_COUNTER_SOURCE_H_

#include <chrono>
#include <cstddef>
#include <string_view>
#include <vector>

#include "gpu_performance_api/gpu_perf_api_types.h"
#include "monitor/monitor_types.h"

namespace opengpa::monitor {

class CounterSource {
 public:
  virtual ~CounterSource() = default;

  virtual std::string_view Name() const = 0;
  // The counters this source was configured with; MonitorRecord::counter_index indexes this list.
  virtual const std::vector<CounterDescriptor>& Counters() const = 0;
  virtual const std::vector<DeviceIdentity>& Devices() const = 0;
  // The most records a Poll appends when it comes `tick` after the previous one: the monitor keeps room for two
  // ticks' worth unread. One reading per counter and device, unless the source samples faster than it is polled.
  virtual size_t RecordsPerTick(std::chrono::milliseconds /*tick*/) const {
    return Counters().size() * Devices().size();
  }

  [[nodiscard]] virtual GpaStatus Start() = 0;
  // Appends every value measured since the previous Poll (or Start).
  [[nodiscard]] virtual GpaStatus Poll(std::vector<MonitorRecord>* records) = 0;
  // Stops measuring and appends what was measured but not yet polled.
  [[nodiscard]] virtual GpaStatus Stop(std::vector<MonitorRecord>* records) = 0;
};

}  // namespace opengpa::monitor

#endif  // OPENGPA_MONITOR_COUNTER_SOURCE_H_
