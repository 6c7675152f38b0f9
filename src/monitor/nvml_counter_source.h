// Device-level counters read through NVML at each sampler tick: utilisation, clocks, power, temperature,
// PCIe throughput, memory and energy. Works for any process's work on the GPU (NVML sees the device).
#ifndef OPENGPA_MONITOR_NVML_COUNTER_SOURCE_H_
#define OPENGPA_MONITOR_NVML_COUNTER_SOURCE_H_

#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "monitor/counter_source.h"
#include "nvidia/nvml_library.h"

namespace opengpa::monitor {

struct NvmlSourceOptions {
  std::vector<uint32_t> device_indices;         // NVML indices; empty: every device NVML reports
  std::vector<std::string> counter_names;       // empty: every counter the devices support
  std::vector<std::string> library_candidates;  // empty: nvidia::nvml::DefaultLibraryCandidates()
};

// Every counter this source knows, whether or not NVML is present (for --list-counters and name checks).
const std::vector<CounterDescriptor>& NvmlCounterCatalog();
bool IsNvmlCounterName(std::string_view name);

class NvmlCounterSource final : public CounterSource {
 public:
  // Loads NVML, opens the devices and checks each counter once on each device. A counter named in
  // options that a device does not support fails with kGpaStatusErrorHardwareNotSupported; with no names
  // given, unsupported counters are left out (and logged).
  [[nodiscard]] static GpaStatus Create(const NvmlSourceOptions& options, std::unique_ptr<NvmlCounterSource>* source);

  struct Counter;  // a catalog entry: descriptor plus how to read it
  struct Device {
    DeviceIdentity identity;
    nvidia::nvml::Device handle = nullptr;
    double last_energy_joules = 0.0;
    std::chrono::system_clock::time_point last_energy_time;
  };
  NvmlCounterSource(std::unique_ptr<nvidia::nvml::Library> library, std::vector<Device> devices,
                    std::vector<const Counter*> counters);

  std::string_view Name() const override { return "nvml"; }
  const std::vector<CounterDescriptor>& Counters() const override { return descriptors_; }
  const std::vector<DeviceIdentity>& Devices() const override { return identities_; }
  [[nodiscard]] GpaStatus Start() override;
  [[nodiscard]] GpaStatus Poll(std::vector<MonitorRecord>* records) override;
  [[nodiscard]] GpaStatus Stop(std::vector<MonitorRecord>* records) override;

 private:
  std::unique_ptr<nvidia::nvml::Library> library_;
  std::vector<Device> devices_;
  std::vector<const Counter*> counters_;
  std::vector<CounterDescriptor> descriptors_;
  std::vector<DeviceIdentity> identities_;
  std::vector<bool> read_failure_logged_;  // [device * counters + counter]: log a failing read once
};

}  // namespace opengpa::monitor

#endif  // OPENGPA_MONITOR_NVML_COUNTER_SOURCE_H_
