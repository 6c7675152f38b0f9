// The injected profiler's last batch at the end of the process. Launches are decoded in batches, so the end of
// the process has work left: the open batches are decoded and the stream's end record written (FinishInjection).
// Two ways of ending would lose that work, and this file closes them:
//  - CPython, ended by an uncaught KeyboardInterrupt (Ctrl-C, the common way to stop a Python program), finalizes
//    the interpreter and then kills itself with SIGINT at its default action, so that its parent sees a death by
//    SIGINT: exit() is never reached and std::atexit handlers never run. Py_AtExit's handlers do run, at the end
//    of interpreter finalization, before that.
//  - A SIGINT, SIGTERM, SIGHUP or SIGQUIT with its default action (CPython restores the defaults while it
//    finalizes) that lands while the last batch is decoded (0.75 s on the H100 with the L2 flush) ends the
//    process in the middle of it. Such a signal is held until the end record is written, then raised again.
#ifndef OPENGPA_PROFILER_PROCESS_EXIT_H_
#define OPENGPA_PROFILER_PROCESS_EXIT_H_

#include <signal.h>

#include <csignal>
#include <iterator>
#include <string>

namespace opengpa::inject_cuda {

// Calls `finish` when the process ends: from exit() and, when the process is a Python interpreter (its
// executable is python*), also from Py_FinalizeEx (whichever comes first; `finish` must tolerate a second call).
// Only the interpreter itself gets the Python hook: a program that embeds Python may finalize it and go on.
// Returns what the sample stream should say when the Python hook could not be added; empty otherwise.
std::string CallAtProcessExit(void (*finish)());

// While alive, each of kSignals whose action is the default (end the process) is caught instead and remembered;
// the destructor restores the actions and raises the first one caught, which then ends the process as it would
// have. Signals the program handles or ignores are left alone. One hold at a time (the at-exit path).
class FatalSignalHold {
 public:
  FatalSignalHold();
  ~FatalSignalHold();
  FatalSignalHold(const FatalSignalHold&) = delete;
  FatalSignalHold& operator=(const FatalSignalHold&) = delete;

 private:
  static constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
  struct sigaction previous_[std::size(kSignals)]{};
  bool installed_[std::size(kSignals)]{};
};

}  // namespace opengpa::inject_cuda

#endif  // OPENGPA_PROFILER_PROCESS_EXIT_H_
