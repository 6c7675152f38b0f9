#include "sample_stream.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <fstream>

namespace opengpa::profiling {
namespace {

// A stream file in the test's temporary directory, removed afterwards.
class StreamFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/opengpa-stream-test-XXXXXX";
    const int fd = mkstemp(pattern);
    ASSERT_GE(fd, 0);
    close(fd);
    path_ = pattern;
  }
  void TearDown() override { unlink(path_.c_str()); }
  std::unique_ptr<SampleStreamWriter> Writer() { return std::make_unique<SampleStreamWriter>(std::fopen(path_.c_str(), "a")); }
  std::string path_;
};

Sample MakeSample(std::uint64_t index, std::string name, double value) {
  Sample sample;
  sample.index = index;
  sample.name = std::move(name);
  sample.grid = {4, 2, 1};
  sample.block = {64, 1, 1};
  sample.start_ns = 1000 * index;
  sample.end_ns = 1000 * index + 500;
  sample.values = {value};
  return sample;
}

TEST_F(StreamFileTest, WhatTheWriterWritesReadsBackSortedByLaunchIndex) {
  {
    auto writer = Writer();
    writer->WriteHeader("cl", {{"GPUTime", "nanoseconds", "uint64"}});
    writer->WriteQueue({0, "queue 0", "pocl"});
    writer->WriteSample(MakeSample(1, "second", 2.5));
    writer->WriteSample(MakeSample(0, "first", 1.0));
    writer->WriteMessage("hello");
    writer->WriteEnd(2);
  }
  ProfileRun run;
  bool ended = false;
  std::string error;
  ASSERT_TRUE(ReadSampleStream(path_, &run, &ended, &error)) << error;
  EXPECT_TRUE(ended);
  EXPECT_EQ(run.api, "cl");
  EXPECT_EQ(run.device, "pocl");
  ASSERT_EQ(run.counters.size(), 1u);
  EXPECT_EQ(run.counters[0].name, "GPUTime");
  ASSERT_EQ(run.samples.size(), 2u);
  EXPECT_EQ(run.samples[0].name, "first");
  EXPECT_EQ(run.samples[1].name, "second");
  EXPECT_EQ(run.samples[1].values[0], 2.5);
  EXPECT_EQ(run.samples[1].grid, (std::array<std::uint64_t, 3>{4, 2, 1}));
  EXPECT_EQ(*run.samples[1].end_ns, 1500u);
  EXPECT_EQ(run.messages, std::vector<std::string>{"hello"});
}

TEST_F(StreamFileTest, AValueTheHardwareCouldNotProduceTravelsAsNullAndReadsAsNan) {
  {
    auto writer = Writer();
    writer->WriteHeader("cuda", {{"m", "byte", "float64"}});
    writer->WriteSample(MakeSample(0, "k", std::nan("")));
  }
  ProfileRun run;
  bool ended = true;
  std::string error;
  ASSERT_TRUE(ReadSampleStream(path_, &run, &ended, &error)) << error;
  EXPECT_FALSE(ended);
  ASSERT_EQ(run.samples.size(), 1u);
  EXPECT_TRUE(std::isnan(run.samples[0].values[0]));
}

TEST_F(StreamFileTest, ALineCutOffByACrashIsIgnored) {
  {
    auto writer = Writer();
    writer->WriteHeader("cl", {{"GPUTime", "nanoseconds", "uint64"}});
    writer->WriteSample(MakeSample(0, "k", 1));
  }
  std::ofstream(path_, std::ios::app) << "{\"type\":\"sample\",\"index\":1,\"na";
  ProfileRun run;
  bool ended = false;
  std::string error;
  ASSERT_TRUE(ReadSampleStream(path_, &run, &ended, &error)) << error;
  EXPECT_EQ(run.samples.size(), 1u);
}

TEST_F(StreamFileTest, AMalformedCompleteLineIsAnErrorNamingTheLine) {
  std::ofstream(path_) << "{\"type\":\"header\",\"api\":\"cl\",\"counters\":[]}\nnot json\n";
  ProfileRun run;
  bool ended = false;
  std::string error;
  EXPECT_FALSE(ReadSampleStream(path_, &run, &ended, &error));
  EXPECT_NE(error.find("line 2"), std::string::npos) << error;
}

TEST_F(StreamFileTest, ASampleWithTheWrongNumberOfValuesIsRefused) {
  std::ofstream(path_) << "{\"type\":\"header\",\"api\":\"cl\",\"counters\":[{\"name\":\"a\"},{\"name\":\"b\"}]}\n"
                       << "{\"type\":\"sample\",\"index\":0,\"name\":\"k\",\"values\":[1]}\n";
  ProfileRun run;
  bool ended = false;
  std::string error;
  EXPECT_FALSE(ReadSampleStream(path_, &run, &ended, &error));
}

TEST_F(StreamFileTest, ProgressCountsSamplesAsTheyAreAppended) {
  SampleStreamProgress progress(path_);
  EXPECT_EQ(progress.Poll(), 0u);
  auto writer = Writer();
  writer->WriteHeader("cl", {{"GPUTime", "nanoseconds", "uint64"}});
  writer->WriteSample(MakeSample(0, "k", 1));
  EXPECT_EQ(progress.Poll(), 1u);
  writer->WriteSample(MakeSample(1, "k", 1));
  writer->WriteSample(MakeSample(2, "k", 1));
  writer->WriteEnd(3);
  EXPECT_EQ(progress.Poll(), 3u);
  EXPECT_EQ(progress.Poll(), 3u);
}

TEST(CountersFromEnvironmentTest, SplitsOnCommasAndDropsEmptyNames) {
  setenv(kCountersVariable, "a.sum,,b.avg,", 1);
  EXPECT_EQ(CountersFromEnvironment(), (std::vector<std::string>{"a.sum", "b.avg"}));
  unsetenv(kCountersVariable);
  EXPECT_TRUE(CountersFromEnvironment().empty());
}

}  // namespace
}  // namespace opengpa::profiling
