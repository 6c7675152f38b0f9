// signal_guard.h: a signal held while no program runs is passed on to the program set next (a SIGTERM to
// `opengpa profile` during its set-up ends the program as one during its run does); one sent while a program runs
// is passed on at once.
#include "signal_guard.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

namespace opengpa::cli {
namespace {

// A child that waits for a signal with the default actions (as the program does after its exec; a fork keeps the
// held handlers), ready once this returns; it exits 0 if none comes within `seconds`.
pid_t WaitingChild(unsigned seconds = 10) {
  int ready[2];
  if (pipe(ready) != 0) return -1;
  const pid_t child = fork();
  if (child == 0) {
    signal(SIGTERM, SIG_DFL);
    signal(SIGINT, SIG_DFL);
    signal(SIGALRM, [](int) { _exit(0); });
    alarm(seconds);
    const char byte = 1;
    if (write(ready[1], &byte, 1) != 1) _exit(2);
    for (;;) pause();
  }
  close(ready[1]);
  char byte = 0;
  const bool started = child > 0 && read(ready[0], &byte, 1) == 1;
  close(ready[0]);
  return started ? child : -1;
}

int TerminatingSignal(pid_t child) {
  int status = 0;
  if (waitpid(child, &status, 0) != child) return -1;
  return WIFSIGNALED(status) ? WTERMSIG(status) : 0;
}

TEST(SignalGuardTest, ASignalBeforeTheProgramStartedIsPassedOnToIt) {
  SignalGuard::HoldUntilExit();
  const int before = SignalGuard::Received();
  ASSERT_EQ(kill(getpid(), SIGTERM), 0);  // opengpa is held: it goes on
  EXPECT_EQ(SignalGuard::Received(), before + 1);
  EXPECT_EQ(SignalGuard::Last(), SIGTERM);
  const pid_t child = WaitingChild();
  ASSERT_GT(child, 0);
  SignalGuard::SetProgram(child);
  EXPECT_EQ(TerminatingSignal(child), SIGTERM);
  SignalGuard::SetProgram(0);
}

TEST(SignalGuardTest, ASignalWhileTheProgramRunsIsPassedOnOnceAndNothingIsLeftForTheNext) {
  SignalGuard::HoldUntilExit();
  const pid_t child = WaitingChild();
  ASSERT_GT(child, 0);
  SignalGuard::SetProgram(child);
  ASSERT_EQ(kill(getpid(), SIGINT), 0);
  EXPECT_EQ(TerminatingSignal(child), SIGINT);
  SignalGuard::SetProgram(0);
  // The next program gets nothing left over: it runs until its own alarm and exits 0.
  const pid_t next = WaitingChild(1);
  ASSERT_GT(next, 0);
  SignalGuard::SetProgram(next);
  EXPECT_EQ(TerminatingSignal(next), 0);
  SignalGuard::SetProgram(0);
}

}  // namespace
}  // namespace opengpa::cli
