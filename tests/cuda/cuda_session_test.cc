// CudaSession, the CUDA backend's session, driven on the CPU: the driver is a fake table (nvidia::CudaDriver is
// a table of entry points) and CUPTI's range profiler a fake (nvidia::RangeProfiler, the seam CudaSession takes
// through its factory). The metric configuration is CUPTI's real one for GH100 (its host API needs no GPU), so the
// pass count is CUPTI's. What used to run only on the H100 is pinned here: the ranges a session records and in
// what order, samples found by their range's name, the profiler's own empty range subtracted from the busy
// cycles, pass-order and pass-count errors, dropped and foreign ranges, and events answering GpaIsPassComplete.
#include "backends/cuda/cuda_session.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "platform/logging.h"

namespace opengpa::cuda {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::string g_last_error;
void CaptureError(GpaLoggingType type, const char* message) {
  if ((type & kGpaLoggingError) != 0) g_last_error = message;
}

// The fake driver: events are numbered; an event's work is done once the test says so.
struct FakeDriverState {
  int events_created = 0;
  int events_destroyed = 0;
  std::map<CUevent, bool> done;
  int pushes = 0;
  int pops = 0;
};
FakeDriverState g_driver;

CUevent EventNumber(int n) { return reinterpret_cast<CUevent>(static_cast<std::uintptr_t>(0x1000 + n)); }

nvidia::CudaDriver FakeDriver() {
  nvidia::CudaDriver driver;
  driver.cuCtxPushCurrent = [](CUcontext) {
    ++g_driver.pushes;
    return CUDA_SUCCESS;
  };
  driver.cuCtxPopCurrent = [](CUcontext*) {
    ++g_driver.pops;
    return CUDA_SUCCESS;
  };
  driver.cuEventCreate = [](CUevent* event, unsigned int) {
    *event = EventNumber(++g_driver.events_created);
    g_driver.done[*event] = false;
    return CUDA_SUCCESS;
  };
  driver.cuEventRecord = [](CUevent, CUstream) { return CUDA_SUCCESS; };
  driver.cuEventQuery = [](CUevent event) { return g_driver.done[event] ? CUDA_SUCCESS : CUDA_ERROR_NOT_READY; };
  driver.cuEventDestroy = [](CUevent) {
    ++g_driver.events_destroyed;
    return CUDA_SUCCESS;
  };
  return driver;
}

// What the fake range profiler saw and will answer.
struct FakeProfilerScript {
  std::vector<std::string> calls;                     // "start", "push NAME", "pop", "stop", "decode"
  std::size_t passes_needed = 1;                      // Stop reports all passes submitted after this many
  std::map<std::string, std::vector<double>> values;  // per range name, one value per metric
  std::vector<std::string> extra_ranges;              // decoded besides the pushed ones
  std::size_t dropped = 0;
  GpaStatus start_status = kGpaStatusOk;
  nvidia::RangeProfilerOptions options;  // as the session asked
};

class FakeRangeProfiler : public nvidia::RangeProfiler {
 public:
  explicit FakeRangeProfiler(FakeProfilerScript& script) : script_(script) {}
  GpaStatus Start() override {
    script_.calls.push_back("start");
    return script_.start_status;
  }
  GpaStatus Stop(bool* all_passes_submitted) override {
    script_.calls.push_back("stop");
    *all_passes_submitted = ++stopped_ >= script_.passes_needed;
    return kGpaStatusOk;
  }
  GpaStatus PushRange(const char* name) override {
    script_.calls.push_back(std::string("push ") + name);
    if (stopped_ == 0) names_.emplace_back(name);  // CUPTI keeps one range per name across passes
    return kGpaStatusOk;
  }
  GpaStatus PopRange() override {
    script_.calls.push_back("pop");
    return kGpaStatusOk;
  }
  GpaStatus Decode(std::size_t* ranges_dropped) override {
    script_.calls.push_back("decode");
    *ranges_dropped = script_.dropped;
    for (const std::string& name : script_.extra_ranges) names_.push_back(name);
    return kGpaStatusOk;
  }
  GpaStatus RangeCount(std::size_t* count) const override {
    *count = names_.size();
    return kGpaStatusOk;
  }
  GpaStatus RangeName(std::size_t range, std::string* name) const override {
    *name = names_.at(range);
    return kGpaStatusOk;
  }
  GpaStatus EvaluateRange(std::size_t range, double* values) const override {
    const auto found = script_.values.find(names_.at(range));
    if (found == script_.values.end()) return kGpaStatusErrorFailed;
    std::copy(found->second.begin(), found->second.end(), values);
    return kGpaStatusOk;
  }

