// What the sampled mode does while the program exits (tools/opengpa/sampled_mode.h, SampledWhileExiting): nothing
// before PM sampling is set up; then PM sampling is stopped when the program's processes have all ended, and the
// stream as read then is attributed as done while the program exits.
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "sampled_mode.h"

namespace opengpa::cli {
namespace {

class FakeRecording final : public SampledRecording {
 public:
  bool Stop(std::string*) override {
    ++stops;
    return true;
  }
  bool Finish(profiling::ProfileRun* run, double read_seconds, bool while_program_exits,
              std::vector<std::string>* notes, std::string* error) override {
    ++finishes;
    finished_run = run;
    seconds = read_seconds;
    during_exit = while_program_exits;
    notes->push_back("attributed");
    *error = "a GPU did not stop cleanly";
    return false;
  }
  int stops = 0;
  int finishes = 0;
  const profiling::ProfileRun* finished_run = nullptr;
  double seconds = 0.0;
  bool during_exit = false;
};

// A SampledWhileExiting over a FakeRecording, PM sampling set up or not yet.
struct Exiting {
  explicit Exiting(bool sampling) : set_up(sampling), owned(std::make_unique<FakeRecording>()) {}
  FakeRecording& fake() { return static_cast<FakeRecording&>(*owned); }
  std::atomic<bool> set_up;
  std::unique_ptr<SampledRecording> owned;
  SampledWhileExiting while_exiting{&set_up, &owned};
};

TEST(SampledWhileExitingTest, DoesNothingBeforePmSamplingIsSetUp) {
  Exiting exiting(/*sampling=*/false);
  SampledWhileExiting& while_exiting = exiting.while_exiting;
  FakeRecording* fake = &exiting.fake();
  profiling::ProfileRun run;
  while_exiting.Ended({100});
  while_exiting.Read(&run, 0.1);
  EXPECT_EQ(fake->stops, 0);
  EXPECT_EQ(fake->finishes, 0);
  EXPECT_FALSE(while_exiting.attributed());  // so opengpa attributes after the program instead
  EXPECT_EQ(while_exiting.writers(), (std::set<std::uint32_t>{100}));
}

TEST(SampledWhileExitingTest, StopsAtTheEndRecordsThenAttributesTheStreamAsDoneWhileTheProgramExits) {
  Exiting exiting(/*sampling=*/true);
  SampledWhileExiting& while_exiting = exiting.while_exiting;
  FakeRecording* fake = &exiting.fake();
  while_exiting.Ended({100, 200});
  EXPECT_EQ(fake->stops, 1);
  EXPECT_EQ(fake->finishes, 0);
  profiling::ProfileRun run;
  while_exiting.Read(&run, 0.25);
  EXPECT_EQ(fake->finishes, 1);
  EXPECT_EQ(fake->finished_run, &run);
  EXPECT_DOUBLE_EQ(fake->seconds, 0.25);
  EXPECT_TRUE(fake->during_exit);
  EXPECT_TRUE(while_exiting.attributed());
  // Finish's answer, notes and error are kept for opengpa to print after the program.
  EXPECT_FALSE(while_exiting.finished());
  EXPECT_EQ(while_exiting.notes(), (std::vector<std::string>{"attributed"}));
  EXPECT_EQ(while_exiting.error(), "a GPU did not stop cleanly");
  EXPECT_EQ(while_exiting.writers(), (std::set<std::uint32_t>{100, 200}));
}

}  // namespace
}  // namespace opengpa::cli
