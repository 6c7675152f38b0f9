// The monitor's view of PM sampling on one GPU: nvidia::PmSampler (the one implementation, shared with the CUDA
// backend's streaming sessions) with the GPU's identity, its metrics described as monitor counters, and its samples
// turned into monitor records on the Unix clock. PmSamplingSource (pm_sampling_source.cc) runs one per monitored
// GPU. Only compiled with OPENGPA_WITH_PM_SAMPLING.
#ifndef OPENGPA_MONITOR_PM_DEVICE_SAMPLER_H_
#define OPENGPA_MONITOR_PM_DEVICE_SAMPLER_H_

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "monitor/monitor_types.h"
#include "monitor/pm_sampling_source.h"
#include "nvidia/pm_sampler.h"
#include "nvidia/pm_sampling_pipeline.h"

namespace opengpa::monitor {

using nvidia::kPmDecodePeriod;

// The monitor's description of a PM sampling metric, from what CUPTI says about it on the host object's chip.
[[nodiscard]] GpaStatus DescribePmMetric(const nvidia::PmHostObject& host, const std::string& metric,
                                         CounterDescriptor* descriptor);

class PmDeviceSampler {
 public:
  PmDeviceSampler(const nvidia::cupti::CuptiLibrary& cupti, const nvidia::CudaDriver& cuda, DeviceIdentity identity,
                  int ordinal);

  [[nodiscard]] GpaStatus Configure(const PmSamplingOptions& options, const std::vector<std::string>& metrics);
  // Starts sampling, and the threads that decode and evaluate the GPU's records (nvidia::PmSamplingPipeline).
  [[nodiscard]] GpaStatus Start();
  // Appends the records evaluated since the last call.
  void Collect(std::vector<MonitorRecord>* records);
  // Stops and drains what is left into `records`.
  [[nodiscard]] GpaStatus Stop(std::vector<MonitorRecord>* records);

  const std::vector<CounterDescriptor>& Descriptors() const { return descriptors_; }
  const DeviceIdentity& Identity() const { return identity_; }

 private:
  void AppendRecords(std::vector<MonitorRecord>* records);

  DeviceIdentity identity_;
  nvidia::PmSampler sampler_;
  std::chrono::nanoseconds decode_period_ = kPmDecodePeriod;
  std::unique_ptr<nvidia::PmSamplingPipeline> pipeline_;  // while sampling
  std::vector<CounterDescriptor> descriptors_;
  nvidia::PmSamples samples_;  // reused between collections
};

}  // namespace opengpa::monitor

#endif  // OPENGPA_MONITOR_PM_DEVICE_SAMPLER_H_