 private:
  FakeProfilerScript& script_;
  std::size_t stopped_ = 0;
  std::vector<std::string> names_;
};

class CudaSessionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    g_last_error.clear();
    g_driver = {};
    SetLoggingCallback(kGpaLoggingError, &CaptureError);
    ASSERT_EQ(nvidia::CuptiHostMetrics::Create("GH100", {}, &chip_), kGpaStatusOk) << g_last_error;
  }
  void TearDown() override { SetLoggingCallback(kGpaLoggingNone, nullptr); }

  // A session of `metrics` over the fake driver and range profiler, up to `samples` samples per pass.
  std::unique_ptr<CudaSession> Session(std::vector<std::string> metrics, std::uint32_t samples = 4) {
    std::unique_ptr<nvidia::CuptiMetricConfig> config;
    EXPECT_EQ(nvidia::CuptiMetricConfig::Create(*chip_, std::move(metrics), &config), kGpaStatusOk) << g_last_error;
    script_.passes_needed = config->pass_count();
    auto factory = [this](CUcontext, const nvidia::CuptiMetricConfig&, const nvidia::RangeProfilerOptions& options,
                          std::unique_ptr<nvidia::RangeProfiler>* out) {
      script_.options = options;
      *out = std::make_unique<FakeRangeProfiler>(script_);
      return kGpaStatusOk;
    };
    return std::make_unique<CudaSession>(driver_, kContext, std::move(config), samples, factory);
  }

  // Records every pass with `samples` samples in each; false (with a test failure) on the first refusal.
  void RecordPasses(CudaSession& session, std::uint32_t samples) {
    for (GpaUInt32 pass = 0; pass < session.PassCount(); ++pass) {
      std::unique_ptr<BackendCommandList> list;
      ASSERT_EQ(session.BeginCommandList(pass, nullptr, kGpaCommandListNone, &list), kGpaStatusOk) << g_last_error;
      for (SampleSlot slot = 0; slot < samples; ++slot) {
        ASSERT_EQ(session.BeginSample(*list, slot), kGpaStatusOk) << g_last_error;
        ASSERT_EQ(session.EndSample(*list, slot), kGpaStatusOk) << g_last_error;
      }
      ASSERT_EQ(session.EndCommandList(*list), kGpaStatusOk) << g_last_error;
    }
  }

  const CUcontext kContext = reinterpret_cast<CUcontext>(0x5000);
  nvidia::CudaDriver driver_ = FakeDriver();
  std::unique_ptr<nvidia::CuptiHostMetrics> chip_;
  FakeProfilerScript script_;
};

TEST_F(CudaSessionTest, APassIsAStartupRangeTheSamplesByTheirSlotAndAnIdleRangeBetweenStartAndStop) {
  auto session = Session({"smsp__inst_executed.sum"});
  ASSERT_EQ(session->PassCount(), 1u);
  ASSERT_EQ(session->Begin(), kGpaStatusOk);
  EXPECT_EQ(script_.options.range, CUPTI_UserRange);
  EXPECT_EQ(script_.options.replay, CUPTI_UserReplay);
  EXPECT_EQ(script_.options.max_ranges_per_pass, 4u + 2u);  // the samples, the startup and the idle range
  RecordPasses(*session, 2);
  EXPECT_THAT(script_.calls, ElementsAre("start", "push opengpa.startup", "pop", "push 0", "pop", "push 1", "pop",
                                         "push opengpa.idle", "pop", "stop"));
}

TEST_F(CudaSessionTest, ResultsAreFoundByRangeNameAndTheIdleRangeComesOffBusyCyclesOnly) {
  auto session = Session({"gr__cycles_active.avg", "smsp__inst_executed.sum"});
  ASSERT_EQ(session->Begin(), kGpaStatusOk);
  RecordPasses(*session, 2);
  script_.values = {{"opengpa.startup", {900, 9}}, {"opengpa.idle", {30, 5}}, {"0", {1000, 700}}, {"1", {20, 800}}};
  ASSERT_EQ(session->End(), kGpaStatusOk);
  std::vector<double> values;
  ASSERT_EQ(session->ReadResults(3, &values), kGpaStatusOk);
  // Busy cycles less the idle range's 30, never below 0; instructions as decoded; a slot never sampled reads 0.
  EXPECT_THAT(values, ElementsAre(970, 700, 0, 800, 0, 0));
}

TEST_F(CudaSessionTest, EveryPassCuptiNeedsIsRecordedInOrder) {
  auto session = Session({"sm__throughput.avg.pct_of_peak_sustained_elapsed"});
  ASSERT_GT(session->PassCount(), 1u) << "a set CUPTI splits into passes on GH100";
  ASSERT_EQ(session->Begin(), kGpaStatusOk);
  std::unique_ptr<BackendCommandList> list;
  EXPECT_EQ(session->BeginCommandList(1, nullptr, kGpaCommandListNone, &list), kGpaStatusErrorInvalidParameter);
  EXPECT_THAT(g_last_error, HasSubstr("expects pass 0 next"));
  ASSERT_EQ(session->BeginCommandList(0, nullptr, kGpaCommandListNone, &list), kGpaStatusOk);
  std::unique_ptr<BackendCommandList> second;
  EXPECT_EQ(session->BeginCommandList(1, nullptr, kGpaCommandListNone, &second), kGpaStatusErrorInvalidParameter);
  EXPECT_THAT(g_last_error, HasSubstr("one pass at a time"));
  ASSERT_EQ(session->EndCommandList(*list), kGpaStatusOk);
  EXPECT_EQ(session->End(), kGpaStatusErrorNotEnoughPasses);
  EXPECT_THAT(g_last_error, HasSubstr("were recorded"));
}

