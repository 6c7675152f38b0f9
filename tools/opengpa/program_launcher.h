// Runs the program to profile as a child process with extra environment variables, reporting progress
// while it runs and its exit status and wall time when it ends.
//
// While it runs, SIGINT, SIGTERM, SIGHUP and SIGQUIT do not end opengpa (signal_guard.h; `opengpa profile`
// holds them longer, until its outputs are written): one sent to opengpa alone is forwarded to the program
// (Ctrl-C at a terminal already reaches both), and opengpa waits for the program to end so that what was
// collected is written. The program is started with PR_SET_PDEATHSIG = SIGKILL: if opengpa itself is killed
// (kill -9, the OOM killer), the program goes with it instead of running on unprofiled with nobody reading
// its sample stream; processes the program started itself are not covered (docs/cli.md).
#ifndef OPENGPA_TOOLS_OPENGPA_PROGRAM_LAUNCHER_H_
#define OPENGPA_TOOLS_OPENGPA_PROGRAM_LAUNCHER_H_

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace opengpa::cli {

struct ProgramResult {
  int exit_code = 0;       // the program's exit status; 128 + signal when a signal ended it
  int interrupted_by = 0;  // the last signal opengpa received while the program ran (SIGINT, ...); 0: none
  double wall_time_s = 0.0;
  int pid = 0;  // the program's process id, set as soon as it runs (on_tick may read it)
};

// `argv[0]` is looked up in PATH. `environment` entries replace (or add to) the inherited environment.
// `on_tick` runs about every 50 ms while the program runs. Its end is seen at once (a pidfd, where the kernel has
// them), not at the next tick. False and *error when it cannot start.
bool RunProgram(const std::vector<std::string>& argv, const std::map<std::string, std::string>& environment,
                const std::function<void()>& on_tick, ProgramResult* result, std::string* error);

}  // namespace opengpa::cli

#endif  // OPENGPA_TOOLS_OPENGPA_PROGRAM_LAUNCHER_H_
