#include "counter_library/mali_configuration.h"

#include <string>

#include "gpu_performance_api/opengpa_counters_ext.h"
#include "platform/enum_argument.h"
#include "platform/logging.h"

namespace opengpa::counter_library {

std::vector<std::pair<std::string, double>> MaliConfiguration::Constants() const {
  return {{"MALI_CONFIG_SHADER_CORE_COUNT", shader_cores},
          {"MALI_CONFIG_L2_CACHE_COUNT", l2_slices},
          {"MALI_CONFIG_EXT_BUS_BYTE_SIZE", ext_bus_bytes}};
}

GpaStatus ReadMaliConfiguration(const char* function, const GpaCounterContextHardwareInfo& info,
                                MaliConfiguration* out) {
  struct Setting {
    int type;
    const char* attribute;
    GpaUInt32* value;
    bool given = false;
  };
  Setting settings[] = {
      {kGpaHardwareAttributeNumComputeUnits, "kGpaHardwareAttributeNumComputeUnits", &out->shader_cores},
      {EnumArgument(kGpaHardwareAttributeL2SliceCount), "kGpaHardwareAttributeL2SliceCount", &out->l2_slices},
      {EnumArgument(kGpaHardwareAttributeExternalBusBytes), "kGpaHardwareAttributeExternalBusBytes",
       &out->ext_bus_bytes},
  };
  for (GpaUInt32 i = 0; i < info.gpa_hardware_attribute_count; ++i) {
    const GpaHardwareAttribute& attribute = info.gpa_hardware_attributes[i];
    // The type is read as the int a C caller wrote (platform/enum_argument.h): any value is safe to compare.
    const int type = EnumArgument(attribute.gpa_hardware_attribute_type);
    for (Setting& setting : settings) {
      if (setting.type != type) continue;
      if (attribute.gpa_hardware_attribute_value == 0) {
        return LogError(kGpaStatusErrorInvalidParameter,
                        "{}: gpa_hardware_attributes[{}]: {} is 0; a Mali GPU has at least one", function, i,
                        setting.attribute);
      }
      *setting.value = attribute.gpa_hardware_attribute_value;
      setting.given = true;
    }
  }
  std::string defaults;
  for (const Setting& setting : settings) {
    if (setting.given) continue;
    if (!defaults.empty()) defaults += ", ";
    defaults += fmt::format("{} = {}", setting.attribute, *setting.value);
  }
  if (!defaults.empty()) {
    Log(kGpaLoggingMessage, "{}: Mali configuration not given, using the defaults {} (docs/arm-mali.md)", function,
        defaults);
  }
  return kGpaStatusOk;
}

}  // namespace opengpa::counter_library
