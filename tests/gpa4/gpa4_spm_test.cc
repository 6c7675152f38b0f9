// GPA 4's streaming counters (GpaSpm*) on the fake backend, whose streams are known (tests/core/fake_backend.h:
// kStreamedSamples samples of FakeHardwareValue), and OpenGPA's streaming extensions (opengpa_ext.h) beside them.
#include <dlfcn.h>

#include <cstring>
#include <vector>

#include "gpu_performance_api/opengpa_ext.h"
#include "tests/gpa4/gpa4_fixture.h"

namespace opengpa::gpa4_test {
namespace {

using fake::FakeHardwareValue;
using fake::kStreamBeginNs;
using fake::kStreamedSamples;

constexpr GpaUInt32 kInterval = 1000;

class Gpa4SpmTest : public Gpa4Test {
 protected:
  void ConfigureDevice(fake::FakeDevice& device) override { device.sample_types = 0x2; }  // streaming bit
  void SetUp() override {
    Gpa4Test::SetUp();
    ASSERT_EQ(gpa_->GpaCreateSession(context_, kGpaSessionSampleTypeStreamingCounter, &stream_), kGpaStatusOk);
  }

  // FakeTotalWork (cycles + items) and FakeScaledBytes (bytes * 4 * 2) streamed once at kInterval.
  void StreamOnce() {
    ASSERT_EQ(gpa_->GpaEnableCounterByName(stream_, "FakeTotalWork"), kGpaStatusOk);
    ASSERT_EQ(gpa_->GpaEnableCounterByName(stream_, "FakeScaledBytes"), kGpaStatusOk);
    ASSERT_EQ(gpa_->GpaSpmSetSampleInterval(stream_, kInterval), kGpaStatusOk);
    ASSERT_EQ(gpa_->GpaSpmSetDuration(stream_, 1000000), kGpaStatusOk);
    ASSERT_EQ(gpa_->GpaBeginSession(stream_), kGpaStatusOk);
    ASSERT_EQ(gpa_->GpaSpmBegin(stream_, nullptr), kGpaStatusOk);
    ASSERT_EQ(gpa_->GpaSpmEnd(stream_, nullptr), kGpaStatusOk);
    ASSERT_EQ(gpa_->GpaEndSession(stream_), kGpaStatusOk);
  }

  template <typename Function>
  static Function Extension(const char* name) {
    void* library = dlopen(OPENGPA_TEST_LIBRARY, RTLD_NOW | RTLD_NOLOAD);
    EXPECT_NE(library, nullptr);
    auto function = reinterpret_cast<Function>(dlsym(library, name));
    dlclose(library);
    return function;
  }

