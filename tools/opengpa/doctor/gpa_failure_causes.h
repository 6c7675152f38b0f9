// Why a GPA library could not be used, in words a user can act on: a library that does not load (every path
// tried, the override that chooses it, a missing CUPTI), and a GPA call that fails, classified from GPA's own
// error log (CUPTI's refusals carry their CUPTI_ERROR_* names there, src/nvidia/cupti_status.cc).
#ifndef OPENGPA_TOOLS_OPENGPA_DOCTOR_GPA_FAILURE_CAUSES_H_
#define OPENGPA_TOOLS_OPENGPA_DOCTOR_GPA_FAILURE_CAUSES_H_

#include <string>
#include <vector>

#include "probe_report.h"

namespace opengpa::doctor {

// `file_name` did not load from any of `tried`; `load_errors` is what the dynamic loader said for each.
// `chosen_by_override`: the folder came from --library-dir or $OPENGPA_LIBRARY_DIR.
Cause ExplainLibraryNotLoaded(const std::string& file_name, const std::vector<std::string>& tried,
                              const std::string& load_errors, bool chosen_by_override);

// `call` ("GpaOpenContext") returned `status_text`; `log` is GPA's error messages of the attempt.
Cause ExplainGpaFailure(const std::string& call, const std::string& status_text, const std::vector<std::string>& log);

// The fix printed when CUPTI refuses profiling to this user (ERR_NVGPUCTRPERM).
std::string ProfilingPermissionFix();

}  // namespace opengpa::doctor

#endif  // OPENGPA_TOOLS_OPENGPA_DOCTOR_GPA_FAILURE_CAUSES_H_
