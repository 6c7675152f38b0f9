#include "profiler/sampled_profile.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <tuple>

#include "profiler/sample_stream.h"

namespace opengpa::profiling {
namespace {

Sample Launch(std::uint32_t pid, std::uint64_t correlation, std::uint32_t queue, std::uint64_t start,
              std::uint64_t end) {
  Sample sample;
  sample.pid = pid;
  sample.index = correlation;
  sample.name = "k" + std::to_string(correlation);
  sample.queue = queue;
  sample.start_ns = start;
  sample.end_ns = end;
  return sample;
}

GpuSampleSeries Gpu(const std::string& uuid, int index, std::uint64_t start, const std::vector<double>& values) {
  GpuSampleSeries gpu;
  gpu.gpu.uuid = uuid;
  gpu.gpu.index = index;
  for (std::size_t i = 0; i < values.size(); ++i) {
    gpu.samples.spans.push_back({start + 100 * i, start + 100 * (i + 1)});
    gpu.samples.values.push_back(values[i]);
  }
  return gpu;
}

TEST(SampledProfileTest, LaunchesGetTheirOwnGpusSamplesAndAreNumberedPerProcess) {
  ProfileRun run;
  // Two processes; the second's queue runs on the GPU the CLI calls 1 (matched by UUID, not by the index the
  // process used, which its CUDA_VISIBLE_DEVICES changed).
  run.queues = {{0, "stream 7", "H100", {0, "GPU-a", ""}}, {1, "stream 7 (pid 2)", "H100", {0, "GPU-b", ""}}};
  run.samples = {Launch(1, 40, 0, 0, 100), Launch(1, 57, 0, 100, 300), Launch(2, 9, 1, 0, 200)};
  run.other_work = {{1, 0, "memcpy", 300, 400}};
  const std::vector<GpuSampleSeries> gpus = {Gpu("GPU-a", 0, 0, {10, 20, 30, 40}), Gpu("GPU-b", 1, 0, {5, 6})};
  AttributeSampledRun(gpus, {{"dram__bytes_read.sum", "byte", "float64"}}, {MetricKind::kAmount}, 100, &run);

  ASSERT_EQ(run.counters.size(), 5u);
  EXPECT_EQ(run.counters[1].name, kCoverageColumn);
  EXPECT_EQ(run.samples[0].index, 0u);
  EXPECT_EQ(run.samples[1].index, 1u);
  EXPECT_EQ(run.samples[2].index, 0u);
  EXPECT_DOUBLE_EQ(run.samples[0].values[0], 10.0);
  EXPECT_DOUBLE_EQ(run.samples[1].values[0], 20.0 + 30.0);  // the copy took the fourth sample
  EXPECT_DOUBLE_EQ(run.samples[2].values[0], 5.0 + 6.0);
  EXPECT_DOUBLE_EQ(run.samples[1].values[1], 1.0);  // coverage
  EXPECT_DOUBLE_EQ(run.samples[1].values[2], 2.0);  // samples
  EXPECT_DOUBLE_EQ(run.samples[1].values[3], 0.0);  // not overlapped
  EXPECT_DOUBLE_EQ(run.samples[1].values[4], 1.0);  // 200 ns < 3 intervals of 100
}

TEST(SampledProfileTest, ALaunchOnAGpuWithoutSamplesHasNoValues) {
  ProfileRun run;
  run.queues = {{0, "stream 1", "H100", {3, "GPU-z", ""}}};
  run.samples = {Launch(1, 1, 0, 0, 1000)};
  AttributeSampledRun({Gpu("GPU-a", 0, 0, {1})}, {{"m", "", "float64"}}, {MetricKind::kReading}, 100, &run);
  EXPECT_TRUE(std::isnan(run.samples[0].values[0]));
  EXPECT_DOUBLE_EQ(run.samples[0].values[1], 0.0);
}

// --nvtx-include in the sampled mode: the rows in a named range (at any depth, in any domain named), then
// --kernel-name and the launch counts among them, as the exact mode chooses.
TEST(SampledProfileTest, NvtxIncludeKeepsTheRowsOfTheNamedRangesBeforeTheLaunchCounts) {
  ProfileRun run;
  const std::vector<std::vector<std::string>> ranges = {
      {}, {"step", "mm"}, {"step", "relu"}, {"train@step", "mm"}, {"step", "mm"}};
  for (std::uint64_t i = 0; i < ranges.size(); ++i) {
    Sample sample;
    sample.pid = 1;
    sample.index = i;
    sample.name = "kernel";
    sample.nvtx = ranges[i];
    run.samples.push_back(sample);
  }
  std::string error;
  ASSERT_TRUE(KeepChosenLaunches("", 1, 0, &run, &error, {"mm/"})) << error;
  ASSERT_EQ(run.samples.size(), 2u);  // launches 1, 3 and 4 are in "mm"; the first of them skipped
  EXPECT_EQ(run.samples[0].index, 3u);
  EXPECT_EQ(run.samples[1].index, 4u);
  ASSERT_TRUE(KeepChosenLaunches("", 0, 0, &run, &error, {"train@step"})) << error;
  ASSERT_EQ(run.samples.size(), 1u);
  EXPECT_EQ(run.samples[0].index, 3u);
  EXPECT_FALSE(KeepChosenLaunches("", 0, 0, &run, &error, {"a/b"}));
  EXPECT_NE(error.find("a/b"), std::string::npos);
}

}  // namespace
}  // namespace opengpa::profiling

