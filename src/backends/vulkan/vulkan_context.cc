#include "backends/vulkan/vulkan_context.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <string>

#include "backends/common/sampled_stream_session.h"
#include "backends/common/timing_pass.h"
#include "backends/vulkan/vulkan_session.h"
#include "platform/logging.h"

namespace opengpa::embedded {
extern const char vulkan_catalog[];
extern const char kNvidiaGraphicsCatalog[];
extern const char kRadvCatalog[];
extern const char kVulkanPerformanceQueryUnits[];
}  // namespace opengpa::embedded

namespace opengpa::vulkan {
namespace {

const void* Handle(const void* handle) { return handle; }

// The physical device must be one the instance enumerates: it catches open-info members that do not belong
// together before any call is made on the device.
GpaStatus CheckPhysicalDeviceBelongsToInstance(const InstanceFunctions& functions, const GpaVkContextOpenInfo& info) {
  std::uint32_t count = 0;
  VkResult result = functions.EnumeratePhysicalDevices(info.instance, &count, nullptr);
  std::vector<VkPhysicalDevice> devices(count);
  if (result == VK_SUCCESS && count > 0) {
    result = functions.EnumeratePhysicalDevices(info.instance, &count, devices.data());
  }
  if (result != VK_SUCCESS && result != VK_INCOMPLETE) {
    return LogError(kGpaStatusErrorFailed,
                    "vkEnumeratePhysicalDevices on GpaVkContextOpenInfo::instance {} failed "
                    "with VkResult {}",
                    Handle(info.instance), static_cast<int>(result));
  }
  if (std::find(devices.begin(), devices.end(), info.physical_device) == devices.end()) {
    return LogError(kGpaStatusErrorInvalidParameter,
                    "GpaVkContextOpenInfo::physical_device {} is not one of the {} physical devices of "
                    "GpaVkContextOpenInfo::instance {}",
                    Handle(info.physical_device), count, Handle(info.instance));
  }
  return kGpaStatusOk;
}

struct OptionalDeviceFacts {
  std::string driver_name;
  bool host_query_reset_known = false;
  bool host_query_reset = false;
};

OptionalDeviceFacts QueryOptionalFacts(const InstanceFunctions& functions, VkPhysicalDevice physical_device,
                                       std::uint32_t api_version) {
  OptionalDeviceFacts facts;
  if (functions.GetPhysicalDeviceProperties2 != nullptr && api_version >= VK_API_VERSION_1_2) {
    VkPhysicalDeviceDriverProperties driver{};
    driver.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES;
    VkPhysicalDeviceProperties2 properties{};
    properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
    properties.pNext = &driver;
    functions.GetPhysicalDeviceProperties2(physical_device, &properties);
    facts.driver_name = driver.driverName;
  }
  if (functions.GetPhysicalDeviceFeatures2 != nullptr) {
    VkPhysicalDeviceHostQueryResetFeatures reset{};
    reset.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_QUERY_RESET_FEATURES;
    VkPhysicalDeviceFeatures2 features{};
    features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
    features.pNext = &reset;
    functions.GetPhysicalDeviceFeatures2(physical_device, &features);
    facts.host_query_reset_known = true;
    facts.host_query_reset = reset.hostQueryReset == VK_TRUE;
  }
  return facts;
}

// vkGetCalibratedTimestampsEXT is usable for a session time origin only if the application enabled the
// extension (the entry point resolves) and the device can calibrate its own time domain.
bool DeviceTimeDomainCalibratable(const InstanceFunctions& instance_functions, const DeviceFunctions& device_functions,
                                  VkPhysicalDevice physical_device) {
  if (device_functions.GetCalibratedTimestampsEXT == nullptr ||
      instance_functions.GetPhysicalDeviceCalibrateableTimeDomainsEXT == nullptr) {
    return false;
  }
  std::uint32_t count = 0;
  if (instance_functions.GetPhysicalDeviceCalibrateableTimeDomainsEXT(physical_device, &count, nullptr) != VK_SUCCESS) {
    return false;
  }
  std::vector<VkTimeDomainEXT> domains(count);
  if (instance_functions.GetPhysicalDeviceCalibrateableTimeDomainsEXT(physical_device, &count, domains.data()) !=
      VK_SUCCESS) {
    return false;
  }
  return std::find(domains.begin(), domains.end(), VK_TIME_DOMAIN_DEVICE_EXT) != domains.end();
}

constexpr std::uint32_t kNvidiaVendorId = 0x10de;

// How long the context waits for the profiling lock: another profiler holding it for longer is reported, not waited
// out.
constexpr std::uint64_t kProfilingLockTimeoutNs = 1'000'000'000;

// GPA's names for a driver's VK_KHR_performance_query counters, by VkPhysicalDeviceDriverProperties::driverName.
std::string_view DriverCatalogOf(const std::string& driver_name) {
  if (driver_name == "radv") return embedded::kRadvCatalog;
  return {};
}

std::map<std::string, VkPerformanceCounterUnitKHR> UnitCorrectionsOf(const std::string& driver_name) {
  UnitCorrections corrections;
  std::string error;
  if (!ParseUnitCorrections(embedded::kVulkanPerformanceQueryUnits, &corrections, &error)) {
    Log(kGpaLoggingError, "catalogs/drivers/vulkan_performance_query_units.json: {}", error);
    return {};
  }
  auto found = corrections.find(driver_name);
  return found != corrections.end() ? found->second : std::map<std::string, VkPerformanceCounterUnitKHR>{};
}

bool OffersExtension(const InstanceFunctions& functions, VkPhysicalDevice physical_device, const char* name) {
  if (functions.EnumerateDeviceExtensionProperties == nullptr) return false;
  std::uint32_t count = 0;
  if (functions.EnumerateDeviceExtensionProperties(physical_device, nullptr, &count, nullptr) != VK_SUCCESS) {
    return false;
  }
  std::vector<VkExtensionProperties> extensions(count);
  if (functions.EnumerateDeviceExtensionProperties(physical_device, nullptr, &count, extensions.data()) != VK_SUCCESS) {
    return false;
  }
  return std::any_of(extensions.begin(), extensions.end(),
                     [name](const VkExtensionProperties& e) { return std::string(e.extensionName) == name; });
}

// NVIDIA's GPU periodic sampler for this device, or nullptr and *why.
std::unique_ptr<nvidia::GraphicsCounterSource> OpenSamplerSource(const VkPhysicalDeviceProperties& properties,
                                                                 const GpaVkContextOpenInfo& info,
                                                                 PFN_vkGetInstanceProcAddr get_instance_proc_addr,
                                                                 PFN_vkGetDeviceProcAddr get_device_proc_addr,
                                                                 std::string* why_not) {
  std::string& why = *why_not;
  if (nvidia::GraphicsCountersSwitchedOff()) {
    why = "OPENGPA_GRAPHICS_HARDWARE_COUNTERS=0";
  } else if (properties.vendorID != kNvidiaVendorId) {
    why = "not an NVIDIA GPU (NVIDIA's GPU periodic sampler)";
  } else {
    nvidia::perfworks::VulkanDeviceHandles handles{info.instance, info.physical_device, info.device,
                                                   reinterpret_cast<void*>(get_instance_proc_addr),
                                                   reinterpret_cast<void*>(get_device_proc_addr)};
    auto source = nvidia::GraphicsCounterSource::ForVulkan(handles, &why);
    if (source != nullptr) {
      Log(kGpaLoggingMessage, "{}: {} hardware counters of PerfWorks' GPU periodic sampler on {} (PerfWorks device {})",
          properties.deviceName, source->Metrics().size(), source->Chip(), source->DeviceIndex());
      return source;
    }
  }
  return nullptr;
}

}  // namespace

VulkanContext::~VulkanContext() {
  if (profiling_lock_) performance_functions_.ReleaseProfilingLock(handles_.device);
}

std::string VulkanContext::OpenDriverCounters(PFN_vkGetInstanceProcAddr get_instance_proc_addr,
                                              const VkPhysicalDeviceProperties& properties,
                                              const std::vector<VkQueueFamilyProperties>& families,
                                              const std::string& driver_name) {
  if (nvidia::GraphicsCountersSwitchedOff()) return "OPENGPA_GRAPHICS_HARDWARE_COUNTERS=0";
  PerformanceQueryFunctions& f = performance_functions_;
  f.EnumerateCounters = reinterpret_cast<PFN_vkEnumeratePhysicalDeviceQueueFamilyPerformanceQueryCountersKHR>(
      get_instance_proc_addr(handles_.instance, "vkEnumeratePhysicalDeviceQueueFamilyPerformanceQueryCountersKHR"));
  f.GetPasses = reinterpret_cast<PFN_vkGetPhysicalDeviceQueueFamilyPerformanceQueryPassesKHR>(
      get_instance_proc_addr(handles_.instance, "vkGetPhysicalDeviceQueueFamilyPerformanceQueryPassesKHR"));
  // The loader resolves these only for a device created with the extension: the one way to know it is enabled.
  f.AcquireProfilingLock = reinterpret_cast<PFN_vkAcquireProfilingLockKHR>(
      instance_functions_.GetDeviceProcAddr(handles_.device, "vkAcquireProfilingLockKHR"));
  f.ReleaseProfilingLock = reinterpret_cast<PFN_vkReleaseProfilingLockKHR>(
      instance_functions_.GetDeviceProcAddr(handles_.device, "vkReleaseProfilingLockKHR"));
  const bool offered =
      OffersExtension(instance_functions_, handles_.physical_device, VK_KHR_PERFORMANCE_QUERY_EXTENSION_NAME);
  if (f.AcquireProfilingLock == nullptr || f.ReleaseProfilingLock == nullptr) {
    if (offered) {
      return "the driver offers VK_KHR_performance_query, but the device was not created with it: enable the "
             "extension and its performanceCounterQueryPools feature (docs/vulkan-driver-counters.md) to count the "
             "driver's hardware "
             "counters";
    }
    return "the driver offers no VK_KHR_performance_query";
  }
  VkPhysicalDevicePerformanceQueryFeaturesKHR performance{};
  performance.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PERFORMANCE_QUERY_FEATURES_KHR;
  if (instance_functions_.GetPhysicalDeviceFeatures2 != nullptr) {
    VkPhysicalDeviceFeatures2 features{};
    features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
    features.pNext = &performance;
    instance_functions_.GetPhysicalDeviceFeatures2(handles_.physical_device, &features);
  }
  if (performance.performanceCounterQueryPools != VK_TRUE) {
    return "VK_KHR_performance_query is enabled, but the device supports no performanceCounterQueryPools";
  }
  std::string why;
  auto counters = DriverCounters::Read(f, handles_.physical_device, families, UnitCorrectionsOf(driver_name), &why);
  if (counters == nullptr) return "no VK_KHR_performance_query counters: " + why;
  // Held until the context closes: the extension wants the lock taken before any command buffer that will use a
  // performance query begins recording, and GPA's command lists are begun inside command buffers already recording.
  VkAcquireProfilingLockInfoKHR lock{};
  lock.sType = VK_STRUCTURE_TYPE_ACQUIRE_PROFILING_LOCK_INFO_KHR;
  lock.timeout = kProfilingLockTimeoutNs;
  if (const VkResult result = f.AcquireProfilingLock(handles_.device, &lock); result != VK_SUCCESS) {
    return fmt::format("vkAcquireProfilingLockKHR failed with VkResult {} (another profiler holds the lock?)",
                       static_cast<int>(result));
  }
  profiling_lock_ = true;
  multiple_query_pools_ = performance.performanceCounterMultipleQueryPools == VK_TRUE;
  driver_catalog_ = DriverCatalogOf(driver_name);
  pass_through_catalog_ = PassThroughCatalog(counters->counters(), driver_catalog_);
  AddDriverCounters(counters->counters(), &counters_);
  Log(kGpaLoggingMessage,
      "{}: {} hardware counters of the driver ({}) through VK_KHR_performance_query, queue family {}{}",
      properties.deviceName, counters->counters().size(), driver_name, counters->queue_family(),
      driver_catalog_.empty() ? ", under the driver's names" : ", under GPA's names where catalogs/ maps them");
  driver_counters_ = std::move(counters);
  return "";
}

GpaStatus VulkanContext::Open(PFN_vkGetInstanceProcAddr get_instance_proc_addr, const GpaVkContextOpenInfo& info,
                              std::unique_ptr<BackendContext>* out, PFN_vkGetDeviceProcAddr get_device_proc_addr) {
  if (info.instance == VK_NULL_HANDLE) {
    return LogError(kGpaStatusErrorNullPointer, "GpaVkContextOpenInfo::instance is VK_NULL_HANDLE");
  }
  if (info.physical_device == VK_NULL_HANDLE) {
    return LogError(kGpaStatusErrorNullPointer, "GpaVkContextOpenInfo::physical_device is VK_NULL_HANDLE");
  }
  if (info.device == VK_NULL_HANDLE) {
    return LogError(kGpaStatusErrorNullPointer, "GpaVkContextOpenInfo::device is VK_NULL_HANDLE");
  }
  auto context = std::make_unique<VulkanContext>();
  context->handles_ = info;
  GpaStatus status = LoadInstanceFunctions(get_instance_proc_addr, info.instance, &context->instance_functions_);
  if (status != kGpaStatusOk) return status;
  const InstanceFunctions& f = context->instance_functions_;
  status = CheckPhysicalDeviceBelongsToInstance(f, info);
  if (status != kGpaStatusOk) return status;

  VkPhysicalDeviceProperties properties{};
  f.GetPhysicalDeviceProperties(info.physical_device, &properties);
  VkPhysicalDeviceFeatures features{};
  f.GetPhysicalDeviceFeatures(info.physical_device, &features);
  std::uint32_t family_count = 0;
  f.GetPhysicalDeviceQueueFamilyProperties(info.physical_device, &family_count, nullptr);
  std::vector<VkQueueFamilyProperties> families(family_count);
  f.GetPhysicalDeviceQueueFamilyProperties(info.physical_device, &family_count, families.data());
  const OptionalDeviceFacts facts = QueryOptionalFacts(f, info.physical_device, properties.apiVersion);

  if (facts.host_query_reset_known && !facts.host_query_reset) {
    return LogError(kGpaStatusErrorDriverNotSupported,
                    "{} does not support hostQueryReset, which OpenGPA needs to reset its query pools",
                    properties.deviceName);
  }
  if (get_device_proc_addr != nullptr) context->instance_functions_.GetDeviceProcAddr = get_device_proc_addr;
  status = LoadDeviceFunctions(f, info.device, &context->device_functions_);
  if (status != kGpaStatusOk) return status;

  context->device_info_ = DescribeDevice(properties, facts.driver_name);
  context->timestamps_ = TimestampsOf(properties, families);
  context->calibrated_timestamps_ = DeviceTimeDomainCalibratable(f, context->device_functions_, info.physical_device);
  context->gpa_interface_ =
      LoadGpaInterfaceFunctions(f, info.physical_device, info.device, &context->gpa_interface_functions_);
  if (context->gpa_interface_) {
    Log(kGpaLoggingMessage, "{}: samples are recorded through VK_AMD_gpa_interface (VK_LAYER_OPENGPA_gpa_interface)",
        properties.deviceName);
  }

  MeasurementCapabilities capabilities;
  capabilities.timestamps = context->timestamps_.valid_bits > 0;
  capabilities.statistics = SupportedStatistics(features);
  if (!capabilities.timestamps && capabilities.statistics == 0) {
    return LogError(kGpaStatusErrorHardwareNotSupported,
                    "{} offers neither timestamps on a graphics/compute queue nor pipelineStatisticsQuery: "
                    "nothing to measure",
                    properties.deviceName);
  }
  if (capabilities.statistics == 0) {
    Log(kGpaLoggingMessage, "{} lacks pipelineStatisticsQuery: only timing counters are offered",
        properties.deviceName);
  }
  context->counters_ = BuildHardwareCounters(capabilities);
  context->supported_statistics_ = capabilities.statistics;
  std::string no_sampler;
  context->sampler_source_ = OpenSamplerSource(properties, info, get_instance_proc_addr,
                                               context->instance_functions_.GetDeviceProcAddr, &no_sampler);
  if (context->sampler_source_ != nullptr) {
    AddSampledMetrics(context->sampler_source_->Metrics(), &context->counters_);
  } else if (const std::string no_driver_counters =
                 context->OpenDriverCounters(get_instance_proc_addr, properties, families, facts.driver_name);
             !no_driver_counters.empty()) {
    Log(kGpaLoggingMessage, "{}: no hardware counters, only timestamps and pipeline statistics: {}; {}",
        properties.deviceName, no_sampler, no_driver_counters);
  }
  for (const VulkanHardwareCounter& counter : context->counters_) context->counter_infos_.push_back(counter.info);
  Log(kGpaLoggingMessage,
      "Vulkan context on {} (vendor 0x{:x}, device 0x{:x}, API {}.{}): {} hardware counters, timestamps {} bits "
      "at {} ns/tick{}; pipelineStatisticsQuery must be enabled on the device for the statistics",
      properties.deviceName, properties.vendorID, properties.deviceID, VK_API_VERSION_MAJOR(properties.apiVersion),
      VK_API_VERSION_MINOR(properties.apiVersion), context->counters_.size(), context->timestamps_.valid_bits,
      context->timestamps_.period_ns,
      context->calibrated_timestamps_ ? ", session time origin from VK_EXT_calibrated_timestamps" : "");
  *out = std::move(context);
  return kGpaStatusOk;
}

// The sampler's catalog first: where both define a counter (PSPixelsIn, VSVerticesIn, CSThreads) the hardware's
// definition is the one exposed.
// Likewise the driver's counters: GPA's names for them, then the rest under the driver's names.
std::vector<std::string_view> VulkanContext::DerivedCatalogs() const {
  if (sampler_source_ != nullptr) return {embedded::kNvidiaGraphicsCatalog, embedded::vulkan_catalog};
  if (driver_counters_ != nullptr) {
    std::vector<std::string_view> catalogs;
    if (!driver_catalog_.empty()) catalogs.push_back(driver_catalog_);
    catalogs.push_back(pass_through_catalog_);
    catalogs.emplace_back(embedded::vulkan_catalog);
    return catalogs;
  }
  return {embedded::vulkan_catalog};
}

std::vector<std::pair<std::string, double>> VulkanContext::Constants() const {
  return {{"TIMESTAMP_PERIOD_NS", timestamps_.period_ns},
          {"TIMESTAMP_VALID_BITS", static_cast<double>(timestamps_.valid_bits)}};
}

GpaStatus VulkanContext::CheckCounters(const std::vector<HardwareCounterIndex>& counters) const {
  for (HardwareCounterIndex index : counters) {
    if (index >= counters_.size()) {
      return LogError(kGpaStatusErrorIndexOutOfRange, "hardware counter index {} >= {} Vulkan hardware counters", index,
                      counters_.size());
    }
  }
  return kGpaStatusOk;
}

GpaStatus VulkanContext::PlanSampledPasses(const std::vector<HardwareCounterIndex>& counters,
                                           std::vector<std::string>* names, std::vector<bool>* additive,
                                           std::vector<nvidia::perfworks::PassConfig>* passes) const {
  for (HardwareCounterIndex index : counters) {
    if (counters_[index].source != CounterSource::kSampledMetric) continue;
    names->push_back(counters_[index].info.name);
    additive->push_back(counters_[index].additive);
  }
  if (names->empty()) return kGpaStatusOk;
  return sampler_source_->PlanPasses(*names, passes);
}

GpaStatus VulkanContext::PlanPerformanceQueries(const std::vector<HardwareCounterIndex>& counters,
                                                std::vector<PerformanceQuerySet>* passes) const {
  passes->clear();
  std::vector<std::uint32_t> indices;
  for (HardwareCounterIndex index : counters) {
    if (counters_[index].source == CounterSource::kPerformanceQuery) indices.push_back(counters_[index].driver_index);
  }
  if (indices.empty()) return kGpaStatusOk;
  std::vector<std::vector<std::uint32_t>> groups;
  if (GpaStatus status = driver_counters_->PlanPasses(indices, &groups); status != kGpaStatusOk) return status;
  for (std::vector<std::uint32_t>& group : groups) {
    PerformanceQuerySet set;
    set.queue_family = driver_counters_->queue_family();
    set.multiple_pools = multiple_query_pools_;
    for (std::uint32_t index : group) {
      const auto& all = driver_counters_->counters();
      set.storages.push_back(
          std::find_if(all.begin(), all.end(), [index](const DriverCounter& c) { return c.index == index; })->storage);
    }
    set.counter_indices = std::move(group);
    passes->push_back(std::move(set));
  }
  return kGpaStatusOk;
}

GpaStatus VulkanContext::CountPasses(const std::vector<HardwareCounterIndex>& counters, GpaUInt32* passes) {
  GpaStatus status = CheckCounters(counters);
  if (status != kGpaStatusOk) return status;
  // Timestamps and every pipeline statistic are written by independent queries of one recording; the sampler's
  // metrics take as many passes as PerfWorks needs to configure them one sampler pass at a time (and then the
  // timing counters one more: backends/common/timing_pass.h), the driver's counters as many as it needs to count
  // them one driver pass at a time.
  std::vector<std::string> names;
  std::vector<bool> additive;
  std::vector<nvidia::perfworks::PassConfig> plan;
  status = PlanSampledPasses(counters, &names, &additive, &plan);
  if (status != kGpaStatusOk) return status;
  std::vector<PerformanceQuerySet> performance;
  status = PlanPerformanceQueries(counters, &performance);
  if (status != kGpaStatusOk) return status;
  *passes = PassesWithTimingPass(static_cast<GpaUInt32>(plan.size()), static_cast<GpaUInt32>(performance.size()),
                                 HoldsTimingCounter(counters_, counters));
  return kGpaStatusOk;
}

GpaContextSampleTypeFlags VulkanContext::SupportedSampleTypes() const {
  const bool streams = sampler_source_ != nullptr && sampler_source_->SamplesByTime();
  return kGpaContextSampleTypeDiscreteCounter | (streams ? kGpaContextSampleTypeStreamingCounter : 0);
}

GpaStatus VulkanContext::PlanStream(const std::vector<HardwareCounterIndex>& counters, StreamPlan* plan) const {
  if (GpaStatus status = CheckCounters(counters); status != kGpaStatusOk) return status;
  std::string not_sampled;
  for (HardwareCounterIndex index : counters) {
    if (counters_[index].source != CounterSource::kSampledMetric && not_sampled.empty()) {
      not_sampled = counters_[index].info.name;
    }
  }
  if (sampler_source_ != nullptr && not_sampled.empty()) {
    if (GpaStatus status = PlanSampledPasses(counters, &plan->names, &plan->additive, &plan->passes);
        status != kGpaStatusOk) {
      return status;
    }
  }
  return CheckSampledStreamable(sampler_source_.get(), "Vulkan", not_sampled, plan->names.size(), plan->passes.size());
}

GpaStatus VulkanContext::CheckStreamable(const std::vector<HardwareCounterIndex>& counters) {
  StreamPlan plan;
  return PlanStream(counters, &plan);
}

GpaStatus VulkanContext::CreateSession(int type, const std::vector<HardwareCounterIndex>& counters,
                                       std::unique_ptr<BackendSession>* out) {
  if (type == kGpaSessionSampleTypeStreamingCounter &&
      (SupportedSampleTypes() & kGpaContextSampleTypeStreamingCounter)) {
    StreamPlan plan;
    if (GpaStatus status = PlanStream(counters, &plan); status != kGpaStatusOk) return status;
    return CreateSampledStreamSession(*sampler_source_, "Vulkan", std::move(plan), out);
  }
  if (type != kGpaSessionSampleTypeDiscreteCounter) {
    return LogError(
        kGpaStatusErrorIncompatibleSampleTypes, "sample_type {} is not supported by the Vulkan backend{}",
        static_cast<int>(type),
        SupportedSampleTypes() & kGpaContextSampleTypeStreamingCounter
            ? ": only kGpaSessionSampleTypeDiscreteCounter and kGpaSessionSampleTypeStreamingCounter"
            : ": only kGpaSessionSampleTypeDiscreteCounter (streaming needs NVIDIA's GPU periodic sampler)");
  }
  GpaStatus status = CheckCounters(counters);
  if (status != kGpaStatusOk) return status;
  SessionSetup setup;
  setup.functions = &device_functions_;
  setup.device = handles_.device;
  for (HardwareCounterIndex index : counters) setup.counters.push_back(counters_[index]);
  setup.timestamp_mask = timestamps_.mask();
  setup.timestamp_period_ns = timestamps_.period_ns;
  setup.calibrated_timestamps = calibrated_timestamps_;
  setup.gpa_interface = gpa_interface_ ? &gpa_interface_functions_ : nullptr;
  setup.supported_statistics = supported_statistics_;
  status = PlanPerformanceQueries(counters, &setup.performance);
  if (status != kGpaStatusOk) return status;
  if (sampler_source_ != nullptr) {
    std::vector<std::string> names;
    std::vector<bool> additive;
    std::vector<nvidia::perfworks::PassConfig> plan;
    status = PlanSampledPasses(counters, &names, &additive, &plan);
    if (status != kGpaStatusOk) return status;
    if (!names.empty()) {
      setup.sampler = sampler_source_.get();
      setup.sampled = std::make_shared<nvidia::SampledPasses>(*sampler_source_, nvidia::perfworks::kTriggerEngine,
                                                              std::move(names), std::move(additive), std::move(plan));
    }
  }
  *out = std::make_unique<VulkanSession>(std::move(setup));
  return kGpaStatusOk;
}

}  // namespace opengpa::vulkan
