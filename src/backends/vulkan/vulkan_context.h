// A GPA context on the application's Vulkan device: what it can measure and the sessions that measure it.
#ifndef OPENGPA_BACKENDS_VULKAN_VULKAN_CONTEXT_H_
#define OPENGPA_BACKENDS_VULKAN_VULKAN_CONTEXT_H_

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "backends/common/sampled_stream_session.h"
#include "backends/vulkan/vulkan_device_description.h"
#include "backends/vulkan/vulkan_functions.h"
#include "backends/vulkan/vulkan_hardware_counters.h"
#include "backends/vulkan/vulkan_performance_counters.h"
#include "backends/vulkan/vulkan_performance_queries.h"
#include "core/backend.h"
#include "gpu_performance_api/gpu_perf_api_vk.h"

namespace opengpa::vulkan {

class VulkanContext final : public BackendContext {
 public:
  // Checks `open_info` (naming the bad member in the log) and what the device offers. Device functions are
  // resolved through `get_device_proc_addr` when given (GpaVkContextOpenInfo2), else the instance's.
  static GpaStatus Open(PFN_vkGetInstanceProcAddr get_instance_proc_addr, const GpaVkContextOpenInfo& open_info,
                        std::unique_ptr<BackendContext>* out, PFN_vkGetDeviceProcAddr get_device_proc_addr = nullptr);

  VulkanContext() = default;  // use Open()
  ~VulkanContext() override;  // releases the profiling lock, if it was taken

  const DeviceInfo& Device() const override { return device_info_; }
  // Streaming (GPA 4's GpaSpm*) where the GPU periodic sampler samples this device by time
  // (backends/common/sampled_stream_session.h).
  GpaContextSampleTypeFlags SupportedSampleTypes() const override;
  GpaStatus CheckStreamable(const std::vector<HardwareCounterIndex>& counters) override;
  const std::vector<HardwareCounterInfo>& HardwareCounters() const override { return counter_infos_; }
  std::vector<std::string_view> DerivedCatalogs() const override;
  std::vector<std::pair<std::string, double>> Constants() const override;
  GpaStatus CountPasses(const std::vector<HardwareCounterIndex>& counters, GpaUInt32* passes) override;
  GpaStatus CreateSession(int type, const std::vector<HardwareCounterIndex>& counters,
                          std::unique_ptr<BackendSession>* out) override;

 private:
  GpaStatus CheckCounters(const std::vector<HardwareCounterIndex>& counters) const;
  // A streaming set's plan, checked (CheckSampledStreamable): what CheckStreamable asks and CreateSession uses.
  GpaStatus PlanStream(const std::vector<HardwareCounterIndex>& counters, StreamPlan* plan) const;
  // The sampler's metrics among `counters` and their passes (none without the sampler).
  GpaStatus PlanSampledPasses(const std::vector<HardwareCounterIndex>& counters, std::vector<std::string>* names,
                              std::vector<bool>* additive, std::vector<nvidia::perfworks::PassConfig>* passes) const;
  // The query set of each GPA pass for the driver's VK_KHR_performance_query counters among `counters`.
  GpaStatus PlanPerformanceQueries(const std::vector<HardwareCounterIndex>& counters,
                                   std::vector<PerformanceQuerySet>* passes) const;
  // Takes the profiling lock and reads the driver's counters where the application created its device with
  // VK_KHR_performance_query; otherwise returns why there are none ("" when there are).
  std::string OpenDriverCounters(PFN_vkGetInstanceProcAddr get_instance_proc_addr,
                                 const VkPhysicalDeviceProperties& properties,
                                 const std::vector<VkQueueFamilyProperties>& families, const std::string& driver_name);

  GpaVkContextOpenInfo handles_{};
  InstanceFunctions instance_functions_;
  DeviceFunctions device_functions_;
  DeviceInfo device_info_;
  TimestampCapabilities timestamps_;
  bool calibrated_timestamps_ = false;
  VkQueryPipelineStatisticFlags supported_statistics_ = 0;  // what pipeline-statistics queries may count here
  bool gpa_interface_ = false;  // samples go through VK_AMD_gpa_interface (OpenGPA's layer is on the device)
  GpaInterfaceFunctions gpa_interface_functions_;
  std::unique_ptr<nvidia::GraphicsCounterSource> sampler_source_;  // NVIDIA's GPU periodic sampler, where usable
  // The driver's VK_KHR_performance_query counters, where the device was created with the extension.
  PerformanceQueryFunctions performance_functions_;
  std::unique_ptr<DriverCounters> driver_counters_;
  bool profiling_lock_ = false;  // held from Open to the destructor
  bool multiple_query_pools_ = false;
  std::string_view driver_catalog_;   // GPA's names for this driver's counters (catalogs/<driver>.json), if any
  std::string pass_through_catalog_;  // the rest of its counters under the driver's names
  std::vector<VulkanHardwareCounter> counters_;
  std::vector<HardwareCounterInfo> counter_infos_;
};

}  // namespace opengpa::vulkan

#endif  // OPENGPA_BACKENDS_VULKAN_VULKAN_CONTEXT_H_
