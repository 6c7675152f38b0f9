// GPA_GetStatusAsStr, GPA_GetDataTypeAsStr, GPA_GetUsageTypeAsStr: AMD's v2 strings.
#include "entry/gpa2/gpa2_state.h"
#include "entry/gpa2/gpa2_status.h"
#include "platform/enum_argument.h"

using namespace opengpa::gpa2;
using opengpa::EnumArgument;

// Each enum argument is read as the int a C caller may have passed (platform/enum_argument.h) and
// range-checked before it is used.
const char* GPA_GetStatusAsStr(GPA_Status status) { return StatusText(EnumArgument(status)); }

GPA_Status GPA_GetDataTypeAsStr(GPA_Type counterDataType, const char** typeStr) {
  static constexpr const char* kNames[] = {"gpa_float32", "gpa_float64", "gpa_uint32",
                                           "gpa_uint64",  "gpa_int32",   "gpa_int64"};
  static_assert(sizeof(kNames) / sizeof(kNames[0]) == GPA_TYPE__LAST, "one name per GPA_Type");
  return Guarded("GPA_GetDataTypeAsStr", [&] {
    const auto value = static_cast<unsigned>(EnumArgument(counterDataType));
    if (value >= GPA_TYPE__LAST) {
      return Fail(GPA_STATUS_ERROR_NOT_FOUND, "GPA_GetDataTypeAsStr: counterDataType {} is not a GPA_Type", value);
    }
    if (typeStr == nullptr) return Fail(GPA_STATUS_ERROR_NULL_POINTER, "GPA_GetDataTypeAsStr: typeStr is NULL");
    *typeStr = kNames[value];
    return GPA_STATUS_OK;
  });
}

GPA_Status GPA_GetUsageTypeAsStr(GPA_Usage_Type counterUsageType, const char** typeStr) {
  static constexpr const char* kNames[] = {"ratio", "percentage", "cycles",   "milliseconds",
                                           "bytes", "items",      "kilobytes"};
  static_assert(sizeof(kNames) / sizeof(kNames[0]) == GPA_USAGE_TYPE__LAST, "one name per GPA_Usage_Type");
  return Guarded("GPA_GetUsageTypeAsStr", [&] {
    const auto value = static_cast<unsigned>(EnumArgument(counterUsageType));
    if (value >= GPA_USAGE_TYPE__LAST) {
      return Fail(GPA_STATUS_ERROR_NOT_FOUND, "GPA_GetUsageTypeAsStr: counterUsageType {} is not a GPA_Usage_Type",
                  value);
    }
    if (typeStr == nullptr) return Fail(GPA_STATUS_ERROR_NULL_POINTER, "GPA_GetUsageTypeAsStr: typeStr is NULL");
    *typeStr = kNames[value];
    return GPA_STATUS_OK;
  });
}
