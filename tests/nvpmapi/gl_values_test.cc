// Values: experiment objects and real-time intervals read what llvmpipe measured for known work, and every
// getter's documented refusals.
#include "gl_nvpm_fixture.h"

namespace opengpa::testing {
namespace {

constexpr int kSquares = 2;  // 16 x 16-pixel squares: 256 pixels each (the 64 x 32 viewport holds 8)

class GlNvPmValues : public GlNvPm {
 protected:
  NVPMRESULT Get(const char* name, NVPMUINT object, NVPMUINT64* value, NVPMUINT64* cycles) {
    return api_->GetCounterValueByName(context_, name, object, value, cycles);
  }
};

TEST_F(GlNvPmValues, ExperimentObjectsReadTheirDrawsPixelsAndVertices) {
  ASSERT_EQ(api_->AddCounterByName(context_, "shaded_pixel_count"), NVPM_OK);
  ASSERT_EQ(api_->AddCounterByName(context_, "IAVerticesIn"), NVPM_OK);
  ASSERT_EQ(api_->AddCounterByName(context_, "GPUTime"), NVPM_OK);
  RunOnePassExperiment(kSquares);
  NVPMUINT64 value = 0, cycles = 0;
  ASSERT_EQ(Get("shaded_pixel_count", 0, &value, &cycles), NVPM_OK);
  EXPECT_EQ(value, 256u * kSquares);
  EXPECT_EQ(cycles, value);  // a count: value and cycles alike, as PerfKit's counting experiments
  ASSERT_EQ(Get("IAVerticesIn", 0, &value, &cycles), NVPM_OK);
  EXPECT_EQ(value, NVPMUINT64(kSquares));
  double ns = 0;
  NVPMUINT8 overflow = 1;
  ASSERT_EQ(api_->GetCounterValueByNameFloat64(context_, "GPUTime", 0, &ns, &cycles, &overflow), NVPM_OK);
  EXPECT_GT(ns, 0.0);
  EXPECT_EQ(overflow, 0);
}

TEST_F(GlNvPmValues, GettersByIdAndByNameAgree) {
  ASSERT_EQ(api_->AddCounterByName(context_, "IAVerticesIn"), NVPM_OK);  // a UINT64 counter
  RunOnePassExperiment(kSquares);
  NVPMUINT64 by_name = 0, by_id = 0, typed = 0, cycles = 0;
  NVPMUINT8 overflow = 0;
  const NVPMCounterID id = Id(context_, "IAVerticesIn");
  ASSERT_EQ(Get("IAVerticesIn", 0, &by_name, &cycles), NVPM_OK);
  ASSERT_EQ(api_->GetCounterValue(context_, id, 0, &by_id, &cycles), NVPM_OK);
  ASSERT_EQ(api_->GetCounterValueUint64(context_, id, 0, &typed, &cycles, &overflow), NVPM_OK);
  EXPECT_EQ(by_name, NVPMUINT64(kSquares));
  EXPECT_EQ(by_name, by_id);
  EXPECT_EQ(by_name, typed);
}

TEST_F(GlNvPmValues, TypedGettersRefuseTheOtherValueType) {
  ASSERT_EQ(api_->AddCounterByName(context_, "IAVerticesIn"), NVPM_OK);  // UINT64
  ASSERT_EQ(api_->AddCounterByName(context_, "GPUTime"), NVPM_OK);       // FLOAT64
  RunOnePassExperiment(kSquares);
  double d = 0;
  NVPMUINT64 u = 0, cycles = 0;
  NVPMUINT8 overflow = 0;
  EXPECT_EQ(api_->GetCounterValueByNameFloat64(context_, "IAVerticesIn", 0, &d, &cycles, &overflow),
            NVPM_INCORRECT_VALUE_TYPE);
  EXPECT_EQ(api_->GetCounterValueByNameUint64(context_, "GPUTime", 0, &u, &cycles, &overflow),
            NVPM_INCORRECT_VALUE_TYPE);
  EXPECT_EQ(api_->GetCounterValueFloat64(context_, Id(context_, "IAVerticesIn"), 0, &d, &cycles, &overflow),
            NVPM_INCORRECT_VALUE_TYPE);
  EXPECT_EQ(api_->GetCounterValueUint64(context_, Id(context_, "GPUTime"), 0, &u, &cycles, &overflow),
            NVPM_INCORRECT_VALUE_TYPE);
  // The untyped getters read either, rounded to an integer.
  EXPECT_EQ(Get("GPUTime", 0, &u, &cycles), NVPM_OK);
}

TEST_F(GlNvPmValues, GettersRefuseCountersNotAddedUnknownOrNeverMeasured) {
  NVPMUINT64 value = 0, cycles = 0;
  ASSERT_EQ(api_->AddCounterByName(context_, "shaded_pixel_count"), NVPM_OK);
  EXPECT_EQ(Get("shaded_pixel_count", 0, &value, &cycles), NVPM_ERROR_EXPERIMENT_NOT_RUN);
  RunOnePassExperiment(kSquares);
  EXPECT_EQ(Get("SamplesPassed", 0, &value, &cycles), NVPM_ERROR_COUNTER_NOT_ENABLED);
  EXPECT_EQ(Get("no such counter", 0, &value, &cycles), NVPM_ERROR_INVALID_COUNTER);
  EXPECT_EQ(api_->GetCounterValue(context_, 999999, 0, &value, &cycles), NVPM_ERROR_INVALID_COUNTER);
  EXPECT_EQ(Get("shaded_pixel_count", 1, &value, &cycles), NVPM_ERROR_INVALID_OBJECT);
  EXPECT_EQ(Get(nullptr, 0, &value, &cycles), NVPM_ERROR_INVALID_PARAMETER);
  EXPECT_EQ(Get("shaded_pixel_count", 0, nullptr, &cycles), NVPM_ERROR_INVALID_PARAMETER);
  // A counter added after the experiment: the previous experiment did not measure it.
  ASSERT_EQ(api_->AddCounterByName(context_, "SamplesPassed"), NVPM_OK);
  EXPECT_EQ(Get("SamplesPassed", 0, &value, &cycles), NVPM_ERROR_EXPERIMENT_NOT_RUN);
  EXPECT_EQ(Get("shaded_pixel_count", 0, &value, &cycles), NVPM_OK);
}

TEST_F(GlNvPmValues, NothingIsReadOrSampledWhileAnExperimentRuns) {
  ASSERT_EQ(api_->AddCounterByName(context_, "shaded_pixel_count"), NVPM_OK);
  RunOnePassExperiment(kSquares);
  NVPMUINT passes = 0;
  ASSERT_EQ(api_->BeginExperiment(context_, &passes), NVPM_OK);
  NVPMUINT64 value = 0, cycles = 0;
  EXPECT_EQ(Get("shaded_pixel_count", 0, &value, &cycles), NVPM_ERROR_EXPERIMENT_RUNNING);
  EXPECT_EQ(api_->Sample(context_, nullptr, nullptr), NVPM_ERROR_EXPERIMENT_RUNNING);
}

TEST_F(GlNvPmValues, SampleReadsEachFramesWorkSinceThePreviousSample) {
  ASSERT_EQ(api_->AddCounterByName(context_, "shaded_pixel_count"), NVPM_OK);
  NVPMUINT count = 0;
  ASSERT_EQ(api_->Sample(context_, nullptr, &count), NVPM_OK);  // begins the first interval
  EXPECT_EQ(count, 0u);
  for (int frame = 1; frame <= 3; ++frame) {
    work_.DrawAlignedSquares(kSquares * frame, kWidth, kHeight);
    glFinish();
    NVPMSampleValue samples[4];
    count = 4;
    ASSERT_EQ(api_->Sample(context_, samples, &count), NVPM_OK) << LastMessage();
    ASSERT_EQ(count, 1u);
    EXPECT_EQ(samples[0].unCounterID, Id(context_, "shaded_pixel_count"));
    EXPECT_EQ(samples[0].ulValue, 256u * kSquares * frame) << "frame " << frame;
    NVPMUINT64 value = 0, cycles = 0;
    ASSERT_EQ(Get("shaded_pixel_count", 0, &value, &cycles), NVPM_OK);  // object 0: the last interval
    EXPECT_EQ(value, samples[0].ulValue);
  }
}

TEST_F(GlNvPmValues, SampleCopiesNoMoreThanTheCallerHasRoomFor) {
  ASSERT_EQ(api_->AddCounterByName(context_, "shaded_pixel_count"), NVPM_OK);
  ASSERT_EQ(api_->AddCounterByName(context_, "IAVerticesIn"), NVPM_OK);
  ASSERT_EQ(api_->Sample(context_, nullptr, nullptr), NVPM_OK);
  work_.DrawAlignedSquares(kSquares, kWidth, kHeight);
  glFinish();
  NVPMSampleValue samples[2] = {};
  NVPMUINT count = 1;
  ASSERT_EQ(api_->Sample(context_, samples, &count), NVPM_OK);
  EXPECT_EQ(count, 1u);
  EXPECT_EQ(samples[1].unCounterID, 0u);
  // Both were read all the same.
  NVPMUINT64 value = 0, cycles = 0;
  EXPECT_EQ(Get("IAVerticesIn", 0, &value, &cycles), NVPM_OK);
  EXPECT_EQ(value, NVPMUINT64(kSquares));
}

TEST_F(GlNvPmValues, SampleExFlagsUpdatedValuesWithTheirTypeAndRefusesAnUnversionedArray) {
  ASSERT_EQ(api_->AddCounterByName(context_, "GPUTime"), NVPM_OK);
  ASSERT_EQ(api_->Sample(context_, nullptr, nullptr), NVPM_OK);
  work_.DrawAlignedSquares(kSquares, kWidth, kHeight);
  glFinish();
  NVPMSampleValueEx samples[1] = {};
  NVPMUINT count = 1;
  EXPECT_EQ(api_->SampleEx(context_, samples, &count), NVPM_ERROR_INVALID_PARAMETER);
  samples[0].ulVersion = NVPMSAMPLEVALUEEX_VERSION();
  ASSERT_EQ(api_->SampleEx(context_, samples, &count), NVPM_OK) << LastMessage();
  ASSERT_EQ(count, 1u);
  EXPECT_NE(samples[0].ulFlags & NVPMSAMPLEEX_FLAG_UPDATED, 0u);
  EXPECT_EQ(NVPMSAMPLEEX_FLAG_VALUE_TYPE(samples[0].ulFlags), NVPM_VALUE_TYPE_FLOAT64);
  EXPECT_GT(samples[0].dValue, 0.0);
}

TEST_F(GlNvPmValues, AnExperimentEndsTheOpenRealTimeInterval) {
  ASSERT_EQ(api_->AddCounterByName(context_, "shaded_pixel_count"), NVPM_OK);
  ASSERT_EQ(api_->Sample(context_, nullptr, nullptr), NVPM_OK);
  RunOnePassExperiment(kSquares);
  NVPMUINT64 value = 0, cycles = 0;
  ASSERT_EQ(Get("shaded_pixel_count", 0, &value, &cycles), NVPM_OK);
  EXPECT_EQ(value, 256u * kSquares);
  // Real-time mode starts over: the next Sample begins an interval and reads nothing.
  NVPMUINT count = 4;
  NVPMSampleValue samples[4];
  ASSERT_EQ(api_->Sample(context_, samples, &count), NVPM_OK);
  EXPECT_EQ(count, 0u);
}

}  // namespace
}  // namespace opengpa::testing
