// The newest value of every counter on every device, for scrapes and the live table: a gauge keeps the
// mean of the values that arrived in the last tick, a delta the sum of the last tick and the running total
// since the monitor started (what Prometheus expects of a counter).
#ifndef OPENGPA_MONITOR_LATEST_VALUES_H_
#define OPENGPA_MONITOR_LATEST_VALUES_H_

#include <cstdint>
#include <mutex>
#include <vector>

#include "monitor/monitor_types.h"
#include "monitor/series_labels.h"

namespace opengpa::monitor {

struct CounterValue {
  bool present = false;
  double last = 0.0;   // gauge: mean over the last tick; delta: sum over the last tick
  double total = 0.0;  // delta only: sum since the start
  uint64_t timestamp_ns = 0;
  uint64_t records = 0;  // how many records contributed since the start
};

// A consistent copy for formatting: values[d * counters.size() + c] is counter c on devices[d].
struct MetricsView {
  std::vector<CounterDescriptor> counters;
  std::vector<DeviceIdentity> devices;
  std::vector<CounterValue> values;
  SeriesLabels labels;  // on every series after the GPU's own (series_labels.h)

  const CounterValue& At(size_t device, size_t counter) const { return values[device * counters.size() + counter]; }
};

class LatestValues {
 public:
  LatestValues(std::vector<CounterDescriptor> counters, std::vector<DeviceIdentity> devices, SeriesLabels labels = {});

  // Applies one tick's records (counter_index in `counters` order; device_index a DeviceIdentity::index).
  void Apply(const std::vector<MonitorRecord>& batch);
  MetricsView View() const;

 private:
  size_t DevicePosition(uint32_t index) const;  // devices_.size() when unknown

  mutable std::mutex mutex_;
  MetricsView view_;
  std::vector<double> batch_sum_;      // scratch, per value slot
  std::vector<uint32_t> batch_count_;  // scratch
};

}  // namespace opengpa::monitor

#endif  // OPENGPA_MONITOR_LATEST_VALUES_H_
