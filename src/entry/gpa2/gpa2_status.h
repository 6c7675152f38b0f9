// v3 statuses (what the core returns) as v2 statuses, mapped by name, never by number: the v3 enum's
// values are AMD's and may be renumbered with the v3 headers without touching the v2 face.
#ifndef OPENGPA_ENTRY_GPA2_GPA2_STATUS_H_
#define OPENGPA_ENTRY_GPA2_GPA2_STATUS_H_

#include "gpu_performance_api/gpu_perf_api_types.h"
#include "gpu_performance_api/v2/GPUPerfAPITypes.h"

namespace opengpa::gpa2 {

// The v2 status of the same name; statuses v2 has no name for (v3's command-list, session-handle and
// initialization errors) become GPA_STATUS_ERROR_FAILED.
GPA_Status FromV3Status(GpaStatus status);

// GPA_GetStatusAsStr's text: AMD's v2 wording, "Unknown Error" for anything else. An int, because a C
// caller may pass any int as a GPA_Status (platform/enum_argument.h).
const char* StatusText(int status);

}  // namespace opengpa::gpa2

#endif  // OPENGPA_ENTRY_GPA2_GPA2_STATUS_H_
