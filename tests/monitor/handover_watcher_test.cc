// The counter hand-over with two real processes and no GPU: this test's HandoverWatcher samples fake devices, and
// handover_claimer (another process, as `opengpa profile` would be) asks for a GPU's counters through the lock files
// (nvidia/counter_handover.h). The monitor must let go of that GPU before the claimer gets it, keep the other GPU,
// deliver what was sampled before the hand-over, and take the GPU back once the claimer exits.
#include "monitor/handover_watcher.h"

#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <thread>

#include "log_capture.h"

extern char** environ;

namespace opengpa::monitor {
namespace {

using testing::LogCapture;

uint64_t NowNs() {
  timespec now{};
  clock_gettime(CLOCK_REALTIME, &now);
  return static_cast<uint64_t>(now.tv_sec) * 1000000000u + static_cast<uint64_t>(now.tv_nsec);
}

// Samples one record per Collect while it holds the GPU; remembers when it let go.
class FakeDevice final : public HandedOverDevice {
 public:
  FakeDevice(uint32_t index, std::string uuid) { identity_ = {index, std::move(uuid), "fake"}; }
  const DeviceIdentity& Identity() const override { return identity_; }
  GpaStatus Resume() override {
    sampling = true;
    ++resumes;
    return kGpaStatusOk;
  }
  void Collect(std::vector<MonitorRecord>* records) override {
    if (sampling) records->push_back({NowNs(), 0, identity_.index, 0, 1.0});
  }
  GpaStatus Release(std::vector<MonitorRecord>* records) override {
    if (sampling) records->push_back({NowNs(), 0, identity_.index, 0, 2.0});  // the drained rest
    sampling = false;
    released_at_ns = NowNs();
    ++releases;
    return kGpaStatusOk;
  }
  std::atomic<bool> sampling{false};
  std::atomic<int> resumes{0};
  std::atomic<int> releases{0};
  std::atomic<uint64_t> released_at_ns{0};

 private:
  DeviceIdentity identity_;
};

// The claimer as a child process; its one line read through a pipe.
class Claimer {
 public:
  Claimer(const std::string& folder, const std::string& gpu, int wait_ms, int hold_ms) {
    int fds[2];
    EXPECT_EQ(pipe(fds), 0);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&actions, fds[0]);
    const std::string wait = std::to_string(wait_ms);
    const std::string hold = std::to_string(hold_ms);
    char* argv[] = {const_cast<char*>(OPENGPA_HANDOVER_CLAIMER),
                    const_cast<char*>(folder.c_str()),
                    const_cast<char*>(gpu.c_str()),
                    const_cast<char*>(wait.c_str()),
                    const_cast<char*>(hold.c_str()),
                    nullptr};
    EXPECT_EQ(posix_spawn(&pid_, OPENGPA_HANDOVER_CLAIMER, &actions, nullptr, argv, environ), 0);
    posix_spawn_file_actions_destroy(&actions);
    close(fds[1]);
    out_ = fdopen(fds[0], "r");
  }
  ~Claimer() {
    Wait();
    if (out_ != nullptr) fclose(out_);
  }
  // Blocks until the claimer got (or gave up on) the counters.
  std::string Line() {
    char line[512] = {};
    if (out_ == nullptr || fgets(line, sizeof line, out_) == nullptr) return "";
    return line;
  }
  void Wait() {
    if (pid_ <= 0) return;
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
  }

 private:
  pid_t pid_ = -1;
  FILE* out_ = nullptr;
};

uint64_t Field(const std::string& line, const std::string& name) {
  const size_t at = line.find(name + "=");
  return at == std::string::npos ? 0 : std::strtoull(line.c_str() + at + name.size() + 1, nullptr, 10);
}

class HandoverTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/opengpa-handover-test-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    folder_ = pattern;
  }
  void TearDown() override {
    const std::string command = "rm -rf '" + folder_ + "'";
    ASSERT_EQ(std::system(command.c_str()), 0);
  }
  bool WaitFor(const std::function<bool()>& condition, std::chrono::milliseconds limit) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < deadline) {
      if (condition()) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return condition();
  }
  std::string folder_;
};