  GpaSessionId stream_ = nullptr;
};

TEST_F(Gpa4SpmTest, AStreamingSessionEnablesStreamableCountersAndRefusesOthers) {
  EXPECT_EQ(gpa_->GpaEnableCounterByName(stream_, "FakeTotalWork"), kGpaStatusOk);
  // FakeTime's block streams nothing.
  EXPECT_EQ(gpa_->GpaEnableCounterByName(stream_, "FakeTimeMs"), kGpaStatusErrorIncompatibleSampleTypes);
  // Everything at once needs FakeTime too.
  EXPECT_EQ(gpa_->GpaEnableAllCounters(stream_), kGpaStatusErrorIncompatibleSampleTypes);
  GpaUInt32 enabled = 0;
  ASSERT_EQ(gpa_->GpaGetNumEnabledCounters(stream_, &enabled), kGpaStatusOk);
  EXPECT_EQ(enabled, 1u);
}

TEST_F(Gpa4SpmTest, ACounterThatWouldNeedASecondPassIsNotEnabled) {
  device_.block_limit = 1;  // FakeTotalWork's two counters share a block: two passes
  EXPECT_EQ(gpa_->GpaEnableCounterByName(stream_, "FakeTotalWork"), kGpaStatusErrorNotEnabled);
  EXPECT_EQ(gpa_->GpaEnableCounterByName(stream_, "FakeScaledBytes"), kGpaStatusOk);
}

TEST_F(Gpa4SpmTest, SpmCallsFollowTheSessionsStateOneStreamPerSession) {
  ASSERT_EQ(gpa_->GpaEnableCounterByName(stream_, "FakeTotalWork"), kGpaStatusOk);
  EXPECT_EQ(gpa_->GpaSpmSetSampleInterval(stream_, 0), kGpaStatusErrorInvalidParameter);
  EXPECT_EQ(gpa_->GpaSpmSetDuration(stream_, 0), kGpaStatusErrorInvalidParameter);
  EXPECT_EQ(gpa_->GpaSpmBegin(stream_, nullptr), kGpaStatusErrorSessionNotStarted);
  EXPECT_EQ(gpa_->GpaSpmEnd(stream_, nullptr), kGpaStatusErrorSessionNotStarted);
  size_t size = 0;
  EXPECT_EQ(gpa_->GpaSpmGetSampleResultSize(stream_, &size), kGpaStatusErrorSessionNotEnded);
  ASSERT_EQ(gpa_->GpaBeginSession(stream_), kGpaStatusOk);
  EXPECT_EQ(gpa_->GpaSpmEnd(stream_, nullptr), kGpaStatusErrorNotEnabled);
  ASSERT_EQ(gpa_->GpaSpmBegin(stream_, nullptr), kGpaStatusOk);
  EXPECT_EQ(gpa_->GpaSpmBegin(stream_, nullptr), kGpaStatusErrorAlreadyEnabled);
  EXPECT_EQ(gpa_->GpaSpmSetSampleInterval(stream_, 2000), kGpaStatusErrorCannotChangeCountersWhenSampling);
  EXPECT_EQ(gpa_->GpaEndSession(stream_), kGpaStatusErrorSampleNotEnded);
  ASSERT_EQ(gpa_->GpaSpmEnd(stream_, nullptr), kGpaStatusOk);
  EXPECT_EQ(gpa_->GpaSpmEnd(stream_, nullptr), kGpaStatusErrorNotEnabled);
  EXPECT_EQ(gpa_->GpaSpmBegin(stream_, nullptr), kGpaStatusErrorAlreadyEnabled);
  ASSERT_EQ(gpa_->GpaEndSession(stream_), kGpaStatusOk);
  EXPECT_EQ(gpa_->GpaSpmGetSampleResultSize(stream_, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaSpmGetSampleResultSize(stream_, &size), kGpaStatusOk);
}

TEST_F(Gpa4SpmTest, ASessionThatNeverStreamedHasNoStreamedResult) {
  ASSERT_EQ(gpa_->GpaEnableCounterByName(stream_, "FakeTotalWork"), kGpaStatusOk);
  ASSERT_EQ(gpa_->GpaBeginSession(stream_), kGpaStatusOk);
  ASSERT_EQ(gpa_->GpaEndSession(stream_), kGpaStatusOk);
  size_t size = 0;
  EXPECT_EQ(gpa_->GpaSpmGetSampleResultSize(stream_, &size), kGpaStatusErrorSampleNotFound);
}

TEST_F(Gpa4SpmTest, TheResultIsAGpaSpmDataWithEveryTimestampAndHardwareCounterInOneBuffer) {
  StreamOnce();
  size_t size = 0;
  ASSERT_EQ(gpa_->GpaSpmGetSampleResultSize(stream_, &size), kGpaStatusOk);
  constexpr size_t kCounters = 3;  // FakeCycles, FakeItems, FakeBytes
  EXPECT_EQ(size, sizeof(GpaSpmData) + kStreamedSamples * 8 + kCounters * sizeof(GpaSpmCounterInfo) +
                      kCounters * kStreamedSamples * 8);
  std::vector<GpaUInt64> buffer(size / 8 + 1);
  EXPECT_EQ(gpa_->GpaSpmGetSampleResult(stream_, size + 8, buffer.data()), kGpaStatusErrorInvalidParameter);
  EXPECT_EQ(gpa_->GpaSpmGetSampleResult(stream_, size, nullptr), kGpaStatusErrorNullPointer);
  ASSERT_EQ(gpa_->GpaSpmGetSampleResult(stream_, size, buffer.data()), kGpaStatusOk);
  const auto* data = reinterpret_cast<const GpaSpmData*>(buffer.data());
  ASSERT_EQ(data->number_of_timestamps, kStreamedSamples);
  ASSERT_EQ(data->number_of_spm_counter_info, kCounters);
  ASSERT_EQ(data->number_of_counter_data, kCounters * kStreamedSamples);
  ASSERT_EQ(data->number_of_bytes_per_counter_data, 8u);  // float64 values
  const auto* values = reinterpret_cast<const double*>(data->counter_data_16bit);
  for (GpaUInt32 t = 0; t < kStreamedSamples; ++t) {
    EXPECT_EQ(data->timestamps[t], kStreamBeginNs + (t + 1) * kInterval) << t;  // each sample's end
  }
  for (GpaUInt32 c = 0; c < kCounters; ++c) {
    const GpaSpmCounterInfo& info = data->spm_counter_info[c];
    EXPECT_EQ(info.event_index, c);  // the hardware counter's index
    for (GpaUInt32 t = 0; t < kStreamedSamples; ++t) {
      EXPECT_EQ(values[info.data_offset + t], FakeHardwareValue(c, t)) << c << " " << t;
    }
  }
}

TEST_F(Gpa4SpmTest, DerivedCountersAreEvaluatedCounterByCounterAtEveryTimestamp) {
  StreamOnce();
  size_t size = 0;
  ASSERT_EQ(gpa_->GpaSpmGetSampleResultSize(stream_, &size), kGpaStatusOk);
  std::vector<GpaUInt64> buffer(size / 8);
  ASSERT_EQ(gpa_->GpaSpmGetSampleResult(stream_, size, buffer.data()), kGpaStatusOk);
  auto* data = reinterpret_cast<GpaSpmData*>(buffer.data());
  std::vector<GpaUInt64> results(2 * kStreamedSamples);
  EXPECT_EQ(gpa_->GpaSpmCalculateDerivedCounters(stream_, data, 2 * kStreamedSamples - 1, results.data()),
            kGpaStatusErrorInvalidParameter);
  EXPECT_EQ(gpa_->GpaSpmCalculateDerivedCounters(stream_, nullptr, 2 * kStreamedSamples, results.data()),
            kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaSpmCalculateDerivedCounters(stream_, data, 2 * kStreamedSamples, nullptr),
            kGpaStatusErrorNullPointer);
  ASSERT_EQ(gpa_->GpaSpmCalculateDerivedCounters(stream_, data, 2 * kStreamedSamples, results.data()), kGpaStatusOk);
  for (GpaUInt32 t = 0; t < kStreamedSamples; ++t) {
    EXPECT_EQ(results[t], static_cast<GpaUInt64>(FakeHardwareValue(0, t) + FakeHardwareValue(1, t))) << t;
    EXPECT_EQ(results[kStreamedSamples + t], static_cast<GpaUInt64>(FakeHardwareValue(2, t) * 4 * 2)) << t;
  }
}

TEST_F(Gpa4SpmTest, DerivedCountersNeedAnEndedSessionWhateverTheDataSessionNotEndedOtherwise) {
  // As on an offline context, whose sessions never begin: the computation answers SessionNotEnded (documented in
  // docs/gpa4.md), also for well-formed data, and so it does while the session runs.
  ASSERT_EQ(gpa_->GpaEnableCounterByName(stream_, "FakeTotalWork"), kGpaStatusOk);
  const std::vector<double> values(2, 1.0);
  const GpaUInt64 timestamp = 1;
  const GpaSpmCounterInfo infos[2] = {{0, 0, 0, 0}, {0, 0, 1, 1}};
  GpaSpmData data{};
  data.number_of_timestamps = 1;
  data.number_of_spm_counter_info = 2;
  data.number_of_counter_data = 2;
  data.number_of_bytes_per_counter_data = 8;
  data.timestamps = &timestamp;
  data.spm_counter_info = infos;
  data.counter_data_16bit = reinterpret_cast<const GpaUInt16*>(values.data());
  GpaUInt64 result = 0;
  EXPECT_EQ(gpa_->GpaSpmCalculateDerivedCounters(stream_, &data, 1, &result), kGpaStatusErrorSessionNotEnded);
  ASSERT_EQ(gpa_->GpaBeginSession(stream_), kGpaStatusOk);
  EXPECT_EQ(gpa_->GpaSpmCalculateDerivedCounters(stream_, &data, 1, &result), kGpaStatusErrorSessionNotEnded);
  data.number_of_bytes_per_counter_data = 3;
  EXPECT_EQ(gpa_->GpaSpmCalculateDerivedCounters(stream_, &data, 1, &result), kGpaStatusErrorInvalidParameter);
}

TEST_F(Gpa4SpmTest, TheExtensionsGiveEachSamplesSpanAndCounters) {
  auto info_of = Extension<OpenGpaGetStreamingInfoPtrType>("OpenGpaGetStreamingInfo");
  auto samples_of = Extension<OpenGpaGetStreamingSamplesPtrType>("OpenGpaGetStreamingSamples");
  ASSERT_NE(info_of, nullptr);
  ASSERT_NE(samples_of, nullptr);
  OpenGpaStreamingInfo info{};
  EXPECT_EQ(info_of(stream_, &info), kGpaStatusErrorSessionNotEnded);
  EXPECT_EQ(info_of(session_, &info), kGpaStatusErrorIncompatibleSampleTypes);  // the fixture's discrete session
  StreamOnce();
  EXPECT_EQ(info_of(stream_, nullptr), kGpaStatusErrorNullPointer);
  ASSERT_EQ(info_of(stream_, &info), kGpaStatusOk);
  EXPECT_EQ(info.sample_count, kStreamedSamples);
  EXPECT_EQ(info.enabled_counter_count, 2u);
  EXPECT_EQ(info.interval_ns, kInterval);
  EXPECT_EQ(info.begin_ns, kStreamBeginNs);
  EXPECT_EQ(info.lost_sample_count, 0u);
  std::vector<GpaUInt64> start(2), end(2), results(2 * 2);
  EXPECT_EQ(samples_of(stream_, 3, 2, start.data(), end.data(), results.data()), kGpaStatusErrorIndexOutOfRange);
  ASSERT_EQ(samples_of(stream_, 2, 2, start.data(), end.data(), results.data()), kGpaStatusOk);
  for (GpaUInt32 i = 0; i < 2; ++i) {
    const GpaUInt32 t = 2 + i;
    EXPECT_EQ(start[i], kStreamBeginNs + t * kInterval);
    EXPECT_EQ(end[i], kStreamBeginNs + (t + 1) * kInterval);
    EXPECT_EQ(results[i * 2], static_cast<GpaUInt64>(FakeHardwareValue(0, t) + FakeHardwareValue(1, t)));
    EXPECT_EQ(results[i * 2 + 1], static_cast<GpaUInt64>(FakeHardwareValue(2, t) * 4 * 2));
  }
}

TEST_F(Gpa4SpmTest, GpaV3sOneSampleOfAStreamingSessionSpansTheStream) {
  ASSERT_EQ(gpa_->GpaEnableCounterByName(stream_, "FakeTotalWork"), kGpaStatusOk);
  ASSERT_EQ(gpa_->GpaBeginSession(stream_), kGpaStatusOk);
  GpaCommandListId list = nullptr;
  ASSERT_EQ(gpa_->GpaBeginCommandList(stream_, 0, GPA_NULL_COMMAND_LIST, kGpaCommandListNone, &list), kGpaStatusOk);
  ASSERT_EQ(gpa_->GpaBeginSample(7, list), kGpaStatusOk);
  EXPECT_EQ(gpa_->GpaSpmBegin(stream_, nullptr), kGpaStatusErrorAlreadyEnabled);  // the sample is the stream
  ASSERT_EQ(gpa_->GpaEndSample(list), kGpaStatusOk);
  EXPECT_EQ(gpa_->GpaBeginSample(8, list), kGpaStatusErrorInvalidParameter);  // one sample per stream
  ASSERT_EQ(gpa_->GpaEndCommandList(list), kGpaStatusOk);
  ASSERT_EQ(gpa_->GpaEndSession(stream_), kGpaStatusOk);
  GpaUInt64 total = 0;
  ASSERT_EQ(gpa_->GpaGetSampleResult(stream_, 7, sizeof total, &total), kGpaStatusOk);
  double expected = 0;
  for (GpaUInt32 t = 0; t < kStreamedSamples; ++t) expected += FakeHardwareValue(0, t) + FakeHardwareValue(1, t);
  EXPECT_EQ(total, static_cast<GpaUInt64>(expected));
}

TEST_F(Gpa4SpmTest, AnAbortedStreamCanStreamAgain) {
  ASSERT_EQ(gpa_->GpaEnableCounterByName(stream_, "FakeTotalWork"), kGpaStatusOk);
  ASSERT_EQ(gpa_->GpaBeginSession(stream_), kGpaStatusOk);
  ASSERT_EQ(gpa_->GpaSpmBegin(stream_, nullptr), kGpaStatusOk);
  ASSERT_EQ(gpa_->GpaAbortSession(stream_), kGpaStatusOk);
  ASSERT_EQ(gpa_->GpaBeginSession(stream_), kGpaStatusOk);
  EXPECT_EQ(gpa_->GpaSpmBegin(stream_, nullptr), kGpaStatusOk);
  EXPECT_EQ(gpa_->GpaSpmEnd(stream_, nullptr), kGpaStatusOk);
  EXPECT_EQ(gpa_->GpaEndSession(stream_), kGpaStatusOk);
}

TEST_F(Gpa4SpmTest, TheOptionsExtensionSetsTheIntervalUntilStreamingBegins) {
  auto set_options = Extension<OpenGpaSetStreamingOptionsPtrType>("OpenGpaSetStreamingOptions");
  ASSERT_NE(set_options, nullptr);
  EXPECT_EQ(set_options(nullptr, 1, 0), kGpaStatusErrorNullPointer);
  EXPECT_EQ(set_options(session_, 5000, 0), kGpaStatusErrorIncompatibleSampleTypes);
  ASSERT_EQ(set_options(stream_, 5000, 8 << 20), kGpaStatusOk);
  ASSERT_EQ(gpa_->GpaEnableCounterByName(stream_, "FakeTotalWork"), kGpaStatusOk);
  ASSERT_EQ(gpa_->GpaBeginSession(stream_), kGpaStatusOk);
  ASSERT_EQ(gpa_->GpaSpmBegin(stream_, nullptr), kGpaStatusOk);
  EXPECT_EQ(set_options(stream_, 6000, 0), kGpaStatusErrorCannotChangeCountersWhenSampling);
  ASSERT_EQ(gpa_->GpaSpmEnd(stream_, nullptr), kGpaStatusOk);
  ASSERT_EQ(gpa_->GpaEndSession(stream_), kGpaStatusOk);
  OpenGpaStreamingInfo info{};
  ASSERT_EQ(Extension<OpenGpaGetStreamingInfoPtrType>("OpenGpaGetStreamingInfo")(stream_, &info), kGpaStatusOk);
  EXPECT_EQ(info.interval_ns, 5000u);
}

}  // namespace
}  // namespace opengpa::gpa4_test
