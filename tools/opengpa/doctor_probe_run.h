// Runs one of the doctor's probe executables (tools/opengpa/doctor) as a child process and keeps what it printed:
// a probe that cannot start (a missing loader library), crashes inside a driver or hangs on a device then ends that
// probe only, and `opengpa doctor` reports it with the probe's own words.
#ifndef OPENGPA_TOOLS_OPENGPA_DOCTOR_PROBE_RUN_H_
#define OPENGPA_TOOLS_OPENGPA_DOCTOR_PROBE_RUN_H_

#include <string>
#include <vector>

namespace opengpa::cli {

struct ProbeRun {
  bool started = false;  // false: the executable could not be run at all (start_error says why)
  std::string start_error;
  int exit_code = -1;      // when it exited
  int signal = 0;          // when a signal ended it
  bool timed_out = false;  // killed after the time limit
  std::string out;
  std::string err;
  double seconds = 0;
};

// Runs `argv` (argv[0] is the executable's path), killing it after `timeout_seconds`.
ProbeRun RunProbeProcess(const std::vector<std::string>& argv, double timeout_seconds);

}  // namespace opengpa::cli

#endif  // OPENGPA_TOOLS_OPENGPA_DOCTOR_PROBE_RUN_H_
