// process_tree.h: an orphan becomes this process's child once it is a subreaper, is listed among its running
// descendants (a grandchild too), and is reaped once it ends.
#include "process_tree.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <thread>

namespace opengpa::cli {
namespace {

bool Listed(const std::vector<std::uint32_t>& pids, pid_t pid) {
  return std::find(pids.begin(), pids.end(), static_cast<std::uint32_t>(pid)) != pids.end();
}

// Waits up to 10 s for `done`.
template <typename Done>
bool Eventually(Done done) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!done()) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return true;
}

TEST(ProcessTreeTest, AnOrphanIsAdoptedListedAndReaped) {
  ASSERT_TRUE(BecomeSubreaper());
  const auto self = static_cast<std::uint32_t>(getpid());
  int pipe_fds[2];
  ASSERT_EQ(pipe(pipe_fds), 0);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {  // starts a grandchild that sleeps, tells its pid, and exits: the grandchild is orphaned
    const pid_t grandchild = fork();
    if (grandchild == 0) {
      pause();
      _exit(0);
    }
    const ssize_t written = write(pipe_fds[1], &grandchild, sizeof grandchild);
    _exit(written == static_cast<ssize_t>(sizeof grandchild) ? 0 : 1);
  }
  close(pipe_fds[1]);
  pid_t grandchild = 0;
  ASSERT_EQ(read(pipe_fds[0], &grandchild, sizeof grandchild), static_cast<ssize_t>(sizeof grandchild));
  close(pipe_fds[0]);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);

  // The orphan is this process's child now, and runs: listed, as it would be left out were it `except`.
  EXPECT_TRUE(Eventually([&] { return Listed(RunningDescendants(self), grandchild); }));
  EXPECT_FALSE(Listed(RunningDescendants(self, static_cast<std::uint32_t>(grandchild)), grandchild));
  EXPECT_TRUE(ProcessRuns(static_cast<std::uint32_t>(grandchild)));
  EXPECT_FALSE(Listed(RunningDescendants(self), child));  // ended and reaped

  // Once it ends it is a zombie (not running, not listed) until reaped, and ReapEndedChildren reaps it.
  ASSERT_EQ(kill(grandchild, SIGKILL), 0);
  EXPECT_TRUE(Eventually([&] { return !ProcessRuns(static_cast<std::uint32_t>(grandchild)); }));
  EXPECT_FALSE(Listed(RunningDescendants(self), grandchild));
  ReapEndedChildren();
  EXPECT_EQ(waitpid(grandchild, nullptr, WNOHANG), -1);  // no such child any more: it was reaped
}

TEST(ProcessTreeTest, AProcessOutsideTheTreeIsNotADescendant) {
  // This process is no descendant of its own child, nor is init.
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    pause();
    _exit(0);
  }
  const auto self = static_cast<std::uint32_t>(getpid());
  EXPECT_FALSE(Listed(RunningDescendants(static_cast<std::uint32_t>(child)), getpid()));
  EXPECT_FALSE(Listed(RunningDescendants(self), 1));
  EXPECT_TRUE(Listed(RunningDescendants(self), child));
  kill(child, SIGKILL);
  waitpid(child, nullptr, 0);
}

}  // namespace
}  // namespace opengpa::cli
