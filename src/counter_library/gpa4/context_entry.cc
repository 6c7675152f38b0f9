// GPA 4's counter-context calls: GpaCounterLibOpenCounterContext (a session sample type, no ASIC flag) and
// GpaCounterLibGetSupportedSampleTypes. GPA 4 numbers the APIs differently (OpenCL is gone, kGpaApiVulkan is
// 3), so the API is translated to v3's numbering before the library's core sees it.
#include "counter_library/gpa4/gpa4_entry_points.h"
#include "counter_library/gpa4_bridge.h"
#include "gpu_performance_api/opengpa_ext.h"
#include "platform/enum_argument.h"
#include "platform/guarded.h"

namespace opengpa::counter_library::gpa4 {
namespace {

// v3's GpaApiType values for the APIs GPA 4 and the library share (v3: ..., kGpaApiOpencl 3, kGpaApiVulkan 5).
constexpr int kV3Vulkan = 5;

enum class ApiTranslation { kOk, kNotSupported, kNotAnApi };

// `api` as a v4 client passed it (any int a C caller may put there) in v3's numbering.
ApiTranslation ToV3Api(int api, int* v3_api) {
  switch (api) {
    case kGpaApiDirectx11:
    case kGpaApiDirectx12:
    case kGpaApiOpengl: *v3_api = api; return ApiTranslation::kOk;
    case kGpaApiVulkan: *v3_api = kV3Vulkan; return ApiTranslation::kOk;
    case static_cast<int>(kGpaApiCuda): *v3_api = api; return ApiTranslation::kOk;  // OpenGPA's value, the same in both
    case kGpaApiNoSupport: return ApiTranslation::kNotSupported;
    default: return ApiTranslation::kNotAnApi;
  }
}

DeviceIds IdsOf(GpaUInt32 vendor_id, GpaUInt32 device_id, GpaUInt32 revision_id) {
  DeviceIds ids;
  ids.vendor_id = vendor_id;
  ids.device_id = device_id;
  ids.revision_id = revision_id;
  return ids;
}

// The ids and the attributes (checked: a non-zero count has an array).
DeviceIds IdsOf(const GpaCounterContextHardwareInfo& info) {
  DeviceIds ids = IdsOf(info.vendor_id, info.device_id, info.revision_id);
  for (GpaUInt32 i = 0; i < info.gpa_hardware_attribute_count; ++i) {
    const GpaHardwareAttribute& attribute = info.gpa_hardware_attributes[i];
    ids.attributes.emplace_back(EnumArgument(attribute.gpa_hardware_attribute_type),
                                attribute.gpa_hardware_attribute_value);
  }
  return ids;
}

}  // namespace

GpaStatus OpenCounterContextV4(GpaApiType api, GpaSessionSampleType sample_type,
                               GpaCounterContextHardwareInfo gpa_counter_context_hardware_info,
                               GpaOpenContextFlags context_flags, GpaCounterContext* gpa_virtual_context) {
  constexpr const char* kFunction = "GpaCounterLibOpenCounterContext";
  return opengpa::Guarded(kFunction, [&]() -> GpaStatus {
    if (gpa_virtual_context == nullptr) return opengpa::NullArgument(kFunction, "gpa_virtual_context");
    // Hiding the derived counters without enabling the hardware ones leaves nothing (AMD's documented case).
    if ((context_flags & kGpaOpenContextHideDerivedCountersBit) != 0 &&
        (context_flags & kGpaOpenContextEnableHardwareCountersBit) == 0) {
      return LogError(kGpaStatusErrorInvalidParameter,
                      "{}: context_flags 0x{:X} hide the derived counters and do not enable the hardware ones: no "
                      "counter would be exposed",
                      kFunction, context_flags);
    }
    const int type = EnumArgument(sample_type);
    if (type == kGpaSessionSampleTypeSqtt) {  // as GPA 4: a trace has no counters to list
      return LogError(kGpaStatusErrorInvalidParameter,
                      "{}: kGpaSessionSampleTypeSqtt sessions have no counters (open the context for discrete or "
                      "streaming counters)",
                      kFunction);
    }
    if (type < kGpaSessionSampleTypeDiscreteCounter || type >= kGpaSessionSampleTypeLast) {
      return LogError(kGpaStatusErrorInvalidParameter, "{}: sample_type {} is not a GpaSessionSampleType", kFunction,
                      type);
    }
    if (gpa_counter_context_hardware_info.gpa_hardware_attribute_count > 0 &&
        gpa_counter_context_hardware_info.gpa_hardware_attributes == nullptr) {
      return opengpa::NullArgument(kFunction, "gpa_hardware_attributes (with a non-zero count)");
    }
    int v3_api = 0;
    switch (ToV3Api(EnumArgument(api), &v3_api)) {
      case ApiTranslation::kOk: break;
      case ApiTranslation::kNotSupported:
        return LogError(kGpaStatusErrorApiNotSupported, "{}: api kGpaApiNoSupport names no API", kFunction);
      case ApiTranslation::kNotAnApi:
        return LogError(kGpaStatusErrorInvalidParameter, "{}: api {} is not a GPA 4 GpaApiType (nor kGpaApiCuda)",
                        kFunction, EnumArgument(api));
    }
    const GpaCounterContextHardwareInfo& info = gpa_counter_context_hardware_info;
    return OpenCounterContext(v3_api, static_cast<SampleType>(type), IdsOf(info), context_flags, gpa_virtual_context);
  });
}

GpaStatus GetSupportedSampleTypes(GpaApiType api, const GpaSupportedSampleTypeInfo* info,
                                  GpaContextSampleTypeFlags* supported_sample_types) {
  constexpr const char* kFunction = "GpaCounterLibGetSupportedSampleTypes";
  return opengpa::Guarded(kFunction, [&]() -> GpaStatus {
    // GPA 4's order: the API first (anything outside the API range is not supported), then the pointers.
    int v3_api = 0;
    if (ToV3Api(EnumArgument(api), &v3_api) != ApiTranslation::kOk) {
      return LogError(kGpaStatusErrorApiNotSupported, "{}: api {} is not an API this library serves", kFunction,
                      EnumArgument(api));
    }
    if (info == nullptr) return opengpa::NullArgument(kFunction, "info");
    if (supported_sample_types == nullptr) return opengpa::NullArgument(kFunction, "supported_sample_types");
    const int driver = EnumArgument(info->driver_info.driver_type);
    if (driver < kIgnoreDriver || driver > kAmdProprietaryDriver) {
      return LogError(kGpaStatusErrorInvalidParameter, "{}: driver_info.driver_type {} is not a GpaDriverType",
                      kFunction, driver);
    }
    // A driver version gates only AMD's own sample types; OpenGPA's devices answer the same for any driver.
    *supported_sample_types = 0;
    return SupportedSampleTypes(v3_api, IdsOf(info->vendor_id, info->device_id, info->revision_id),
                                supported_sample_types);
  });
}

}  // namespace opengpa::counter_library::gpa4
