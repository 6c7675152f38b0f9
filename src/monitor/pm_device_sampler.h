// PM sampling on one GPU: the enabled CUPTI sampler object, its config image, and the counter-data image
// its samples decode into, turned into monitor records. PmSamplingSource (pm_sampling_source.cc) runs one
// per monitored GPU. Only compiled with OPENGPA_WITH_PM_SAMPLING.
#ifndef OPENGPA_MONITOR_PM_DEVICE_SAMPLER_H_
#define OPENGPA_MONITOR_PM_DEVICE_SAMPLER_H_

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "monitor/monitor_types.h"
#include "monitor/pm_sampling_source.h"
#include "nvidia/cuda_driver.h"
#include "nvidia/cupti_pm_library.h"
#include "nvidia/pm_host_object.h"

namespace opengpa::monitor {

// How often records are decoded while sampling, whatever the monitor's tick. Measured on the H100:
// each decode costs the SM-unit counts of one sample (so not much more often), and the hardware buffer
// holds far fewer records than its size suggests (a 1 s backlog of 1 ms records overflowed 64 MiB and
// made DecodeData fail), so not much less often either.
inline constexpr std::chrono::nanoseconds kPmDecodePeriod = std::chrono::milliseconds(100);

// The monitor's description of a PM sampling metric, from what CUPTI says about it on the host object's chip.
GpaStatus DescribePmMetric(const nvidia::PmHostObject& host, const std::string& metric, CounterDescriptor* descriptor);

class PmDeviceSampler {
 public:
  PmDeviceSampler(const nvidia::cupti::CuptiLibrary& cupti, const nvidia::CudaDriverLibrary& cuda,
                  DeviceIdentity identity, int ordinal);
  ~PmDeviceSampler();
  PmDeviceSampler(const PmDeviceSampler&) = delete;
  PmDeviceSampler& operator=(const PmDeviceSampler&) = delete;

  // Checks the GPU, builds the config image of `metrics` (one pass) and enables sampling on it.
  GpaStatus Configure(const PmSamplingOptions& options, const std::vector<std::string>& metrics);
  GpaStatus Start();
  // Stops and drains what is left into `records`.
  GpaStatus Stop(std::vector<MonitorRecord>* records);
  // Decodes records from the hardware buffer; `drain` empties it (after Stop).
  GpaStatus Decode(std::vector<MonitorRecord>* records, bool drain);

  const std::vector<CounterDescriptor>& Descriptors() const { return descriptors_; }
  const DeviceIdentity& Identity() const { return identity_; }

 private:
  using CuptiLibrary = nvidia::cupti::CuptiLibrary;
  using CudaDriverLibrary = nvidia::CudaDriverLibrary;

  void MakeContextCurrent();
  GpaStatus CounterAvailability(std::vector<uint8_t>* image);
  GpaStatus Enable();
  GpaStatus ResetCounterData();
  GpaStatus Evaluate(std::vector<MonitorRecord>* records, size_t* completed);

  const CuptiLibrary& cupti_;
  const CudaDriverLibrary& cuda_;
  DeviceIdentity identity_;
  int ordinal_;
  CUdevice device_ = 0;
  CUcontext context_ = nullptr;  // retained only if enabling needed it
  std::unique_ptr<nvidia::PmHostObject> host_;
  CUpti_PmSampling_Object* sampler_ = nullptr;
  std::vector<uint8_t> config_;
  std::vector<uint8_t> counter_data_;
  std::vector<const char*> metric_names_;  // point into the source's metric strings
  std::vector<double> values_;
  std::vector<CounterDescriptor> descriptors_;
  bool started_ = false;
  int64_t epoch_offset_ns_ = 0;
  uint64_t start_cupti_ns_ = 0;
  uint64_t interval_ns_ = 0;
  uint64_t last_end_ns_ = 0;
  uint64_t covered_ns_ = 0;
  // Counted so that each kind of trouble is logged once per session, not once per decode.
  uint64_t gaps_ = 0;
  uint64_t decode_failures_ = 0;
  uint64_t overflows_ = 0;
};

}  // namespace opengpa::monitor

#endif  // OPENGPA_MONITOR_PM_DEVICE_SAMPLER_H_
