// What `opengpa profile` does with samples once the program has run, without a GPU: application replay's
// joining of passes, the launch filter, the settings handed to the injected library, and GPA counters
// evaluated from measured columns with the library's counter engine.
#include <gtest/gtest.h>

#include <unistd.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "profiler/counter_outputs.h"
#include "profiler/launch_filter.h"
#include "profiler/profile_environment.h"
#include "profiler/replay_merge.h"
#include "profiler/sample_stream.h"

namespace opengpa::profiling {
namespace {

Sample Launch(std::uint64_t index, const std::string& name, std::vector<double> values,
              std::array<std::uint64_t, 3> grid = {64, 1, 1}) {
  Sample sample;
  sample.index = index;
  sample.name = name;
  sample.grid = grid;
  sample.block = {256, 1, 1};
  sample.values = std::move(values);
  return sample;
}

ProfileRun Pass(std::vector<std::string> columns, std::vector<Sample> samples, std::uint32_t pass) {
  ProfileRun run;
  run.api = "cuda";
  for (auto& column : columns) run.counters.push_back({column, "", "float64"});
  run.samples = std::move(samples);
  run.replay = "application";
  run.pass = pass;
  run.passes = 2;
  return run;
}

TEST(ApplicationReplayTest, JoinsTheColumnsOfEveryPassLaunchByLaunch) {
  const std::vector<ProfileRun> passes = {
      Pass({"a.sum"}, {Launch(0, "add", {1}), Launch(1, "scale", {2})}, 0),
      Pass({"b.sum", "c.sum"}, {Launch(0, "add", {10, 100}), Launch(1, "scale", {20, 200})}, 1)};
  ProfileRun merged;
  std::string error;
  ASSERT_TRUE(MergeReplayPasses(passes, &merged, &error)) << error;
  ASSERT_EQ(merged.counters.size(), 3u);
  EXPECT_EQ(merged.counters[0].name, "a.sum");
  EXPECT_EQ(merged.counters[2].name, "c.sum");
  ASSERT_EQ(merged.samples.size(), 2u);
  EXPECT_EQ(merged.samples[0].values, (std::vector<double>{1, 10, 100}));
  EXPECT_EQ(merged.samples[1].values, (std::vector<double>{2, 20, 200}));
  EXPECT_EQ(merged.passes, 2u);
}

TEST(ApplicationReplayTest, RefusesPassesThatLaunchedAnotherKernelAtTheSamePosition) {
  const std::vector<ProfileRun> passes = {Pass({"a.sum"}, {Launch(0, "add", {1}), Launch(1, "scale", {2})}, 0),
                                          Pass({"b.sum"}, {Launch(0, "add", {1}), Launch(1, "fill", {2})}, 1)};
  ProfileRun merged;
  std::string error;
  EXPECT_FALSE(MergeReplayPasses(passes, &merged, &error));
  EXPECT_NE(error.find("pass 2 of 2"), std::string::npos) << error;
  EXPECT_NE(error.find("launch 2"), std::string::npos) << error;
  EXPECT_NE(error.find("fill"), std::string::npos) << error;
}

TEST(ApplicationReplayTest, RefusesPassesThatLaunchedTheSameKernelWithAnotherGrid) {
  const std::vector<ProfileRun> passes = {Pass({"a.sum"}, {Launch(0, "add", {1}, {64, 1, 1})}, 0),
                                          Pass({"b.sum"}, {Launch(0, "add", {1}, {128, 1, 1})}, 1)};
  ProfileRun merged;
  std::string error;
  EXPECT_FALSE(MergeReplayPasses(passes, &merged, &error));
  EXPECT_NE(error.find("128x1x1"), std::string::npos) << error;
}

TEST(ApplicationReplayTest, JoinsLaunchesOfTheSameGraphWhateverCuptiNumberedItInEachRun) {
  Sample first = Launch(0, "CUDA graph: 2 kernel nodes (a; b)", {1}, {0, 0, 0});
  first.graph = 4;
  Sample second = first;
  second.graph = 11;  // the graph instantiated afresh in this run
  second.values = {2};
  ProfileRun merged;
  std::string error;
  ASSERT_TRUE(MergeReplayPasses({Pass({"a.sum"}, {first}, 0), Pass({"b.sum"}, {second}, 1)}, &merged, &error)) << error;
  EXPECT_EQ(merged.samples[0].graph, 4u);
  EXPECT_EQ(merged.samples[0].values, (std::vector<double>{1, 2}));
}

TEST(ApplicationReplayTest, RefusesAGraphLaunchWhereTheOtherPassLaunchedTheKernelPlainly) {
  Sample node = Launch(0, "gemm", {1});
  node.graph = 3;
  node.graph_node = 0;
  ProfileRun merged;
  std::string error;
  EXPECT_FALSE(
      MergeReplayPasses({Pass({"a.sum"}, {Launch(0, "gemm", {1})}, 0), Pass({"b.sum"}, {node}, 1)}, &merged, &error));
  EXPECT_NE(error.find("launch 1"), std::string::npos) << error;
}

TEST(ApplicationReplayTest, RefusesPassesThatProfiledAnotherNumberOfLaunches) {
  const std::vector<ProfileRun> passes = {Pass({"a.sum"}, {Launch(0, "add", {1}), Launch(1, "add", {2})}, 0),
                                          Pass({"b.sum"}, {Launch(0, "add", {1})}, 1)};
  ProfileRun merged;
  std::string error;
  EXPECT_FALSE(MergeReplayPasses(passes, &merged, &error));
  EXPECT_NE(error.find("1 launches where pass 1 profiled 2"), std::string::npos) << error;
}

// A run of two ranks: the processes in `order` (pid, rank), each launching the same kernels (as DDP's ranks do),
// with `base` + rank in their one column, so that a launch's value says which rank measured it.
ProfileRun RanksPass(const std::string& column, std::vector<std::pair<std::uint32_t, std::int64_t>> order, double base,
                     std::uint32_t pass) {
  std::vector<Sample> samples;
  ProfileRun run;
  for (const auto& [pid, rank] : order) {
    run.processes.push_back({pid, rank, "host", {}});
    for (std::uint64_t i = 0; i < 2; ++i) {
      Sample sample = Launch(i, i == 0 ? "gemm" : "ncclDevKernel_AllReduce_Sum_f32_RING_LL", {base + rank});
      sample.pid = pid;
      samples.push_back(sample);
    }
  }
  ProfileRun made = Pass({column}, std::move(samples), pass);
  made.processes = run.processes;
  return made;
}

TEST(ApplicationReplayTest, JoinsTheRanksOfAJobRankWithRankWhateverOrderTheyStartedIn) {
  // Pass 1: rank 0 (pid 10) wrote first; pass 2: rank 1 (pid 21) did. Their launches are alike, so a join by
  // position would silently give rank 0 the values rank 1 measured in pass 2.
  const std::vector<ProfileRun> passes = {RanksPass("a.sum", {{10, 0}, {11, 1}}, 100, 0),
                                          RanksPass("b.sum", {{21, 1}, {20, 0}}, 200, 1)};
  ProfileRun merged;
  std::string error;
  ASSERT_TRUE(MergeReplayPasses(passes, &merged, &error)) << error;
  ASSERT_EQ(merged.samples.size(), 4u);
  for (const Sample& sample : merged.samples) {
    const double rank = sample.pid == 10 ? 0 : 1;
    EXPECT_EQ(sample.values, (std::vector<double>{100 + rank, 200 + rank})) << "pid " << sample.pid;
  }
}

TEST(ApplicationReplayTest, ProcessesWithoutRanksAreJoinedByTheirOrder) {
  ProfileRun first = RanksPass("a.sum", {{10, 0}, {11, 1}}, 100, 0);
  ProfileRun second = RanksPass("b.sum", {{21, 1}, {20, 0}}, 200, 1);
  for (ProfileRun* run : {&first, &second}) {
    for (ProcessInfo& process : run->processes) process.rank.reset();
  }
  ProfileRun merged;
  std::string error;
  ASSERT_TRUE(MergeReplayPasses({first, second}, &merged, &error)) << error;
  EXPECT_EQ(merged.samples[0].values, (std::vector<double>{100, 201}));  // as before: position by position
}

TEST(LaunchFilterTest, ProfilesMatchingLaunchesAfterTheSkippedOnesUpToTheCount) {
  LaunchFilter filter;
  std::string error;
  ASSERT_TRUE(LaunchFilter::Create("^sc", 1, 2, &filter, &error)) << error;
  std::vector<bool> profiled;
  for (const char* name : {"scale", "add", "scale", "scan", "scale", "add"}) profiled.push_back(filter.Profile(name));
  EXPECT_EQ(profiled, (std::vector<bool>{false, false, true, true, false, false}));
  EXPECT_TRUE(filter.Exhausted());
}

TEST(LaunchFilterTest, WithoutOptionsProfilesEveryLaunchAndIsNeverExhausted) {
  LaunchFilter filter;
  std::string error;
  ASSERT_TRUE(LaunchFilter::Create("", 0, 0, &filter, &error));
  for (int i = 0; i < 100; ++i) EXPECT_TRUE(filter.Profile("k" + std::to_string(i)));
  EXPECT_FALSE(filter.Exhausted());
}

TEST(LaunchFilterTest, NamesAnExpressionThatDoesNotCompile) {
  LaunchFilter filter;
  std::string error;
  EXPECT_FALSE(LaunchFilter::Create("gemm(", 0, 0, &filter, &error));
  EXPECT_NE(error.find("--kernel-name \"gemm(\""), std::string::npos) << error;
}

TEST(ProfileEnvironmentTest, SettingsReadBackAsTheCliWroteThem) {
  ProfileSettings written;
  written.replay = ReplayMode::kApplication;
  written.pass = 2;
  written.flush_caches = false;
  written.kernel_name = "gemm|conv";
  written.launch_skip = 5;
  written.launch_count = 7;
  written.collective_kernel = "cross_device_reduce";
  for (const auto& [name, value] : SettingsEnvironment(written)) setenv(name.c_str(), value.c_str(), 1);
  ProfileSettings read;
  std::string error;
  ASSERT_TRUE(SettingsFromEnvironment(&read, &error)) << error;
  EXPECT_EQ(read.replay, ReplayMode::kApplication);
  EXPECT_EQ(read.pass, 2u);
  EXPECT_FALSE(read.flush_caches);
  EXPECT_EQ(read.kernel_name, "gemm|conv");
  EXPECT_EQ(read.launch_skip, 5u);
  EXPECT_EQ(read.launch_count, 7u);
  EXPECT_EQ(read.collective_kernel, "cross_device_reduce");
  setenv(kReplayVariable, "sometimes", 1);
  EXPECT_FALSE(SettingsFromEnvironment(&read, &error));
  EXPECT_NE(error.find("OPENGPA_PROFILE_REPLAY=sometimes"), std::string::npos) << error;
  for (const auto& [name, value] : SettingsEnvironment(written)) unsetenv(name.c_str());
}

TEST(ProfileEnvironmentTest, GraphProfilingIsNodeByDefaultTravelsAsWrittenAndABadValueIsRefused) {
  ProfileSettings defaults;
  EXPECT_EQ(defaults.graph_profiling, GraphProfiling::kNode);  // ncu's default too
  ProfileSettings written;
  written.graph_profiling = GraphProfiling::kGraph;
  for (const auto& [name, value] : SettingsEnvironment(written)) setenv(name.c_str(), value.c_str(), 1);
  EXPECT_STREQ(std::getenv(kGraphProfilingVariable), "graph");
  ProfileSettings read;
  std::string error;
  ASSERT_TRUE(SettingsFromEnvironment(&read, &error)) << error;
  EXPECT_EQ(read.graph_profiling, GraphProfiling::kGraph);
  setenv(kGraphProfilingVariable, "nodes", 1);
  EXPECT_FALSE(SettingsFromEnvironment(&read, &error));
  EXPECT_NE(error.find("OPENGPA_PROFILE_GRAPH_PROFILING=nodes is not node or graph"), std::string::npos) << error;
  for (const auto& [name, value] : SettingsEnvironment(written)) unsetenv(name.c_str());
  EXPECT_EQ(ParseGraphProfiling("node"), GraphProfiling::kNode);
  EXPECT_FALSE(ParseGraphProfiling("").has_value());
}

ProfileRun MeasuredRun() {
  ProfileRun run;
  run.counters = {{"gr__cycles_active.avg", "cycle", "float64"},
                  {"gr__cycles_elapsed.avg", "cycle", "float64"},
                  {"gpu__time_duration.sum", "nanosecond", "float64"},
                  {"dram__bytes_read.sum", "byte", "float64"}};
  run.outputs = {
      {"GPUTime", "nanoseconds", "float64", "gr__cycles_active.avg / gr__cycles_elapsed.avg * gpu__time_duration.sum"},
      {"FetchSize", "kilobytes", "float64", "dram__bytes_read.sum / 1024"},
      {"dram__bytes_read.sum", "byte", "float64", "dram__bytes_read.sum"},
      {"BytesPerSm", "bytes", "float64", "dram__bytes_read.sum / SM_COUNT"}};
  run.constants = {{"SM_COUNT", 128}};
  run.samples = {Launch(0, "copy", {900, 1000, 5000, 4096}), Launch(1, "copy", {900, 1000, 5000, std::nan("")})};
  return run;
}

TEST(CounterOutputsTest, EvaluatesGpaFormulasOverTheMeasuredColumnsAndConstants) {
  ProfileRun run = MeasuredRun();
  std::string error;
  ASSERT_TRUE(EvaluateOutputs(&run, &error)) << error;
  ASSERT_EQ(run.counters.size(), 4u);
  EXPECT_EQ(run.counters[0].name, "GPUTime");
  EXPECT_EQ(run.counters[0].usage, "nanoseconds");
  EXPECT_DOUBLE_EQ(run.samples[0].values[0], 4500.0);
  EXPECT_DOUBLE_EQ(run.samples[0].values[1], 4.0);
  EXPECT_DOUBLE_EQ(run.samples[0].values[2], 4096.0);
  EXPECT_DOUBLE_EQ(run.samples[0].values[3], 32.0);
  EXPECT_TRUE(run.outputs.empty());
}

TEST(CounterOutputsTest, LeavesAnOutputUnavailableWhenAnInputWasNotMeasured) {
  ProfileRun run = MeasuredRun();
  std::string error;
  ASSERT_TRUE(EvaluateOutputs(&run, &error)) << error;
  EXPECT_DOUBLE_EQ(run.samples[1].values[0], 4500.0);
  EXPECT_TRUE(std::isnan(run.samples[1].values[1]));
}

TEST(CounterOutputsTest, NamesTheCounterWhoseFormulaNamesAnUnmeasuredMetric) {
  ProfileRun run = MeasuredRun();
  run.outputs.push_back({"L2CacheHit", "percentage", "float64", "lts__t_request_hit_rate.pct"});
  std::string error;
  EXPECT_FALSE(EvaluateOutputs(&run, &error));
  EXPECT_NE(error.find("L2CacheHit"), std::string::npos) << error;
}

TEST(CounterOutputsTest, AfterAnInterruptedReplayOutputsOfPassesThatNeverRanAreUnavailable) {
  ProfileRun run = MeasuredRun();
  run.outputs.push_back({"L2CacheHit", "percentage", "float64", "lts__t_request_hit_rate.pct"});
  std::string error;
  ASSERT_TRUE(EvaluateOutputs(&run, &error, true)) << error;
  EXPECT_DOUBLE_EQ(run.samples[0].values[0], 4500.0);
  EXPECT_TRUE(std::isnan(run.samples[0].values[4]));
}

TEST(SampleStreamHeaderTest, OutputsConstantsAndReplayReadBackAsWritten) {
  char path[] = "/tmp/opengpa-header-test-XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  close(fd);
  ProfileRun written = MeasuredRun();
  written.api = "cuda";
  written.constants.emplace_back("UNKNOWN_CLOCK", std::nan(""));  // a constant the device did not report
  written.replay = "application";
  written.pass = 1;
  written.passes = 3;
  {
    SampleStreamWriter writer(std::fopen(path, "w"));
    writer.WriteHeader(written);
    writer.WriteEnd(0);
  }
  ProfileRun read;
  bool ended = false;
  std::string error;
  ASSERT_TRUE(ReadSampleStream(path, &read, &ended, &error)) << error;
  unlink(path);
  EXPECT_TRUE(ended);
  ASSERT_EQ(read.outputs.size(), written.outputs.size());
  EXPECT_EQ(read.outputs[0].name, "GPUTime");
  EXPECT_EQ(read.outputs[0].formula, written.outputs[0].formula);
  ASSERT_EQ(read.constants.size(), 1u);  // the NaN one is left out: JSON has no NaN
  EXPECT_EQ(read.constants[0].first, "SM_COUNT");
  EXPECT_EQ(read.constants[0].second, 128.0);
  EXPECT_EQ(read.replay, "application");
  EXPECT_EQ(read.pass, 1u);
  EXPECT_EQ(read.passes, 3u);
}

}  // namespace
}  // namespace opengpa::profiling
