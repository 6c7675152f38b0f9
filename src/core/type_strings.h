// Text for GPA enums: what GpaGetStatusAsStr, GpaGetDataTypeAsStr and GpaGetUsageTypeAsStr return, and the
// enumerator names log messages quote.
#ifndef OPENGPA_CORE_TYPE_STRINGS_H_
#define OPENGPA_CORE_TYPE_STRINGS_H_

#include "gpu_performance_api/gpu_perf_api_types.h"

namespace opengpa {

// Never null: unknown values give "Unknown Status" (>= 0) or "Unknown Error" (< 0).
const char* StatusAsString(GpaStatus status);
// nullptr for values outside the enum.
const char* DataTypeAsString(GpaDataType type);
const char* UsageTypeAsString(GpaUsageType type);
// "kGpaCommandListPrimary", ...; "invalid" for values outside the enum.
const char* CommandListTypeName(GpaCommandListType type);

}  // namespace opengpa

#endif  // OPENGPA_CORE_TYPE_STRINGS_H_
