// The doctor's verdict per API, from what its probe printed (or why it printed nothing), and the exit code of the
// whole run (docs/doctor.md):
//   0  every API present passed its checks       3  a check failed: a counter differs from its truth
//   4  an API is present but unusable             5  no API is present at all (nothing was checked)
//   (1: the doctor itself failed, e.g. its output file; 2: a usage error, as for every command)
// When both 3 and 4 apply, 4 wins: a backend that cannot be used at all is the more basic problem.
#ifndef OPENGPA_TOOLS_OPENGPA_DOCTOR_REPORT_H_
#define OPENGPA_TOOLS_OPENGPA_DOCTOR_REPORT_H_

#include <nlohmann/json.hpp>

#include <string>

#include "doctor_probe_run.h"

namespace opengpa::cli {

inline constexpr int kDoctorPassed = 0;
inline constexpr int kDoctorCheckFailed = 3;
inline constexpr int kDoctorBackendUnusable = 4;
inline constexpr int kDoctorNothingPresent = 5;

// The backend entry (docs/schema/doctor.schema.json, "backends" items) for `api` from its probe's run: the
// probe's own report when it printed one, else absent (a loader library of the API is missing) or unusable (the
// probe crashed, hung or printed something unreadable), with the cause and its fix.
nlohmann::json BackendFromProbeRun(const std::string& api, const std::string& probe_path, const ProbeRun& run);

// The entry for an API this opengpa was built without (no probe executable).
nlohmann::json BackendNotBuilt(const std::string& api, const std::string& probe_path);

int DoctorExitCode(const nlohmann::json& backends);

}  // namespace opengpa::cli

#endif  // OPENGPA_TOOLS_OPENGPA_DOCTOR_REPORT_H_