namespace opengpa::profiling {
namespace {

TEST(SampledProfileTest, TheFilterKeepsTheLaunchesTheExactModeWouldChoosePerProcess) {
  ProfileRun run;
  for (std::uint32_t pid : {1u, 2u}) {
    for (std::uint64_t i = 0; i < 6; ++i) {
      Sample sample;
      sample.pid = pid;
      sample.index = i;
      sample.name = i % 2 == 0 ? "gemm_kernel" : "copy_kernel";
      run.samples.push_back(sample);
    }
  }
  std::string error;
  ASSERT_TRUE(KeepChosenLaunches("gemm", 1, 1, &run, &error)) << error;
  // In each process: the gemm launches are 0, 2, 4; the first is skipped and one is kept.
  ASSERT_EQ(run.samples.size(), 2u);
  EXPECT_EQ(run.samples[0].pid, 1u);
  EXPECT_EQ(run.samples[0].index, 2u);
  EXPECT_EQ(run.samples[1].pid, 2u);
  EXPECT_EQ(run.samples[1].index, 2u);
  EXPECT_FALSE(KeepChosenLaunches("(", 0, 0, &run, &error));
  EXPECT_NE(error.find("("), std::string::npos);
  ASSERT_TRUE(KeepChosenLaunches("", 0, 0, &run, &error));
  EXPECT_EQ(run.samples.size(), 2u);  // no filter: every row stays
}

}  // namespace
}  // namespace opengpa::profiling

namespace opengpa::profiling {
namespace {

// A sampled run's launches carry the NVTX ranges open at their launch through the timeline's stream (what
// kernel_timeline.h writes), and each range's launches add up to the samples the GPU took while they ran.
TEST(SampledProfileTest, LaunchesKeepTheirRangesThroughTheTimelineAndEachRangeSumsItsLaunchesShares) {
  char path[] = "/tmp/opengpa-sampled-ranges-XXXXXX";
  const int descriptor = mkstemp(path);
  ASSERT_GE(descriptor, 0);
  {
    SampleStreamWriter writer(fdopen(descriptor, "w"), 7);
    ProfileRun header;
    header.api = "cuda";
    header.replay = "none";
    writer.WriteHeader(header);
    Queue queue;
    queue.name = "stream 7";
    queue.device = "H100";
    queue.gpu = {0, "GPU-a", ""};
    writer.WriteQueue(queue);
    // Correlation ids as CUPTI gives them: increasing, not from 0. Launches of "load" twice, "mm" once, and one
    // launch outside every range; a copy in between takes its share without being a row.
    const std::vector<std::tuple<std::uint64_t, std::uint64_t, std::uint64_t, std::vector<std::string>>> launches = {
        {41, 0, 200, {"step", "load"}},
        {44, 200, 500, {"step", "mm"}},
        {47, 600, 700, {"step", "load"}},
        {52, 700, 800, {}}};
    for (const auto& [correlation, start, end, ranges] : launches) {
      Sample sample;
      sample.index = correlation;
      sample.name = "k";
      sample.start_ns = start;
      sample.end_ns = end;
      sample.nvtx = ranges;
      writer.WriteSample(sample);
    }
    writer.WriteWork({7, 0, "memcpy", 500, 600});
    writer.WriteEnd(4);
  }
  ProfileRun run;
  bool ended = false;
  std::string error;
  ASSERT_TRUE(ReadSampleStream(path, &run, &ended, &error)) << error;
  std::remove(path);
  EXPECT_TRUE(ended);
  // Eight samples of 100 ns, 1 to 8 bytes each.
  GpuSampleSeries gpu = Gpu("GPU-a", 0, 0, {1, 2, 3, 4, 5, 6, 7, 8});
  AttributeSampledRun({gpu}, {{"dram__bytes_read.sum", "byte", "float64"}}, {MetricKind::kAmount}, 100, &run);
  ASSERT_EQ(run.samples.size(), 4u);
  EXPECT_EQ(run.samples[0].nvtx, (std::vector<std::string>{"step", "load"}));
  EXPECT_EQ(run.samples[1].nvtx, (std::vector<std::string>{"step", "mm"}));
  EXPECT_TRUE(run.samples[3].nvtx.empty());
  std::map<std::string, double> per_range;
  double total = 0.0;
  for (const Sample& sample : run.samples) {
    std::string path_name;
    for (const std::string& range : sample.nvtx) path_name += "/" + range;
    per_range[path_name] += sample.values[0];
    total += sample.values[0];
  }
  EXPECT_DOUBLE_EQ(per_range["/step/load"], 1.0 + 2.0 + 7.0);  // samples 0-1 and 6
  EXPECT_DOUBLE_EQ(per_range["/step/mm"], 3.0 + 4.0 + 5.0);
  EXPECT_DOUBLE_EQ(per_range[""], 8.0);
  EXPECT_DOUBLE_EQ(total, 36.0 - 6.0);  // everything but the copy's sample
}

}  // namespace
}  // namespace opengpa::profiling
