// Turns on a GPU between processes (src/profiler/gpu_turns.h), with real processes (fork) and real locks in a
// temporary folder: no GPU is involved, only the files the injected library of each process locks.
#include "profiler/gpu_turns.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>

namespace opengpa::profiling {
namespace {

class GpuTurnsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/opengpa-turns-test-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    folder_ = pattern;
  }
  void TearDown() override { static_cast<void>(std::system(("rm -rf '" + folder_ + "'").c_str())); }
  std::string folder_;
};

// Runs `child` in a forked process; its exit code.
template <typename Function>
pid_t Fork(Function child) {
  const pid_t pid = fork();
  if (pid == 0) _exit(child());
  return pid;
}

int ExitCodeOf(pid_t pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 100;
}

TEST_F(GpuTurnsTest, WithoutAFolderEveryTurnIsGrantedAndNothingWaits) {
  GpuTurns turns("", std::chrono::milliseconds(0));
  std::string error;
  EXPECT_FALSE(turns.Coordinated());
  EXPECT_TRUE(turns.Acquire("GPU-a", &error));
  EXPECT_TRUE(turns.Wanted().empty());
}

TEST_F(GpuTurnsTest, AWaiterThatIsNeverHandedTheGpuGivesUpNamingTheHolder) {
  GpuTurns turns(folder_, std::chrono::milliseconds(0));
  std::string error;
  ASSERT_TRUE(turns.Acquire("GPU-a", &error)) << error;
  const std::string holder = std::to_string(getpid());
  const pid_t child = Fork([this, holder] {
    GpuTurns mine(folder_, std::chrono::milliseconds(200));
    std::string why;
    if (mine.Acquire("GPU-a", &why)) return 1;  // the parent holds it
    if (why.find("process " + holder) == std::string::npos || why.find("GPU-a") == std::string::npos) return 2;
    return mine.Acquire("GPU-b", &why) ? 0 : 3;  // another GPU is free
  });
  EXPECT_EQ(ExitCodeOf(child), 0);
}

TEST_F(GpuTurnsTest, TheHolderSeesAWaiterOnlyAfterItsMinimumHoldAndTheWaiterGetsTheGpuOnceReleased) {
  GpuTurns turns(folder_, std::chrono::milliseconds(0));
  std::string error;
  ASSERT_TRUE(turns.Acquire("GPU-a", &error)) << error;
  ASSERT_TRUE(turns.Acquire("GPU-a", &error)) << error;  // counted: a second context of the process
  EXPECT_TRUE(turns.Wanted().empty()) << "nobody waits yet";
  const pid_t child = Fork([this] {
    GpuTurns mine(folder_, std::chrono::seconds(20));
    std::string why;
    return mine.Acquire("GPU-a", &why) ? 0 : 1;
  });
  // The waiter announces itself; the holder sees it once it has held the GPU for kMinimumHold.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (turns.Wanted().empty() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_EQ(turns.Wanted(), std::vector<std::string>{"GPU-a"});
  turns.Release("GPU-a");
  EXPECT_TRUE(turns.HoldsAny()) << "one Release per Acquire: still held";
  turns.Release("GPU-a");
  EXPECT_FALSE(turns.HoldsAny());
  EXPECT_EQ(ExitCodeOf(child), 0);
  // The waiter exited: its turn went with it, so the GPU is free again.
  EXPECT_TRUE(turns.Acquire("GPU-a", &error)) << error;
}

