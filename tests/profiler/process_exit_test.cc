// FatalSignalHold (src/profiler/process_exit.h): a fatal signal that lands while the profiler writes its last
// batch at exit ends the process after that batch, not in the middle of it; signals the program handles itself
// are left to it. Each case runs in a child process, which the signal is meant to end.
#include "profiler/process_exit.h"

#include <sys/wait.h>
#include <unistd.h>

#include <csignal>

#include <gtest/gtest.h>

namespace opengpa::inject_cuda {
namespace {

// Runs `body` in a child; returns its wait status. The child writes one byte to `written` when `body` returns.
template <typename Body>
int RunChild(Body body, bool* wrote) {
  int pipe_ends[2];
  if (pipe(pipe_ends) != 0) return -1;
  const pid_t child = fork();
  if (child == 0) {
    close(pipe_ends[0]);
    body();
    const char done = 'x';
    static_cast<void>(write(pipe_ends[1], &done, 1));
    _exit(0);
  }
  close(pipe_ends[1]);
  char byte = 0;
  *wrote = read(pipe_ends[0], &byte, 1) == 1;
  close(pipe_ends[0]);
  int status = 0;
  waitpid(child, &status, 0);
  return status;
}

TEST(FatalSignalHoldTest, ASignalDuringTheHoldEndsTheProcessWhenTheHoldEnds) {
  int pipe_ends[2];
  ASSERT_EQ(pipe(pipe_ends), 0);
  const pid_t child = fork();
  if (child == 0) {
    close(pipe_ends[0]);
    std::signal(SIGTERM, SIG_DFL);
    {
      FatalSignalHold hold;
      raise(SIGTERM);  // without the hold the process would end here
      const char during = 'h';
      static_cast<void>(write(pipe_ends[1], &during, 1));
    }
    const char after = 'a';  // never written: the held SIGTERM ended the process
    static_cast<void>(write(pipe_ends[1], &after, 1));
    _exit(0);
  }
  close(pipe_ends[1]);
  char bytes[2] = {};
  const ssize_t count = read(pipe_ends[0], bytes, 2);
  close(pipe_ends[0]);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_EQ(count, 1);
  EXPECT_EQ(bytes[0], 'h');
  ASSERT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(WTERMSIG(status), SIGTERM);
}

TEST(FatalSignalHoldTest, WithoutASignalNothingHappens) {
  bool wrote = false;
  const int status = RunChild([] { FatalSignalHold hold; }, &wrote);
  EXPECT_TRUE(wrote);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

volatile std::sig_atomic_t program_handler_calls = 0;
void ProgramHandler(int) { program_handler_calls = program_handler_calls + 1; }

TEST(FatalSignalHoldTest, LeavesSignalsTheProgramHandlesOrIgnoresToIt) {
  bool wrote = false;
  const int status = RunChild(
      [] {
        std::signal(SIGINT, &ProgramHandler);
        std::signal(SIGTERM, SIG_IGN);
        {
          FatalSignalHold hold;
          raise(SIGINT);
          raise(SIGTERM);
          if (program_handler_calls != 1) _exit(3);  // the program's own handler ran at once
        }
        if (program_handler_calls != 1) _exit(4);
      },
      &wrote);
  EXPECT_TRUE(wrote);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

}  // namespace
}  // namespace opengpa::inject_cuda
