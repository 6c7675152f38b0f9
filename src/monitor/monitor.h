// A real-time monitor: counter sources (NVML, CUPTI PM sampling) polled by one sampler thread at a fixed
// interval while applications run, without replay. Records go to a bounded ring buffer (Read), to an
// optional callback, and to the latest-values table that the OpenMetrics endpoint and the live table show.
#ifndef OPENGPA_MONITOR_MONITOR_H_
#define OPENGPA_MONITOR_MONITOR_H_

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "monitor/counter_source.h"
#include "monitor/latest_values.h"
#include "monitor/periodic_sampler.h"
#include "monitor/record_ring_buffer.h"

namespace opengpa::monitor {

struct MonitorOptions {
  std::vector<uint32_t> device_indices;  // empty: every GPU
  // Counter names: NVML counters (NvmlCounterCatalog), GPM counters (GpmCounterCatalog), CUPTI metric names
  // ("sm__cycles_active.avg"), "nvml" for every NVML counter, "gpm" for every GPM counter, "pm" for
  // DefaultPmMetrics(). Empty: {"nvml", "gpm"}, GPM left out (with a message) where the driver or a GPU lacks it.
  std::vector<std::string> counters;
  std::chrono::milliseconds interval{1000};  // sampler tick: NVML reads, PM decodes
  uint64_t pm_interval_ns = 1'000'000;       // hardware interval of PM sampling
  size_t pm_hardware_buffer_bytes = 0;       // 0: PmSamplingOptions' default
  size_t record_capacity = size_t{1} << 18;
  std::vector<std::string> nvml_library_candidates;   // empty: defaults (see nvml_library.h)
  std::vector<std::string> cupti_library_candidates;  // empty: defaults (see cupti_pm_library.h)
  std::vector<std::string> cuda_library_candidates;
  // Labels on every series of the metrics endpoint besides the GPU's own; nullopt: DiscoverSeriesLabels (host,
  // Slurm job, Kubernetes pod, $OPENGPA_MONITOR_LABELS).
  std::optional<SeriesLabels> labels;
  // Called on the sampler thread with each tick's records, after they are in the ring buffer.
  std::function<void(const MonitorRecord*, size_t)> on_records;
};

constexpr std::chrono::milliseconds kMinimumInterval{10};
constexpr std::chrono::milliseconds kMaximumInterval{3600 * 1000};

class Monitor {
 public:
  [[nodiscard]] static GpaStatus Create(const MonitorOptions& options, std::unique_ptr<Monitor>* monitor);
  // With sources made by the caller (tests; embedders with their own source).
  [[nodiscard]] static GpaStatus CreateWithSources(const MonitorOptions& options,
                                                   std::vector<std::unique_ptr<CounterSource>> sources,
                                                   std::unique_ptr<Monitor>* monitor);

  Monitor(const MonitorOptions& options, std::vector<std::unique_ptr<CounterSource>> sources);
  ~Monitor();
  Monitor(const Monitor&) = delete;
  Monitor& operator=(const Monitor&) = delete;

  // Every source's counters, in order; MonitorRecord::counter_index indexes this list.
  const std::vector<CounterDescriptor>& Counters() const { return counters_; }
  const std::vector<DeviceIdentity>& Devices() const { return devices_; }
  std::chrono::milliseconds Interval() const { return interval_; }

  [[nodiscard]] GpaStatus Start();  // kGpaStatusErrorSessionAlreadyStarted when running
  [[nodiscard]] GpaStatus Stop();   // kGpaStatusErrorSessionNotStarted when not running; drains every source
  bool Running() const;

  size_t Read(MonitorRecord* records, size_t capacity) { return ring_.Read(records, capacity); }
  uint64_t DroppedRecords() const { return ring_.Dropped(); }
  MetricsView Metrics() const { return latest_->View(); }

 private:
  void Tick();
  void Publish(std::vector<MonitorRecord>& batch);  // ring, latest values, callback

  struct Slot {
    std::unique_ptr<CounterSource> source;
    uint32_t counter_offset = 0;
  };
  std::vector<Slot> slots_;
  std::vector<CounterDescriptor> counters_;
  std::vector<DeviceIdentity> devices_;
  std::chrono::milliseconds interval_;
  std::function<void(const MonitorRecord*, size_t)> on_records_;
  RecordRingBuffer ring_;
  std::unique_ptr<LatestValues> latest_;
  mutable std::mutex control_mutex_;  // Start/Stop against each other; the sampler owns the sources meanwhile
  std::unique_ptr<PeriodicSampler> sampler_;
  std::vector<MonitorRecord> scratch_;  // sampler thread only
};

}  // namespace opengpa::monitor

#endif  // OPENGPA_MONITOR_MONITOR_H_
