// A counter source for testing the monitor's plumbing (sampler, ring buffer, latest values, callback):
// each Poll emits the poll's number as a gauge and 1.0 as a delta on each device, so every value a test
// sees has a known origin. It stands in for NVML/CUPTI only in tests; nothing reports its values as
// measurements.
#ifndef OPENGPA_TESTS_REALTIME_SCRIPTED_COUNTER_SOURCE_H_
#define OPENGPA_TESTS_REALTIME_SCRIPTED_COUNTER_SOURCE_H_

#include <atomic>
#include <chrono>
#include <string>
#include <vector>

#include "monitor/counter_source.h"

namespace opengpa::monitor::testing {

class ScriptedCounterSource final : public CounterSource {
 public:
  explicit ScriptedCounterSource(std::string prefix, std::vector<uint32_t> devices = {0}) : prefix_(std::move(prefix)) {
    counters_ = {{prefix_ + "_poll_number", "the poll's number", "items", CounterKind::kGauge, CounterOrigin::kTest},
                 {prefix_ + "_polls", "one per poll", "items", CounterKind::kDelta, CounterOrigin::kTest}};
    for (uint32_t index : devices) devices_.push_back({index, "GPU-test-" + std::to_string(index), "Test GPU"});
  }

  std::string_view Name() const override { return prefix_; }
  const std::vector<CounterDescriptor>& Counters() const override { return counters_; }
  const std::vector<DeviceIdentity>& Devices() const override { return devices_; }
  size_t RecordsPerTick(std::chrono::milliseconds /*tick*/) const override {
    return counters_.size() * devices_.size() * burst;
  }

  GpaStatus Start() override {
    ++starts;
    return start_status;
  }
  GpaStatus Poll(std::vector<MonitorRecord>* records) override {
    const uint64_t number = ++polls;
    Emit(static_cast<double>(number), records);
    return kGpaStatusOk;
  }
  // Stop hands over one last batch, as PM sampling does with its final decode.
  GpaStatus Stop(std::vector<MonitorRecord>* records) override {
    ++stops;
    Emit(-1.0, records);
    return kGpaStatusOk;
  }

  std::atomic<uint64_t> polls{0};
  std::atomic<int> starts{0};
  std::atomic<int> stops{0};
  GpaStatus start_status = kGpaStatusOk;
  // Readings per counter and device in each batch: a source that samples faster than it is polled (PM sampling).
  size_t burst = 1;

 private:
  void Emit(double gauge, std::vector<MonitorRecord>* records) {
    const uint64_t now = static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
            .count());
    for (const DeviceIdentity& device : devices_) {
      for (size_t reading = 0; reading < burst; ++reading) {
        records->push_back({now, 0, device.index, 0, gauge});
        records->push_back({now, 1000, device.index, 1, 1.0});
      }
    }
  }

  std::string prefix_;
  std::vector<CounterDescriptor> counters_;
  std::vector<DeviceIdentity> devices_;
};

}  // namespace opengpa::monitor::testing

#endif  // OPENGPA_TESTS_REALTIME_SCRIPTED_COUNTER_SOURCE_H_