TEST_F(CudaSessionTest, CudaHasNoCommandListsAndSlotsBeyondTheReservationAreRefused) {
  auto session = Session({"smsp__inst_executed.sum"}, 2);
  ASSERT_EQ(session->Begin(), kGpaStatusOk);
  std::unique_ptr<BackendCommandList> list;
  int api_list = 0;
  EXPECT_EQ(session->BeginCommandList(0, &api_list, kGpaCommandListPrimary, &list), kGpaStatusErrorInvalidParameter);
  EXPECT_THAT(g_last_error, HasSubstr("GPA_NULL_COMMAND_LIST"));
  ASSERT_EQ(session->BeginCommandList(0, nullptr, kGpaCommandListNone, &list), kGpaStatusOk);
  EXPECT_EQ(session->BeginSample(*list, 2), kGpaStatusErrorIndexOutOfRange);
  EXPECT_THAT(g_last_error, HasSubstr("max_samples_per_pass"));
}

TEST_F(CudaSessionTest, APassIsCompleteWhenTheEventAfterItsWorkIsDoneAndEveryEventIsDestroyed) {
  auto session = Session({"smsp__inst_executed.sum"});
  ASSERT_EQ(session->Begin(), kGpaStatusOk);
  EXPECT_FALSE(session->IsPassComplete(0));  // not recorded yet
  RecordPasses(*session, 1);
  EXPECT_EQ(g_driver.events_created, 1);
  EXPECT_EQ(g_driver.pushes, g_driver.pops);  // the context made current around the event, and popped
  EXPECT_FALSE(session->IsPassComplete(0));
  g_driver.done[EventNumber(1)] = true;
  EXPECT_TRUE(session->IsPassComplete(0));
  script_.values = {{"opengpa.startup", {0}}, {"opengpa.idle", {0}}, {"0", {1}}};
  ASSERT_EQ(session->End(), kGpaStatusOk);
  EXPECT_EQ(g_driver.events_destroyed, 1);
  EXPECT_TRUE(session->IsPassComplete(0));  // after GpaEndSession everything is complete
}

TEST_F(CudaSessionTest, DroppedRangesMakeResultsUnreadableAndSaySo) {
  auto session = Session({"smsp__inst_executed.sum"});
  ASSERT_EQ(session->Begin(), kGpaStatusOk);
  RecordPasses(*session, 1);
  script_.values = {{"opengpa.startup", {0}}, {"opengpa.idle", {0}}, {"0", {1}}};
  script_.dropped = 3;
  ASSERT_EQ(session->End(), kGpaStatusOk);  // the session ends; its results say why they cannot be read
  std::vector<double> values;
  EXPECT_EQ(session->ReadResults(1, &values), kGpaStatusErrorReadingSampleResult);
  EXPECT_THAT(g_last_error, HasSubstr("dropped 3 ranges"));
}

TEST_F(CudaSessionTest, ARangeNamedAfterNoSampleMakesResultsUnreadable) {
  auto session = Session({"smsp__inst_executed.sum"});
  ASSERT_EQ(session->Begin(), kGpaStatusOk);
  RecordPasses(*session, 1);
  script_.values = {{"opengpa.startup", {0}}, {"opengpa.idle", {0}}, {"0", {1}}, {"somebody else's", {2}}};
  script_.extra_ranges = {"somebody else's"};
  ASSERT_EQ(session->End(), kGpaStatusOk);
  std::vector<double> values;
  EXPECT_EQ(session->ReadResults(1, &values), kGpaStatusErrorReadingSampleResult);
  EXPECT_THAT(g_last_error, HasSubstr("unexpected name \"somebody else's\""));
}

TEST_F(CudaSessionTest, ACuptiRefusalAtAPassStartIsTheCommandListsStatus) {
  auto session = Session({"smsp__inst_executed.sum"});
  ASSERT_EQ(session->Begin(), kGpaStatusOk);
  script_.start_status = kGpaStatusErrorDriverNotSupported;
  std::unique_ptr<BackendCommandList> list;
  EXPECT_EQ(session->BeginCommandList(0, nullptr, kGpaCommandListNone, &list), kGpaStatusErrorDriverNotSupported);
  std::vector<double> values;
  EXPECT_EQ(session->ReadResults(1, &values), kGpaStatusErrorSessionNotEnded);
}

}  // namespace
}  // namespace opengpa::cuda
