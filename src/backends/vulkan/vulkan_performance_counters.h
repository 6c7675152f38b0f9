// The driver's own hardware counters through VK_KHR_performance_query (RADV on AMD GPUs, ANV on Intel, Turnip on
// Adreno ...): which counters one queue family offers, what GPA calls them, and how a selection splits into GPA
// passes of one driver pass each.
//
// A GPA pass is recorded and submitted by the application, which chains no VkPerformanceQuerySubmitInfoKHR to its
// vkQueueSubmit: every batch runs with counterPassIndex 0. So each GPA pass gets a query pool whose counters the
// driver collects in one pass (vkGetPhysicalDeviceQueueFamilyPerformanceQueryPassesKHR = 1), and a selection the
// driver needs n passes for becomes as many GPA passes as first fit packs it into (n for RADV's counters).
#ifndef OPENGPA_BACKENDS_VULKAN_VULKAN_PERFORMANCE_COUNTERS_H_
#define OPENGPA_BACKENDS_VULKAN_VULKAN_PERFORMANCE_COUNTERS_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "backends/vulkan/vulkan_functions.h"
#include "core/backend.h"

namespace opengpa::vulkan {

// The extension's commands: the two physical-device queries from the instance, the lock from the device (they
// resolve only when the application created the device with the extension).
struct PerformanceQueryFunctions {
  PFN_vkEnumeratePhysicalDeviceQueueFamilyPerformanceQueryCountersKHR EnumerateCounters = nullptr;
  PFN_vkGetPhysicalDeviceQueueFamilyPerformanceQueryPassesKHR GetPasses = nullptr;
  PFN_vkAcquireProfilingLockKHR AcquireProfilingLock = nullptr;
  PFN_vkReleaseProfilingLockKHR ReleaseProfilingLock = nullptr;
};

// One counter of the driver's list for the chosen queue family.
struct DriverCounter {
  std::uint32_t index = 0;  // position in the driver's list: what VkQueryPoolPerformanceCreateInfoKHR names
  std::string name;         // the driver's name ("VALU Busy")
  std::string category;
  std::string description;
  VkPerformanceCounterUnitKHR unit = VK_PERFORMANCE_COUNTER_UNIT_GENERIC_KHR;  // after the driver's corrections
  VkPerformanceCounterStorageKHR storage = VK_PERFORMANCE_COUNTER_STORAGE_UINT64_KHR;
};

// The name catalog formulas use for a driver counter: "khr." and the driver's name in lower case with every run of
// other characters made one '_' ("VALU Busy" -> "khr.valu_busy").
std::string HardwareNameOf(std::string_view driver_name);

// The name GPA offers a counter under when no catalog maps it: the driver's words joined, each begun in upper case
// ("GPU active cycles" -> "GPUActiveCycles"), as GPA names are written; "_" before a leading digit.
std::string PublicNameOf(std::string_view driver_name);

// GPA's usage for a Vulkan unit (units GPA has no usage for, such as watts or hertz, are ratios).
GpaUsageType UsageOf(VkPerformanceCounterUnitKHR unit);
// Whether values of a unit add up over the parts of a sample continued on several command lists (counts, bytes,
// cycles, time), or are averaged (percentages and the physical units).
bool IsAdditive(VkPerformanceCounterUnitKHR unit);
bool IsFloatingPoint(VkPerformanceCounterStorageKHR storage);
// A result as a double, read as the counter's storage says.
double ValueOf(const VkPerformanceCounterResultKHR& result, VkPerformanceCounterStorageKHR storage);

// Units a driver reports wrongly, keyed by driver name (VkPhysicalDeviceDriverProperties::driverName) and counter
// name: catalogs/drivers/vulkan_performance_query_units.json.
using UnitCorrections = std::map<std::string, std::map<std::string, VkPerformanceCounterUnitKHR>>;
// Parses that file; false and *error naming the entry on malformed input.
bool ParseUnitCorrections(std::string_view json_text, UnitCorrections* out, std::string* error);

class DriverCounters {
 public:
  // The counters of scope COMMAND (a GPA sample may begin anywhere in a command buffer, which the other scopes
  // forbid) of the first graphics queue family that has any, else of the first compute family. nullptr with *why
  // when there are none or the instance does not resolve the extension's queries.
  static std::unique_ptr<DriverCounters> Read(const PerformanceQueryFunctions& functions,
                                              VkPhysicalDevice physical_device,
                                              const std::vector<VkQueueFamilyProperties>& families,
                                              const std::map<std::string, VkPerformanceCounterUnitKHR>& corrections,
                                              std::string* why);

  DriverCounters(const PerformanceQueryFunctions& functions, VkPhysicalDevice physical_device,
                 std::uint32_t queue_family, std::vector<DriverCounter> counters)
      : functions_(functions),
        physical_device_(physical_device),
        queue_family_(queue_family),
        counters_(std::move(counters)) {}

  std::uint32_t queue_family() const { return queue_family_; }
  const std::vector<DriverCounter>& counters() const { return counters_; }

  // Passes the driver needs for these counters (their `index` values), as it reports them.
  std::uint32_t DriverPasses(const std::vector<std::uint32_t>& indices) const;

  // Splits `indices` into groups the driver counts in one pass each, first fit in the given order. A counter the
  // driver cannot count in one pass even alone: kGpaStatusErrorFailed, logged.
  GpaStatus PlanPasses(const std::vector<std::uint32_t>& indices,
                       std::vector<std::vector<std::uint32_t>>* groups) const;

 private:
  PerformanceQueryFunctions functions_;
  VkPhysicalDevice physical_device_;
  std::uint32_t queue_family_;
  std::vector<DriverCounter> counters_;
};

// The driver counters as hardware counters: HardwareNameOf names, the driver's category and description, GPA usage.
std::vector<HardwareCounterInfo> HardwareCountersOf(const std::vector<DriverCounter>& counters);

// A catalog (catalogs' JSON format) exposing, under the driver's own name (PublicNameOf), unit and description, every
// driver counter that no formula of `mapped_catalog` reads (those are offered under GPA's names there).
std::string PassThroughCatalog(const std::vector<DriverCounter>& counters, std::string_view mapped_catalog);

}  // namespace opengpa::vulkan

#endif  // OPENGPA_BACKENDS_VULKAN_VULKAN_PERFORMANCE_COUNTERS_H_
