#include "backends/vulkan/vulkan_performance_counters.h"

#include <algorithm>
#include <cctype>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "counters/catalog.h"
#include "counters/expression.h"
#include "platform/logging.h"

namespace opengpa::vulkan {
namespace {

struct UnitName {
  const char* name;
  VkPerformanceCounterUnitKHR unit;
};

// The names catalogs/drivers/vulkan_performance_query_units.json uses: the enum's suffix in lower case.
constexpr UnitName kUnitNames[] = {
    {"generic", VK_PERFORMANCE_COUNTER_UNIT_GENERIC_KHR},
    {"percentage", VK_PERFORMANCE_COUNTER_UNIT_PERCENTAGE_KHR},
    {"nanoseconds", VK_PERFORMANCE_COUNTER_UNIT_NANOSECONDS_KHR},
    {"bytes", VK_PERFORMANCE_COUNTER_UNIT_BYTES_KHR},
    {"bytes_per_second", VK_PERFORMANCE_COUNTER_UNIT_BYTES_PER_SECOND_KHR},
    {"kelvin", VK_PERFORMANCE_COUNTER_UNIT_KELVIN_KHR},
    {"watts", VK_PERFORMANCE_COUNTER_UNIT_WATTS_KHR},
    {"volts", VK_PERFORMANCE_COUNTER_UNIT_VOLTS_KHR},
    {"amps", VK_PERFORMANCE_COUNTER_UNIT_AMPS_KHR},
    {"hertz", VK_PERFORMANCE_COUNTER_UNIT_HERTZ_KHR},
    {"cycles", VK_PERFORMANCE_COUNTER_UNIT_CYCLES_KHR},
};

const char* UsageName(GpaUsageType usage) {
  switch (usage) {
    case kGpaUsageTypePercentage: return "percentage";
    case kGpaUsageTypeCycles: return "cycles";
    case kGpaUsageTypeNanoseconds: return "nanoseconds";
    case kGpaUsageTypeBytes: return "bytes";
    case kGpaUsageTypeItems: return "items";
    default: return "ratio";
  }
}

// The queue families to look in, best first: graphics families (where draws and dispatches both run), then
// compute-only ones.
std::vector<std::uint32_t> CandidateFamilies(const std::vector<VkQueueFamilyProperties>& families) {
  std::vector<std::uint32_t> order;
  for (std::uint32_t i = 0; i < families.size(); ++i) {
    if (families[i].queueFlags & VK_QUEUE_GRAPHICS_BIT) order.push_back(i);
  }
  for (std::uint32_t i = 0; i < families.size(); ++i) {
    if (!(families[i].queueFlags & VK_QUEUE_GRAPHICS_BIT) && (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT)) {
      order.push_back(i);
    }
  }
  return order;
}

std::vector<DriverCounter> CommandScopeCounters(const PerformanceQueryFunctions& functions,
                                                VkPhysicalDevice physical_device, std::uint32_t family,
                                                const std::map<std::string, VkPerformanceCounterUnitKHR>& corrections) {
  std::uint32_t count = 0;
  if (functions.EnumerateCounters(physical_device, family, &count, nullptr, nullptr) != VK_SUCCESS || count == 0) {
    return {};
  }
  std::vector<VkPerformanceCounterKHR> counters(count);
  std::vector<VkPerformanceCounterDescriptionKHR> descriptions(count);
  for (std::uint32_t i = 0; i < count; ++i) {
    counters[i].sType = VK_STRUCTURE_TYPE_PERFORMANCE_COUNTER_KHR;
    descriptions[i].sType = VK_STRUCTURE_TYPE_PERFORMANCE_COUNTER_DESCRIPTION_KHR;
  }
  const VkResult result =
      functions.EnumerateCounters(physical_device, family, &count, counters.data(), descriptions.data());
  if (result != VK_SUCCESS && result != VK_INCOMPLETE) return {};
  std::vector<DriverCounter> out;
  std::set<std::string, std::less<>> hardware_names;
  for (std::uint32_t i = 0; i < count; ++i) {
    if (counters[i].scope != VK_PERFORMANCE_COUNTER_SCOPE_COMMAND_KHR) continue;
    // Formulas name a counter by HardwareNameOf, so two driver names that map to one are told apart by keeping
    // the first.
    if (!hardware_names.insert(HardwareNameOf(descriptions[i].name)).second) {
      Log(kGpaLoggingMessage,
          "VK_KHR_performance_query counter {} (\"{}\") is left out: an earlier counter has the "
          "same formula name {}",
          i, descriptions[i].name, HardwareNameOf(descriptions[i].name));
      continue;
    }
    DriverCounter counter;
    counter.index = i;
    counter.name = descriptions[i].name;
    counter.category = descriptions[i].category;
    counter.description = descriptions[i].description;
    counter.unit = counters[i].unit;
    counter.storage = counters[i].storage;
    if (auto corrected = corrections.find(counter.name); corrected != corrections.end()) {
      counter.unit = corrected->second;
    }
    out.push_back(std::move(counter));
  }
  return out;
}

}  // namespace

std::string HardwareNameOf(std::string_view driver_name) {
  std::string name = "khr.";
  bool separator = false;
  for (char c : driver_name) {
    if (std::isalnum(static_cast<unsigned char>(c)) != 0) {
      if (separator && name.size() > 4) name += '_';
      name += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      separator = false;
    } else {
      separator = true;
    }
  }
  return name;
}

std::string PublicNameOf(std::string_view driver_name) {
  std::string name;
  bool word_start = true;
  for (char c : driver_name) {
    if (std::isalnum(static_cast<unsigned char>(c)) == 0) {
      word_start = true;
      continue;
    }
    if (name.empty() && std::isdigit(static_cast<unsigned char>(c)) != 0) name += '_';
    name += word_start ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    word_start = false;
  }
  return name;
}

GpaUsageType UsageOf(VkPerformanceCounterUnitKHR unit) {
  switch (unit) {
    case VK_PERFORMANCE_COUNTER_UNIT_GENERIC_KHR: return kGpaUsageTypeItems;
    case VK_PERFORMANCE_COUNTER_UNIT_PERCENTAGE_KHR: return kGpaUsageTypePercentage;
    case VK_PERFORMANCE_COUNTER_UNIT_NANOSECONDS_KHR: return kGpaUsageTypeNanoseconds;
    case VK_PERFORMANCE_COUNTER_UNIT_BYTES_KHR: return kGpaUsageTypeBytes;
    case VK_PERFORMANCE_COUNTER_UNIT_CYCLES_KHR: return kGpaUsageTypeCycles;
    default: return kGpaUsageTypeRatio;
  }
}

bool IsAdditive(VkPerformanceCounterUnitKHR unit) {
  switch (unit) {
    case VK_PERFORMANCE_COUNTER_UNIT_GENERIC_KHR:
    case VK_PERFORMANCE_COUNTER_UNIT_NANOSECONDS_KHR:
    case VK_PERFORMANCE_COUNTER_UNIT_BYTES_KHR:
    case VK_PERFORMANCE_COUNTER_UNIT_CYCLES_KHR: return true;
    default: return false;
  }
}

bool IsFloatingPoint(VkPerformanceCounterStorageKHR storage) {
  return storage == VK_PERFORMANCE_COUNTER_STORAGE_FLOAT32_KHR || storage == VK_PERFORMANCE_COUNTER_STORAGE_FLOAT64_KHR;
}

double ValueOf(const VkPerformanceCounterResultKHR& result, VkPerformanceCounterStorageKHR storage) {
  switch (storage) {
    case VK_PERFORMANCE_COUNTER_STORAGE_INT32_KHR: return static_cast<double>(result.int32);
    case VK_PERFORMANCE_COUNTER_STORAGE_INT64_KHR: return static_cast<double>(result.int64);
    case VK_PERFORMANCE_COUNTER_STORAGE_UINT32_KHR: return static_cast<double>(result.uint32);
    case VK_PERFORMANCE_COUNTER_STORAGE_UINT64_KHR: return static_cast<double>(result.uint64);
    case VK_PERFORMANCE_COUNTER_STORAGE_FLOAT32_KHR: return static_cast<double>(result.float32);
    case VK_PERFORMANCE_COUNTER_STORAGE_FLOAT64_KHR: return result.float64;
    default: return 0.0;
  }
}

bool ParseUnitCorrections(std::string_view json_text, UnitCorrections* out, std::string* error) {
  const nlohmann::json json = nlohmann::json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (!json.is_object() || !json.contains("drivers") || !json["drivers"].is_object()) {
    *error = "the unit corrections are not a JSON object with a \"drivers\" object";
    return false;
  }
  UnitCorrections corrections;
  for (const auto& [driver, counters] : json["drivers"].items()) {
    if (!counters.is_array()) {
      *error = "driver \"" + driver + "\": not an array of corrections";
      return false;
    }
    for (const auto& entry : counters) {
      if (!entry.is_object() || !entry.contains("counter") || !entry["counter"].is_string() ||
          !entry.contains("unit") || !entry["unit"].is_string() || !entry.contains("why") ||
          !entry["why"].is_string()) {
        *error = "driver \"" + driver + "\": each correction needs string fields counter, unit and why";
        return false;
      }
      const std::string unit = entry["unit"].get<std::string>();
      const auto* known = std::find_if(std::begin(kUnitNames), std::end(kUnitNames),
                                       [&unit](const UnitName& u) { return unit == u.name; });
      if (known == std::end(kUnitNames)) {
        *error = fmt::format(R"(driver "{}", counter "{}": unit "{}" is not a VkPerformanceCounterUnitKHR name)",
                             driver, entry["counter"].get<std::string>(), unit);
        return false;
      }
      corrections[driver][entry["counter"].get<std::string>()] = known->unit;
    }
  }
  *out = std::move(corrections);
  return true;
}

std::unique_ptr<DriverCounters> DriverCounters::Read(
    const PerformanceQueryFunctions& functions, VkPhysicalDevice physical_device,
    const std::vector<VkQueueFamilyProperties>& families,
    const std::map<std::string, VkPerformanceCounterUnitKHR>& corrections, std::string* why) {
  if (functions.EnumerateCounters == nullptr || functions.GetPasses == nullptr) {
    *why = "the instance resolves no vkEnumeratePhysicalDeviceQueueFamilyPerformanceQueryCountersKHR";
    return nullptr;
  }
  for (std::uint32_t family : CandidateFamilies(families)) {
    std::vector<DriverCounter> counters = CommandScopeCounters(functions, physical_device, family, corrections);
    if (!counters.empty()) {
      return std::make_unique<DriverCounters>(functions, physical_device, family, std::move(counters));
    }
  }
  *why = "no graphics or compute queue family has counters of scope VK_PERFORMANCE_COUNTER_SCOPE_COMMAND_KHR";
  return nullptr;
}

std::uint32_t DriverCounters::DriverPasses(const std::vector<std::uint32_t>& indices) const {
  if (indices.empty()) return 0;
  VkQueryPoolPerformanceCreateInfoKHR info{};
  info.sType = VK_STRUCTURE_TYPE_QUERY_POOL_PERFORMANCE_CREATE_INFO_KHR;
  info.queueFamilyIndex = queue_family_;
  info.counterIndexCount = static_cast<std::uint32_t>(indices.size());
  info.pCounterIndices = indices.data();
  std::uint32_t passes = 0;
  functions_.GetPasses(physical_device_, &info, &passes);
  return passes;
}

GpaStatus DriverCounters::PlanPasses(const std::vector<std::uint32_t>& indices,
                                     std::vector<std::vector<std::uint32_t>>* groups) const {
  groups->clear();
  for (std::uint32_t index : indices) {
    bool placed = false;
    for (std::vector<std::uint32_t>& group : *groups) {
      group.push_back(index);
      if (DriverPasses(group) == 1) {
        placed = true;
        break;
      }
      group.pop_back();
    }
    if (placed) continue;
    if (DriverPasses({index}) != 1) {
      const auto counter = std::find_if(counters_.begin(), counters_.end(),
                                        [index](const DriverCounter& c) { return c.index == index; });
      return LogError(kGpaStatusErrorFailed,
                      "the driver needs {} passes for its counter {} (\"{}\") alone: a GPA pass is submitted by the "
                      "application with counterPassIndex 0 only",
                      DriverPasses({index}), index, counter != counters_.end() ? counter->name : std::string("?"));
    }
    groups->push_back({index});
  }
  return kGpaStatusOk;
}

std::vector<HardwareCounterInfo> HardwareCountersOf(const std::vector<DriverCounter>& counters) {
  std::vector<HardwareCounterInfo> out;
  for (const DriverCounter& counter : counters) {
    HardwareCounterInfo info;
    info.name = HardwareNameOf(counter.name);
    info.group = counter.category;
    info.description = counter.description + " (the driver's \"" + counter.name + "\", VK_KHR_performance_query)";
    info.data_type = IsFloatingPoint(counter.storage) ? kGpaDataTypeFloat64 : kGpaDataTypeUint64;
    info.usage = UsageOf(counter.unit);
    out.push_back(std::move(info));
  }
  return out;
}

std::string PassThroughCatalog(const std::vector<DriverCounter>& counters, std::string_view mapped_catalog) {
  // Which hardware names the mapped catalog's formulas read: parse each, recording the names it asks for.
  std::set<std::string, std::less<>> read;
  Catalog catalog;
  std::string error;
  if (!mapped_catalog.empty() && ParseCatalog(mapped_catalog, &catalog, &error)) {
    for (const CounterDefinition& definition : catalog.counters) {
      Expression expression;
      Expression::Parse(
          definition.formula,
          [&read](std::string_view name) -> std::optional<Symbol> {
            read.emplace(name);
            return Symbol{};
          },
          &expression, &error);
    }
  }
  nlohmann::json entries = nlohmann::json::array();
  for (const DriverCounter& counter : counters) {
    const std::string hardware = HardwareNameOf(counter.name);
    if (read.count(hardware) != 0) continue;
    entries.push_back(
        {{"name", PublicNameOf(counter.name)},
         {"group", counter.category},
         {"type", IsFloatingPoint(counter.storage) ? "float64" : "uint64"},
         {"usage", UsageName(UsageOf(counter.unit))},
         {"description", counter.description + " (the driver's \"" + counter.name + "\", VK_KHR_performance_query)"},
         {"formula", hardware}});
  }
  return nlohmann::json{{"constants", nlohmann::json::object()}, {"counters", entries}}.dump();
}

}  // namespace opengpa::vulkan