TEST_F(HandoverTest, MonitorLetsGoOfTheWantedGpuBeforeTheProfilerStartsAndTakesItBackAfter) {
  LogCapture log;
  FakeDevice gpu0(0, "GPU-aaaa");
  FakeDevice gpu1(1, "GPU-bbbb");
  HandoverWatcher watcher(folder_, {&gpu0, &gpu1});
  ASSERT_EQ(watcher.Start(), kGpaStatusOk);
  ASSERT_TRUE(gpu0.sampling && gpu1.sampling);
  std::vector<MonitorRecord> records;
  watcher.Collect(&records);
  EXPECT_EQ(records.size(), 2u);

  {
    Claimer profiler(folder_, "GPU-aaaa", 5000, 300);
    const std::string line = profiler.Line();
    ASSERT_NE(line.find("holds=1"), std::string::npos) << line << log.Text();
    EXPECT_EQ(gpu0.releases, 1);
    EXPECT_FALSE(gpu0.sampling) << "GPU 0 is the profiler's while it holds it";
    EXPECT_LE(gpu0.released_at_ns.load(), Field(line, "at_ns")) << "let go before the profiler got it";
    EXPECT_LT(Field(line, "waited_ms"), 1000u) << line;  // the watch period is 20 ms
    EXPECT_TRUE(gpu1.sampling) << "the other GPU is not touched";
    records.clear();
    watcher.Collect(&records);
    size_t drained = 0;
    for (const MonitorRecord& record : records) drained += record.device_index == 0 && record.value == 2.0;
    EXPECT_EQ(drained, 1u) << "what GPU 0 sampled before the hand-over still arrives";
    EXPECT_TRUE(watcher.Sampling(1));
    EXPECT_FALSE(watcher.Sampling(0));
  }  // the claimer exits: its locks go with it
  EXPECT_TRUE(WaitFor([&] { return gpu0.sampling.load(); }, std::chrono::seconds(5))) << log.Text();
  EXPECT_EQ(gpu0.resumes, 2);
  EXPECT_EQ(watcher.Releases(), 1u);
  EXPECT_EQ(watcher.Resumptions(), 1u);
  EXPECT_NE(log.Text().find("GPU 0: PM sampling handed over to a profiler"), std::string::npos) << log.Text();
  EXPECT_NE(log.Text().find("GPU 0: PM sampling taken back"), std::string::npos) << log.Text();
  records.clear();
  ASSERT_EQ(watcher.Stop(&records), kGpaStatusOk);
  EXPECT_FALSE(gpu0.sampling || gpu1.sampling);
}

TEST_F(HandoverTest, AMonitorStartedWhileAProfilerHoldsTheGpuWaitsForIt) {
  LogCapture log;
  Claimer profiler(folder_, "GPU-aaaa", 5000, 400);
  ASSERT_NE(profiler.Line().find("holds=1"), std::string::npos);  // no monitor yet: at once
  FakeDevice gpu0(0, "GPU-aaaa");
  HandoverWatcher watcher(folder_, {&gpu0});
  ASSERT_EQ(watcher.Start(), kGpaStatusOk);
  EXPECT_FALSE(gpu0.sampling);
  EXPECT_EQ(gpu0.releases, 1) << "a configured device frees the counters it took at creation";
  EXPECT_NE(log.Text().find("a profiler holds GPU 0's counters"), std::string::npos) << log.Text();
  profiler.Wait();
  EXPECT_TRUE(WaitFor([&] { return gpu0.sampling.load(); }, std::chrono::seconds(5)));
  std::vector<MonitorRecord> records;
  ASSERT_EQ(watcher.Stop(&records), kGpaStatusOk);
}

TEST_F(HandoverTest, AProfilerGoesOnNamingTheWaitWhenTheGpuIsNotLetGo) {
  // A monitor that holds the GPU and never looks (no watcher): the claimer gives up after its wait.
  nvidia::MonitorHold stubborn(folder_, "GPU-aaaa");
  ASSERT_TRUE(stubborn.TryTake());
  Claimer profiler(folder_, "GPU-aaaa", 200, 500);
  const std::string line = profiler.Line();
  EXPECT_NE(line.find("holds=0"), std::string::npos) << line;
  EXPECT_GE(Field(line, "waited_ms"), 200u) << line;
  EXPECT_NE(line.find("did not let go of its counters within"), std::string::npos) << line;
  EXPECT_TRUE(stubborn.ProfilerWants()) << "it still wants the GPU";
  profiler.Wait();
  EXPECT_FALSE(stubborn.ProfilerWants());
}

