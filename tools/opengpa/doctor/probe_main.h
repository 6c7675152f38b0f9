// What every probe's main() shares: its arguments (as `opengpa doctor` passes them), timing, turning an
// exception escaping the probe into a cause, and printing the report as one JSON object on stdout. The probe
// itself only finds its driver, runs its workload and compares (<api>_probe.cc).
//
//   opengpa-doctor-<api> [--quick] [--verbose] [--library-dir DIR | --folder DIR ...]
#ifndef OPENGPA_TOOLS_OPENGPA_DOCTOR_PROBE_MAIN_H_
#define OPENGPA_TOOLS_OPENGPA_DOCTOR_PROBE_MAIN_H_

#include <functional>
#include <string>

#include "probe_gpa_library.h"
#include "probe_report.h"

namespace opengpa::doctor {

struct ProbeOptions {
  bool quick = false;  // only the fastest check of each kind (docs/doctor.md says which)
  GpaSearch search;
};

using Probe = std::function<void(const ProbeOptions& options, ProbeReport& report)>;

// Exit code 0 whatever the verdict (the report carries it), 2 for arguments it does not know.
int RunProbe(int argc, char** argv, const std::string& api, const Probe& probe);

}  // namespace opengpa::doctor

#endif  // OPENGPA_TOOLS_OPENGPA_DOCTOR_PROBE_MAIN_H_
