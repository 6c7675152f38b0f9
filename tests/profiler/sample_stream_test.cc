#include "profiler/sample_stream.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <set>

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
  std::unique_ptr<SampleStreamWriter> Writer() {
    return std::make_unique<SampleStreamWriter>(std::fopen(path_.c_str(), "a"));
  }
  // A writer as the library in another process of the program (an exec'd child) opens it.
  std::unique_ptr<SampleStreamWriter> WriterOf(std::uint32_t pid) {
    return std::make_unique<SampleStreamWriter>(std::fopen(path_.c_str(), "a"), pid);
  }
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
    writer->WriteQueue({0, "queue 0", "pocl", {}});
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
  // Each message names the process that wrote it.
  EXPECT_EQ(run.messages, std::vector<std::string>{"pid " + std::to_string(getpid()) + ": hello"});
}

TEST_F(StreamFileTest, HeadersSayTheRankHostAndAskedVariablesOfTheirProcessAndQueuesTheirGpu) {
  setenv("RANK", "not a number", 1);  // skipped: the next variable that holds an integer gives the rank
  setenv("OMPI_COMM_WORLD_RANK", "5", 1);
  setenv("PMI_RANK", "6", 1);
  setenv(kNameVariablesVariable, "OPENGPA_TEST_JOB,OPENGPA_TEST_UNSET", 1);
  setenv("OPENGPA_TEST_JOB", "train-7", 1);
  unsetenv("OPENGPA_TEST_UNSET");
  {
    auto writer = WriterOf(100);
    writer->WriteHeader("cuda", {{"m", "", "float64"}});
    writer->WriteQueue({7, "stream 7", "H100", {2, "GPU-aa", "0000:19:00.0"}});
    writer->WriteSample(MakeSample(0, "k", 1.0));
    writer->WriteUnprofiled("its CUDA context was not profiled: busy");
    writer->WriteEnd(1);
  }
  for (const char* variable :
       {"RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK", kNameVariablesVariable, "OPENGPA_TEST_JOB"}) {
    unsetenv(variable);
  }
  ProfileRun run;
  bool ended = false;
  std::string error;
  ASSERT_TRUE(ReadSampleStream(path_, &run, &ended, &error)) << error;
  ASSERT_EQ(run.processes.size(), 1u);
  EXPECT_EQ(run.processes[0].pid, 100u);
  EXPECT_EQ(run.processes[0].rank, 5);
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  EXPECT_EQ(run.processes[0].host, host);
  EXPECT_EQ(run.processes[0].environment,
            (std::vector<std::pair<std::string, std::string>>{{"OPENGPA_TEST_JOB", "train-7"}}));
  ASSERT_EQ(run.queues.size(), 1u);
  EXPECT_EQ(run.queues[0].gpu.index, 2);
  EXPECT_EQ(run.queues[0].gpu.uuid, "GPU-aa");
  EXPECT_EQ(run.queues[0].gpu.pci_bus_id, "0000:19:00.0");
  ASSERT_EQ(run.unprofiled.size(), 1u);
  EXPECT_EQ(run.unprofiled[0].pid, 100u);
  EXPECT_EQ(run.unprofiled[0].reason, "its CUDA context was not profiled: busy");
}

TEST_F(StreamFileTest, AQueueAProcessNamesAgainAfterItsProfilerWasSetUpAfreshIsOneQueue) {
  {
    auto writer = WriterOf(100);
    writer->WriteHeader("cuda", {{"m", "", "float64"}});
    writer->WriteQueue({7, "stream 7", "H100", {}});
    writer->WriteSample(MakeSample(0, "k", 1.0));
    writer->WriteQueue({7, "stream 7", "H100", {}});  // after a hand-over of the GPU (gpu_turns.h)
    writer->WriteSample(MakeSample(1, "k", 1.0));
    writer->WriteEnd(2);
  }
  ProfileRun run;
  bool ended = false;
  std::string error;
  ASSERT_TRUE(ReadSampleStream(path_, &run, &ended, &error)) << error;
  ASSERT_EQ(run.queues.size(), 1u);
  EXPECT_EQ(run.samples[0].queue, run.samples[1].queue);
}

