// SIGINT, SIGTERM, SIGHUP and SIGQUIT while `opengpa profile` holds data it has not written yet (issue 35):
// from before the profiled program starts until the last output is written, none of them ends opengpa. Each
// is counted; one sent to opengpa alone (kill(2): SI_USER, SI_QUEUE) is passed on to the running program
// (Ctrl-C at a terminal reaches the program by itself). A second Ctrl-C, or a SIGTERM while the results are
// being written, therefore costs nothing: opengpa finishes the files, keeps the sample stream and says so.
// SIGKILL cannot be held; see program_launcher.h for what happens to the program then.
#ifndef OPENGPA_TOOLS_OPENGPA_SIGNAL_GUARD_H_
#define OPENGPA_TOOLS_OPENGPA_SIGNAL_GUARD_H_

#include <sys/types.h>

#include <csignal>
#include <iterator>

namespace opengpa::cli {

class SignalGuard {
 public:
  SignalGuard();   // installs the handlers; nested guards restore each other's
  ~SignalGuard();  // restores the handlers that were there before
  SignalGuard(const SignalGuard&) = delete;
  SignalGuard& operator=(const SignalGuard&) = delete;

  // Signals received since the process started (a count, so callers compare before and after), and the last.
  static int Received();
  static int Last();
  // The program signals sent to opengpa alone are passed on to; 0: none. A signal that arrived while no program
  // ran (held from before the program started: while PM sampling was set up, say) is passed on to the program set
  // next, whatever sent it, so that a SIGTERM to `opengpa profile` during its set-up ends the program as one during
  // its run does (seen in CI: a SIGTERM every millisecond from the start, and one run in ten exited 0, the program
  // never told).
  static void SetProgram(pid_t program);
  // Installs the handlers for the rest of the process, never restored: `opengpa profile` holds the signals until
  // it has exited, since one landing between its last output and its exit would otherwise end it with the
  // default action (measured on the H100 with SIGTERM every 5 ms: killed by it once in two runs, after the outputs
  // were whole) and turn the documented exit code 128 + signal into a death by the signal.
  static void HoldUntilExit();

 private:
  static constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
  struct sigaction previous_[std::size(kSignals)]{};
};

}  // namespace opengpa::cli

#endif  // OPENGPA_TOOLS_OPENGPA_SIGNAL_GUARD_H_
