#include "monitor/latest_values.h"

#include <algorithm>

namespace opengpa::monitor {

LatestValues::LatestValues(std::vector<CounterDescriptor> counters, std::vector<DeviceIdentity> devices,
                           SeriesLabels labels) {
  view_.counters = std::move(counters);
  view_.devices = std::move(devices);
  view_.labels = std::move(labels);
  view_.values.resize(view_.counters.size() * view_.devices.size());
  batch_sum_.resize(view_.values.size());
  batch_count_.resize(view_.values.size());
}

size_t LatestValues::DevicePosition(uint32_t index) const {
  for (size_t d = 0; d < view_.devices.size(); ++d) {
    if (view_.devices[d].index == index) return d;
  }
  return view_.devices.size();
}

void LatestValues::Apply(const std::vector<MonitorRecord>& batch) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::fill(batch_sum_.begin(), batch_sum_.end(), 0.0);
  std::fill(batch_count_.begin(), batch_count_.end(), 0u);
  const size_t counter_count = view_.counters.size();
  for (const MonitorRecord& record : batch) {
    const size_t d = DevicePosition(record.device_index);
    if (d == view_.devices.size() || record.counter_index >= counter_count) continue;
    const size_t slot = d * counter_count + record.counter_index;
    batch_sum_[slot] += record.value;
    ++batch_count_[slot];
    CounterValue& value = view_.values[slot];
    value.timestamp_ns = std::max(value.timestamp_ns, record.timestamp_ns);
  }
  for (size_t slot = 0; slot < view_.values.size(); ++slot) {
    if (batch_count_[slot] == 0) continue;
    CounterValue& value = view_.values[slot];
    const bool delta = view_.counters[slot % counter_count].kind == CounterKind::kDelta;
    value.present = true;
    value.last = delta ? batch_sum_[slot] : batch_sum_[slot] / batch_count_[slot];
    if (delta) value.total += batch_sum_[slot];
    value.records += batch_count_[slot];
  }
}

MetricsView LatestValues::View() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return view_;
}

}  // namespace opengpa::monitor