TEST(RankFromEnvironmentTest, TakesTheFirstOfTheLaunchersVariablesThatHoldsARank) {
  for (const char* variable : {"RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK", "SLURM_PROCID"}) unsetenv(variable);
  EXPECT_FALSE(RankFromEnvironment().has_value());
  setenv("SLURM_PROCID", "12", 1);
  EXPECT_EQ(RankFromEnvironment(), 12);
  setenv("RANK", "3", 1);
  EXPECT_EQ(RankFromEnvironment(), 3);
  setenv("RANK", "-1", 1);  // not a rank
  EXPECT_EQ(RankFromEnvironment(), 12);
  unsetenv("RANK");
  unsetenv("SLURM_PROCID");
}

TEST_F(StreamFileTest, TheContextAndTheGraphOfACudaSampleReadBackAndAPlainLaunchHasNoGraph) {
  {
    auto writer = Writer();
    writer->WriteHeader("cuda", {{"smsp__inst_executed.sum", "instruction", "float64"}});
    Sample graph = MakeSample(0, "CUDA graph: 2 kernel nodes (a; b)", 10);
    graph.context = 2;
    graph.graph = 5;
    Sample node = MakeSample(2, "gemm", 20);
    node.graph = 6;
    node.graph_node = 0;
    writer->WriteSample(graph);
    writer->WriteSample(node);
    writer->WriteSample(MakeSample(3, "plain", 30));
    writer->WriteEnd(3);
  }
  ProfileRun run;
  bool ended = false;
  std::string error;
  ASSERT_TRUE(ReadSampleStream(path_, &run, &ended, &error)) << error;
  ASSERT_EQ(run.samples.size(), 3u);
  EXPECT_EQ(run.samples[0].context, 2u);
  EXPECT_EQ(run.samples[0].graph, 5u);
  EXPECT_FALSE(run.samples[0].graph_node.has_value());
  EXPECT_EQ(run.samples[1].graph, 6u);
  EXPECT_EQ(run.samples[1].graph_node, 0u);
  EXPECT_EQ(run.samples[2].context, 0u);
  EXPECT_FALSE(run.samples[2].graph.has_value());
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

TEST_F(StreamFileTest, ProgressNamesTheProcessesThatWroteButHaveNotEnded) {
  SampleStreamProgress progress(path_);
  progress.Poll();
  EXPECT_TRUE(progress.Unfinished().empty());
  auto parent = WriterOf(100);
  auto child = WriterOf(4000000000u);  // pids are read whole, however long
  parent->WriteHeader("cl", {{"GPUTime", "nanoseconds", "uint64"}});
  child->WriteHeader("cl", {{"GPUTime", "nanoseconds", "uint64"}});
  Sample sample = MakeSample(0, "a \"pid\":7 in a name", 1);  // a kernel name is never taken for the field
  child->WriteSample(sample);
  progress.Poll();
  EXPECT_EQ(progress.Unfinished(), (std::vector<std::uint32_t>{100, 4000000000u}));
  EXPECT_EQ(progress.Writers(), (std::set<std::uint32_t>{100, 4000000000u}));
  EXPECT_FALSE(progress.HasEnded(100));
  parent->WriteEnd(0);
  progress.Poll();
  EXPECT_EQ(progress.Unfinished(), (std::vector<std::uint32_t>{4000000000u}));
  // The parent's end is what `opengpa profile --mode sampled` waits for before it stops PM sampling early, and
  // only with no other process still writing.
  EXPECT_TRUE(progress.HasEnded(100));
  EXPECT_FALSE(progress.HasEnded(4000000000u));
  EXPECT_FALSE(progress.HasEnded(7));  // a pid inside a kernel name wrote nothing
  child->WriteEnd(1);
  progress.Poll();
  EXPECT_TRUE(progress.Unfinished().empty());
  EXPECT_TRUE(progress.HasEnded(4000000000u));
}

TEST_F(StreamFileTest, ProcessesWritingTheSameStreamAreToldApartByPid) {
  {
    // The parent and an exec'd child each write a header, a queue of the same CUPTI id, launches numbered
    // from 0 and an end, their lines interleaved in time.
    auto parent = WriterOf(100);
    auto child = WriterOf(200);
    auto on_stream_7 = [](std::uint64_t index, std::string name, double value) {
      Sample sample = MakeSample(index, std::move(name), value);
      sample.queue = 7;
      return sample;
    };
    parent->WriteHeader("cuda", {{"smsp__inst_executed.sum", "", "float64"}});
    parent->WriteQueue({7, "stream 7", "H100", {}});
    parent->WriteSample(on_stream_7(0, "parent_first", 1.0));
    child->WriteHeader("cuda", {{"smsp__inst_executed.sum", "", "float64"}});
    child->WriteQueue({7, "stream 7", "H100", {}});
    child->WriteSample(on_stream_7(1, "child_second", 4.0));
    child->WriteSample(on_stream_7(0, "child_first", 3.0));
    parent->WriteSample(on_stream_7(1, "parent_second", 2.0));
    child->WriteEnd(2);
    parent->WriteEnd(2);
  }
  ProfileRun run;
  bool ended = false;
  std::string error;
  ASSERT_TRUE(ReadSampleStream(path_, &run, &ended, &error)) << error;
  EXPECT_TRUE(ended);
  ASSERT_EQ(run.samples.size(), 4u);
  // Grouped by process in the order they first wrote, each in its own launch order.
  EXPECT_EQ(run.samples[0].name, "parent_first");
  EXPECT_EQ(run.samples[1].name, "parent_second");
  EXPECT_EQ(run.samples[2].name, "child_first");
  EXPECT_EQ(run.samples[3].name, "child_second");
  EXPECT_EQ(run.samples[0].pid, 100u);
  EXPECT_EQ(run.samples[1].pid, 100u);
  EXPECT_EQ(run.samples[2].pid, 200u);
  EXPECT_EQ(run.samples[2].index, 0u);
  // The child's stream 7 is a queue of its own.
  ASSERT_EQ(run.queues.size(), 2u);
  EXPECT_EQ(run.samples[0].queue, 7u);
  EXPECT_NE(run.samples[2].queue, 7u);
  EXPECT_EQ(run.queues[1].id, run.samples[2].queue);
  EXPECT_EQ(run.queues[1].name, "stream 7 (pid 200)");
}

TEST_F(StreamFileTest, TheStreamHasNotEndedWhileAChildProcessHasNotWrittenItsEnd) {
  {
    auto parent = WriterOf(100);
    auto child = WriterOf(200);
    parent->WriteHeader("cuda", {{"GPUTime", "nanoseconds", "float64"}});
    child->WriteHeader("cuda", {{"GPUTime", "nanoseconds", "float64"}});
    child->WriteSample(MakeSample(0, "child", 1.0));  // and then the child crashed
    parent->WriteEnd(0);
  }
  ProfileRun run;
  bool ended = true;
  std::string error;
  ASSERT_TRUE(ReadSampleStream(path_, &run, &ended, &error)) << error;
  EXPECT_FALSE(ended);
  ASSERT_EQ(run.samples.size(), 1u);
  EXPECT_EQ(run.samples[0].pid, 200u);
}

TEST_F(StreamFileTest, AChildProcessThatSampledOtherCountersIsRefusedNamingIt) {
  {
    auto parent = WriterOf(100);
    auto child = WriterOf(200);
    parent->WriteHeader("cuda", {{"GPUTime", "nanoseconds", "float64"}});
    parent->WriteSample(MakeSample(0, "parent", 1.0));
    child->WriteHeader("cuda", {{"FetchSize", "bytes", "float64"}});
    child->WriteSample(MakeSample(0, "child", 2.0));
  }
  ProfileRun run;
  bool ended = false;
  std::string error;
  EXPECT_FALSE(ReadSampleStream(path_, &run, &ended, &error));
  EXPECT_NE(error.find("process 200"), std::string::npos) << error;
}

TEST_F(StreamFileTest, TheColumnsAreThoseOfTheProcessesThatSampledNotOfOneThatProfiledNothing) {
  {
    // The parent could not profile (its header, written at exit, names the counters as asked); the child did.
    auto parent = WriterOf(100);
    auto child = WriterOf(200);
    parent->WriteMessage("not profiling this CUDA context: CUPTI_ERROR_HARDWARE_BUSY");
    child->WriteHeader("cuda", {{"gpu__time_duration.sum", "nsecond", "float64"}});
    child->WriteSample(MakeSample(0, "child", 2.0));
    child->WriteEnd(1);
    parent->WriteHeader("cuda", {{"GPUTime", "", "float64"}});
    parent->WriteEnd(1);
  }
  ProfileRun run;
  bool ended = false;
  std::string error;
  ASSERT_TRUE(ReadSampleStream(path_, &run, &ended, &error)) << error;
  ASSERT_EQ(run.counters.size(), 1u);
  EXPECT_EQ(run.counters[0].name, "gpu__time_duration.sum");
  ASSERT_EQ(run.samples.size(), 1u);
  EXPECT_EQ(run.samples[0].pid, 200u);
}

TEST_F(StreamFileTest, EveryRecordNamesTheProcessThatWroteIt) {
  {
    auto writer = WriterOf(4242);
    writer->WriteHeader("cuda", {{"GPUTime", "nanoseconds", "float64"}});
    Sample sample = MakeSample(0, "k", 1.0);
    sample.nvtx = {"epoch", "nccl@allreduce"};
    writer->WriteSample(sample);
    writer->WriteMessage("note");
    writer->WriteEnd(1);
  }
  std::ifstream file(path_);
  std::string line;
  int lines = 0;
  while (std::getline(file, line)) {
    ++lines;
    EXPECT_EQ(line.find("{\"type\":"), 0u) << line;  // progress counting relies on "type" coming first
    EXPECT_NE(line.find("\"pid\":4242"), std::string::npos) << line;
  }
  EXPECT_EQ(lines, 4);
  ProfileRun run;
  bool ended = false;
  std::string error;
  ASSERT_TRUE(ReadSampleStream(path_, &run, &ended, &error)) << error;
  ASSERT_EQ(run.samples.size(), 1u);
  EXPECT_EQ(run.samples[0].nvtx, (std::vector<std::string>{"epoch", "nccl@allreduce"}));
}

TEST_F(StreamFileTest, AStreamWithoutPidsReadsAsOneProcess) {
  {
    std::ofstream file(path_);
    file << R"({"type":"header","api":"cl","counters":[{"name":"GPUTime"}]})" << '\n'
         << R"({"type":"sample","index":1,"name":"b","values":[2]})" << '\n'
         << R"({"type":"sample","index":0,"name":"a","values":[1]})" << '\n'
         << R"({"type":"end","samples":2})" << '\n';
  }
  ProfileRun run;
  bool ended = false;
  std::string error;
  ASSERT_TRUE(ReadSampleStream(path_, &run, &ended, &error)) << error;
  EXPECT_TRUE(ended);
  ASSERT_EQ(run.samples.size(), 2u);
  EXPECT_EQ(run.samples[0].name, "a");
  EXPECT_EQ(run.samples[0].pid, 0u);
}

TEST(CountersFromEnvironmentTest, SplitsOnCommasAndDropsEmptyNames) {
  setenv(kCountersVariable, "a.sum,,b.avg,", 1);
  EXPECT_EQ(CountersFromEnvironment(), (std::vector<std::string>{"a.sum", "b.avg"}));
  unsetenv(kCountersVariable);
  EXPECT_TRUE(CountersFromEnvironment().empty());
}

}  // namespace
}  // namespace opengpa::profiling
