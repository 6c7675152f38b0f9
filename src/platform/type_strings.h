// Text for GPA enums: what GpaGetStatusAsStr, GpaGetDataTypeAsStr and GpaGetUsageTypeAsStr return, and the
// enumerator names log messages quote.
#ifndef OPENGPA_PLATFORM_TYPE_STRINGS_H_
#define OPENGPA_PLATFORM_TYPE_STRINGS_H_

#include "gpu_performance_api/gpu_perf_api_types.h"

namespace opengpa {

// Each takes the enum's value as an int, as a C caller may pass any int: converting one outside the
// enum's range to the C++ enum type first would be undefined.
// Never null: unknown values give "Unknown Status" (>= 0) or "Unknown Error" (< 0).
const char* StatusAsString(int status);
// nullptr for values outside the enum.
const char* DataTypeAsString(int type);
const char* UsageTypeAsString(int type);
// A hardware generation for people: "NVIDIA", "AMD GFX 10.3", "software (CPU)" (opengpa_ext.h's
// kGpaHwGenerationSoftware, 256), "unknown"; never null.
const char* HwGenerationName(int generation);
// "kGpaCommandListPrimary", ...; "invalid" for values outside the enum.
const char* CommandListTypeName(GpaCommandListType type);

}  // namespace opengpa

#endif  // OPENGPA_PLATFORM_TYPE_STRINGS_H_