TEST_F(GpuTurnsTest, AfterHandingTheGpuOverTheHolderLetsTheWaiterGoFirst) {
  GpuTurns turns(folder_, std::chrono::seconds(20));
  std::string error;
  ASSERT_TRUE(turns.Acquire("GPU-a", &error)) << error;
  const pid_t child = Fork([this] {
    GpuTurns mine(folder_, std::chrono::seconds(20));
    std::string why;
    if (!mine.Acquire("GPU-a", &why)) return 1;
    std::this_thread::sleep_for(std::chrono::milliseconds(300));  // its launches, then it exits (the turn goes)
    return 0;
  });
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (turns.Wanted().empty() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  turns.Release("GPU-a");
  turns.Yield("GPU-a");
  // Taken back at once, it would return now; it returns only once the waiter had its turn and let it go.
  const auto asked = std::chrono::steady_clock::now();
  ASSERT_TRUE(turns.Acquire("GPU-a", &error)) << error;
  EXPECT_GE(std::chrono::steady_clock::now() - asked, std::chrono::milliseconds(250));
  EXPECT_EQ(ExitCodeOf(child), 0);
  EXPECT_EQ(turns.waits(), 1u);
}

// A rank of a job that waits longer than the timeout is not hung: it gives up naming the holder's pid and rank, and
// never waits for that GPU again (a holder whose collective waits for this rank would cost the wait at every launch).
TEST_F(GpuTurnsTest, ARankThatWaitsPastTheTimeoutNamesTheHoldersRankAndNeverWaitsForThatGpuAgain) {
  setenv("RANK", "3", 1);  // the holder's rank, as torchrun sets it
  GpuTurns turns(folder_, std::chrono::milliseconds(0));
  std::string error;
  ASSERT_TRUE(turns.Acquire("GPU-a", &error)) << error;
  unsetenv("RANK");
  const std::string holder = "process " + std::to_string(getpid()) + " (rank 3)";
  const pid_t child = Fork([this, holder] {
    GpuTurns mine(folder_, std::chrono::milliseconds(300));
    std::string why;
    const auto start = std::chrono::steady_clock::now();
    if (mine.Acquire("GPU-a", &why)) return 1;
    if (std::chrono::steady_clock::now() - start < std::chrono::milliseconds(300)) return 2;  // it did wait
    if (why.find(holder) == std::string::npos || why.find("--turn-timeout") == std::string::npos) return 3;
    const auto again = std::chrono::steady_clock::now();
    if (mine.Acquire("GPU-a", &why)) return 4;
    if (std::chrono::steady_clock::now() - again > std::chrono::milliseconds(100)) return 5;  // waited again
    if (why.find("no longer waits") == std::string::npos || why.find(holder) == std::string::npos) return 6;
    return 0;
  });
  EXPECT_EQ(ExitCodeOf(child), 0);
  // Once the holder lets go, the process that gave up takes the GPU at its next launch (one try, no wait).
  turns.Release("GPU-a");
  const pid_t later = Fork([this] {
    GpuTurns mine(folder_, std::chrono::milliseconds(0));
    std::string why;
    return mine.Acquire("GPU-a", &why) ? 0 : 1;
  });
  EXPECT_EQ(ExitCodeOf(later), 0);
}

// A collective launch never waits for a GPU's turn: its peers may be what the holder waits for.
TEST_F(GpuTurnsTest, ACollectiveLaunchTriesOnceAndNeverWaitsOrAnnouncesItself) {
  GpuTurns turns(folder_, std::chrono::milliseconds(0));
  std::string error;
  ASSERT_TRUE(turns.Acquire("GPU-a", &error)) << error;
  const std::string holder = "process " + std::to_string(getpid());
  const pid_t child = Fork([this, holder] {
    GpuTurns mine(folder_, std::chrono::seconds(20));
    std::string why;
    const auto start = std::chrono::steady_clock::now();
    if (mine.Acquire("GPU-a", &why, false)) return 1;
    if (std::chrono::steady_clock::now() - start > std::chrono::milliseconds(100)) return 2;
    if (why.find(holder) == std::string::npos || why.find("collective") == std::string::npos) return 3;
    if (!mine.Acquire("GPU-b", &why, false)) return 4;  // a free GPU is taken at once
    std::this_thread::sleep_for(std::chrono::milliseconds(400));
    return 0;
  });
  // The holder never sees it waiting (it did not wait), even after its minimum hold.
  std::this_thread::sleep_for(std::chrono::milliseconds(350));
  EXPECT_TRUE(turns.Wanted().empty());
  EXPECT_EQ(ExitCodeOf(child), 0);
}

}  // namespace
}  // namespace opengpa::profiling