TEST_F(HandoverTest, WithoutAMonitorAProfilerTakesTheGpuAtOnceAndTwoProfilersShareIt) {
  Claimer first(folder_, "GPU-aaaa", 5000, 300);
  Claimer second(folder_, "GPU-aaaa", 5000, 300);
  const std::string one = first.Line();
  const std::string two = second.Line();
  EXPECT_NE(one.find("holds=1"), std::string::npos) << one;
  EXPECT_NE(two.find("holds=1"), std::string::npos) << two;
  EXPECT_LT(Field(one, "waited_ms"), 100u);
  EXPECT_LT(Field(two, "waited_ms"), 100u);
  nvidia::MonitorHold monitor(folder_, "GPU-aaaa");
  EXPECT_FALSE(monitor.TryTake()) << "profilers hold it";
}

TEST(Handover, AnUnusableFolderCoordinatesNothingAndSaysSo) {
  std::string note;
  auto claim = nvidia::CounterClaim::Acquire("/proc/self/opengpa-no-such-folder", "GPU-aaaa",
                                             std::chrono::milliseconds(100), &note);
  ASSERT_NE(claim, nullptr);
  EXPECT_FALSE(claim->Holds());
  EXPECT_NE(note.find("cannot use the hand-over folder /proc/self/opengpa-no-such-folder"), std::string::npos) << note;
  nvidia::MonitorHold monitor("/proc/self/opengpa-no-such-folder", "GPU-aaaa");
  EXPECT_TRUE(monitor.TryTake()) << "nothing to coordinate with: sample as before hand-overs existed";
  EXPECT_FALSE(monitor.ProfilerWants());
  auto none = nvidia::CounterClaim::Acquire("", "GPU-aaaa", std::chrono::milliseconds(100), &note);
  EXPECT_FALSE(none->Holds());
}

TEST_F(HandoverTest, ContextsOfOneGpuInOneProcessShareOneClaimThatEndsWithTheLast) {
  setenv(nvidia::kHandoverFolderVariable, folder_.c_str(), 1);
  std::string note;
  std::shared_ptr<nvidia::CounterClaim> first = nvidia::ClaimGpuCounters("GPU-aaaa", &note);
  std::shared_ptr<nvidia::CounterClaim> second = nvidia::ClaimGpuCounters("GPU-aaaa", &note);
  std::shared_ptr<nvidia::CounterClaim> other = nvidia::ClaimGpuCounters("GPU-bbbb", &note);
  unsetenv(nvidia::kHandoverFolderVariable);
  EXPECT_TRUE(note.empty()) << note;
  EXPECT_EQ(first, second);
  EXPECT_NE(first, other);
  EXPECT_TRUE(first->Holds());
  nvidia::MonitorHold monitor(folder_, "GPU-aaaa");
  EXPECT_FALSE(monitor.TryTake());
  first.reset();
  EXPECT_FALSE(monitor.TryTake()) << "the second context still profiles";
  second.reset();
  EXPECT_TRUE(monitor.TryTake()) << "the last one is gone";
}

TEST(Handover, TheFolderComesFromTheEnvironment) {
  unsetenv(nvidia::kHandoverFolderVariable);
  EXPECT_EQ(nvidia::HandoverFolder(), nvidia::kDefaultHandoverFolder);
  setenv(nvidia::kHandoverFolderVariable, "/run/user/0/handover", 1);
  EXPECT_EQ(nvidia::HandoverFolder(), "/run/user/0/handover");
  setenv(nvidia::kHandoverFolderVariable, "off", 1);
  EXPECT_EQ(nvidia::HandoverFolder(), "");
  unsetenv(nvidia::kHandoverFolderVariable);
}

}  // namespace
}  // namespace opengpa::monitor
