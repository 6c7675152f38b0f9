// The NVIDIA hardware-counter source of the Vulkan and OpenGL backends: PerfWorks' GPU periodic sampler on the
// application's GPU (or, offline, a named chip). It knows which metrics one sampler pass can collect, plans a
// set of them into passes, and samples one pass at a time; where a sample begins and ends is the backend's
// business (a Vulkan engine trigger after a bottom-of-pipe timestamp, a CPU trigger after glFinish:
// docs/graphics-counters.md).
//
// Hardware counters offered: every counter metric the chip can sample in one pass, as `.sum` (additive, so a
// sample made of several sampler intervals is their sum), and every such ratio (`.pct`) and throughput
// (`.avg.pct_of_peak_sustained_elapsed`), which are averaged over those intervals weighted by their duration.
#ifndef OPENGPA_NVIDIA_GRAPHICS_COUNTER_SOURCE_H_
#define OPENGPA_NVIDIA_GRAPHICS_COUNTER_SOURCE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gpu_performance_api/gpu_perf_api_types.h"
#include "nvidia/perfworks_graphics_device.h"
#include "nvidia/perfworks_metrics.h"
#include "nvidia/perfworks_sampler.h"

namespace opengpa::nvidia {

// Whether the user switched the graphics hardware counters off (OPENGPA_GRAPHICS_HARDWARE_COUNTERS=0): every user
// of the sampler (the Vulkan and OpenGL backends, the Vulkan layer) then offers none.
bool GraphicsCountersSwitchedOff();

struct GraphicsMetric {
  perfworks::MetricDescription described;
  bool additive = true;  // a count (.sum): sums over intervals; otherwise a duration-weighted mean
};

class GraphicsCounterSource {
 public:
  // For the GPU behind a Vulkan device, or the calling thread's current EGL context. nullptr and *why (one
  // sentence: what is missing, or what holds the counters) when hardware counters cannot be had there.
  static std::unique_ptr<GraphicsCounterSource> ForVulkan(const perfworks::VulkanDeviceHandles& handles,
                                                          std::string* why);
  static std::unique_ptr<GraphicsCounterSource> ForCurrentEglContext(std::string* why);
  // For the GPU at this PCI address, for a Vulkan physical device of `vulkan_instance` that has no VkDevice yet
  // (VK_EXT_pci_bus_info's address): PerfWorks lists GPUs only once a graphics driver is loaded into it, so this loads
  // the Vulkan driver of that instance first. Before recording engine triggers on a VkDevice, check that PerfWorks
  // finds it on the same GPU (perfworks::VulkanDeviceIndex).
  static std::unique_ptr<GraphicsCounterSource> ForVulkanPciBus(void* vulkan_instance, std::uint32_t domain,
                                                                std::uint32_t bus, std::uint32_t device,
                                                                std::string* why);
  static std::unique_ptr<GraphicsCounterSource> ForCurrentGlxContext(std::string* why);
  // A chip's metrics without a GPU ("GH100"): listing and pass planning only.
  static std::unique_ptr<GraphicsCounterSource> ForChip(const std::string& chip, std::string* why);

  const std::string& Chip() const { return chip_; }
  const std::string& DeviceName() const { return device_name_; }
  bool HasDevice() const { return has_device_; }
  std::size_t DeviceIndex() const { return device_index_; }
  const std::vector<GraphicsMetric>& Metrics() const { return *metrics_; }
  const perfworks::ChipMetrics& Evaluator() const { return *chip_metrics_; }
  const perfworks::PerfWorksLibrary& Library() const { return library_; }

  // Sampler passes for `names` (metrics of Metrics()), each PassConfig::metrics indexing `names`.
  GpaStatus PlanPasses(const std::vector<std::string>& names, std::vector<perfworks::PassConfig>* passes) const;
  // Whether the sampler can close an interval every so many nanoseconds of GPU time by itself
  // (kTriggerGpuTimeInterval): what streaming sessions sample with.
  bool SamplesByTime() const { return samples_by_time_; }

  // Samples a sampling range keeps when the caller does not say: each GPA sample boundary is one, so 64K
  // boundaries per pass.
  static constexpr std::uint32_t kDefaultMaxSamples = 65536;
  // A sampler session on this device triggered by `trigger` (kTriggerEngine, kTriggerCpu, or
  // kTriggerGpuTimeInterval every `interval_ns`), sized for `passes` and `max_samples` samples a range. Warns once
  // when other processes use the GPU: the sampler counts their work too.
  GpaStatus BeginSampler(perfworks::TriggerSource trigger, const std::vector<perfworks::PassConfig>& passes,
                         std::unique_ptr<perfworks::PeriodicSampler>* out, std::uint64_t interval_ns = 0,
                         std::uint32_t max_samples = kDefaultMaxSamples) const;
  // Keeps a sampler session a GPA session is done with (stopped, decoded) for this source's next BeginSampler of
  // the same triggers: beginning one costs about half a second (its record buffer; H200, 65,536 samples), and
  // ending one a tenth, which a frame that is one GPA session each would otherwise pay every frame, the GPU idle
  // meanwhile. One is kept per GPU in the process; it ends when another trigger or a larger buffer is needed, when
  // any other source of the process begins a sampler on that GPU, or when this source (its context) is destroyed.
  // While kept, the GPU's counters stay held: another process's profiler or sampler is refused until the context
  // closes (docs/graphics-counters.md).
  void KeepSampler(std::unique_ptr<perfworks::PeriodicSampler> sampler) const;
  ~GraphicsCounterSource();

 private:
  explicit GraphicsCounterSource(const perfworks::PerfWorksLibrary& library) : library_(library) {}
  // Logs the other processes NVML sees on this GPU (the sampler counts their work too).
  void WarnAboutOtherProcesses() const;
  static std::unique_ptr<GraphicsCounterSource> ForDevice(const perfworks::PerfWorksLibrary& library, std::size_t index,
                                                          std::string* why);
  // The GPU of the calling thread's current GL context, found by `device_index` (EGL's or GLX's).
  static std::unique_ptr<GraphicsCounterSource> ForCurrentGlContext(
      bool (*device_index)(const perfworks::PerfWorksLibrary&, std::size_t*, std::string*), std::string* why);

  const perfworks::PerfWorksLibrary& library_;
  bool has_device_ = false;
  bool samples_by_time_ = false;
  std::size_t device_index_ = 0;
  std::string chip_;
  std::string device_name_;
  std::unique_ptr<perfworks::ChipMetrics> chip_metrics_;
  std::shared_ptr<const std::vector<GraphicsMetric>> metrics_;  // shared by every source of the same chip
};

}  // namespace opengpa::nvidia

#endif  // OPENGPA_NVIDIA_GRAPHICS_COUNTER_SOURCE_H_
