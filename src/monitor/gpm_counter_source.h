// The GPU's own activity counters through NVML's GPM (GPU Performance Monitoring, Hopper and newer): SM activity
// and occupancy, tensor and FP pipe activity, DRAM bandwidth use, PCIe and NVLink traffic. Each tick takes a GPM
// sample of every GPU and reports the metrics NVML computes between it and the GPU's previous sample.
//
// Why a source of its own beside CUPTI PM sampling: GPM runs beside profilers. Measured on the H100 (issue 29):
// 124 GPM samples every 200 ms, 0 errors, while ncu profiled the same GPU, where PM sampling and any profiler
// exclude each other (CUPTI_ERROR_HARDWARE_BUSY). So the monitor's default set has GPM wherever the GPUs support
// it, and PM sampling only on request (docs/realtime.md "Sources").
#ifndef OPENGPA_MONITOR_GPM_COUNTER_SOURCE_H_
#define OPENGPA_MONITOR_GPM_COUNTER_SOURCE_H_

#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "monitor/counter_source.h"
#include "nvidia/nvml_library.h"

namespace opengpa::monitor {

// NVML's reference asks for samples some time apart; a tick closer to the previous sample than this takes none
// (its values come with the next tick), so a 10 ms monitor interval still gives GPM values every 100 ms.
constexpr std::chrono::milliseconds kGpmMinimumSampleGap{100};

struct GpmSourceOptions {
  std::vector<uint32_t> device_indices;         // NVML indices; empty: every device NVML reports
  std::vector<std::string> counter_names;       // empty: every GPM counter
  std::vector<std::string> library_candidates;  // empty: nvidia::nvml::DefaultLibraryCandidates()
  // True for the monitor's default set: a driver or GPU without GPM leaves the source out with a message
  // (not an error log); Create still returns the status saying why.
  bool optional = false;
};

// Every GPM counter this source knows, whether or not NVML is present (for --list-counters and name checks).
const std::vector<CounterDescriptor>& GpmCounterCatalog();
bool IsGpmCounterName(std::string_view name);

class GpmCounterSource final : public CounterSource {
 public:
  // Loads NVML and checks that it exports GPM and that every GPU asked for supports it:
  // kGpaStatusErrorDriverNotSupported (no GPM functions), kGpaStatusErrorHardwareNotSupported (a GPU without
  // GPM, e.g. before Hopper), kGpaStatusErrorCounterNotFound (a name that is no GPM counter).
  [[nodiscard]] static GpaStatus Create(const GpmSourceOptions& options, std::unique_ptr<GpmCounterSource>* source);

  struct Counter;  // a catalog entry: descriptor, NVML metric id, scale
  struct Device {
    DeviceIdentity identity;
    nvidia::nvml::Device handle = nullptr;
    nvidia::nvml::GpmSample previous = nullptr;  // the sample the next tick's metrics start from
    nvidia::nvml::GpmSample current = nullptr;
    bool has_previous = false;
    std::chrono::system_clock::time_point previous_time;
  };
  GpmCounterSource(std::unique_ptr<nvidia::nvml::Library> library, std::vector<Device> devices,
                   std::vector<const Counter*> counters);
  ~GpmCounterSource() override;
  GpmCounterSource(const GpmCounterSource&) = delete;
  GpmCounterSource& operator=(const GpmCounterSource&) = delete;

  std::string_view Name() const override { return "nvml_gpm"; }
  const std::vector<CounterDescriptor>& Counters() const override { return descriptors_; }
  const std::vector<DeviceIdentity>& Devices() const override { return identities_; }
  [[nodiscard]] GpaStatus Start() override;
  [[nodiscard]] GpaStatus Poll(std::vector<MonitorRecord>* records) override;
  [[nodiscard]] GpaStatus Stop(std::vector<MonitorRecord>* records) override;

  // Ticks that found a GPU's metrics (one per GPU and tick), and failed NVML calls, since Start.
  uint64_t Samples() const { return samples_; }
  uint64_t Errors() const { return errors_; }

 private:
  [[nodiscard]] bool TakeSample(Device& device, nvidia::nvml::GpmSample sample, size_t device_slot);

  std::unique_ptr<nvidia::nvml::Library> library_;
  std::vector<Device> devices_;
  std::vector<const Counter*> counters_;
  std::vector<CounterDescriptor> descriptors_;
  std::vector<DeviceIdentity> identities_;
  std::vector<bool> failure_logged_;  // [device * (counters + 1) + counter]; the last slot of a device: its sample
  uint64_t samples_ = 0;
  uint64_t errors_ = 0;
};

}  // namespace opengpa::monitor

#endif  // OPENGPA_MONITOR_GPM_COUNTER_SOURCE_H_
