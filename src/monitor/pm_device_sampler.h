// The monitor's view of PM sampling on one GPU: nvidia::PmSampler (the one implementation, shared with the CUDA
// backend's streaming sessions) with the GPU's identity, its metrics described as monitor counters, and its samples
// turned into monitor records on the Unix clock. PmSamplingSource (pm_sampling_source.cc) runs one per monitored
// GPU. Only compiled with OPENGPA_WITH_PM_SAMPLING.
//
// A HandedOverDevice: Release stops and disables PM sampling so that a profiler can take the GPU's counters, and
// Resume enables, configures and starts it again (handover_watcher.h).
#ifndef OPENGPA_MONITOR_PM_DEVICE_SAMPLER_H_
#define OPENGPA_MONITOR_PM_DEVICE_SAMPLER_H_

#include <memory>
#include <string>
#include <vector>

#include "monitor/handover_watcher.h"
#include "monitor/monitor_types.h"
#include "monitor/pm_sampling_source.h"
#include "nvidia/pm_sampler.h"
#include "nvidia/pm_sampling_pipeline.h"

namespace opengpa::monitor {

// The monitor's description of a PM sampling metric, from what CUPTI says about it on the host object's chip.
[[nodiscard]] GpaStatus DescribePmMetric(const nvidia::PmHostObject& host, const std::string& metric,
                                         CounterDescriptor* descriptor);

class PmDeviceSampler final : public HandedOverDevice {
 public:
  PmDeviceSampler(const nvidia::cupti::CuptiLibrary& cupti, const nvidia::CudaDriver& cuda, DeviceIdentity identity,
                  int ordinal);

  // Enables PM sampling on the GPU with `metrics` (checking they fit one pass) and describes them.
  [[nodiscard]] GpaStatus Configure(const PmSamplingOptions& options, const std::vector<std::string>& metrics);
  // Starts sampling (enabling and configuring it again after a Release), and the threads that decode and evaluate
  // the GPU's records (nvidia::PmSamplingPipeline).
  [[nodiscard]] GpaStatus Resume() override;
  // Appends the records evaluated since the last call.
  void Collect(std::vector<MonitorRecord>* records) override;
  // Stops, drains what is left into `records`, and disables PM sampling: the GPU's counters are free.
  [[nodiscard]] GpaStatus Release(std::vector<MonitorRecord>* records) override;

  const std::vector<CounterDescriptor>& Descriptors() const { return descriptors_; }
  const DeviceIdentity& Identity() const override { return identity_; }

 private:
  [[nodiscard]] GpaStatus MakeSampler();
  void AppendRecords(std::vector<MonitorRecord>* records);

  const nvidia::cupti::CuptiLibrary& cupti_;
  const nvidia::CudaDriver& cuda_;
  int ordinal_;
  DeviceIdentity identity_;
  nvidia::PmSamplerOptions sampler_options_;
  std::vector<std::string> metrics_;
  std::unique_ptr<nvidia::PmSampler> sampler_;  // enabled on the GPU; null while handed over
  bool started_ = false;
  std::unique_ptr<nvidia::PmSamplingPipeline> pipeline_;  // while sampling
  std::vector<CounterDescriptor> descriptors_;
  nvidia::PmSamples samples_;  // reused between collections
};

}  // namespace opengpa::monitor

#endif  // OPENGPA_MONITOR_PM_DEVICE_SAMPLER_H_
