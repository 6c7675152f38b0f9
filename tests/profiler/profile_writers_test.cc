#include "profiler/profile_writers.h"

#include <gtest/gtest.h>

#include <cmath>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <tuple>

namespace opengpa::profiling {
namespace {

// The profile JSON as written, read back by a strict JSON parser.
nlohmann::ordered_json Json(const ProfileRun& run) {
  std::ostringstream out;
  WriteProfileJson(run, out);
  return nlohmann::ordered_json::parse(out.str());
}

// The Chrome trace as written, read back by a strict JSON parser (a malformed trace fails here).
nlohmann::ordered_json Trace(const ProfileRun& run) {
  std::ostringstream out;
  WriteChromeTrace(run, out);
  return nlohmann::ordered_json::parse(out.str());
}

ProfileRun TwoQueueRun() {
  ProfileRun run;
  run.api = "cl";
  run.device = "dev";
  run.command = {"./app", "--x"};
  run.counters = {{"GPUTime", "nanoseconds", "uint64"}, {"bytes, moved", "bytes", "float64"}};
  run.queues = {{0, "queue 0", "dev", {}}, {1, "queue 1", "dev", {}}};
  Sample a;
  a.index = 0;
  a.name = "scale";
  a.queue = 0;
  a.grid = {1024, 1, 1};
  a.block = {64, 1, 1};
  a.start_ns = 5000;
  a.end_ns = 7000;
  a.values = {2000, 0.5};
  Sample b = a;
  b.index = 1;
  b.name = "add";
  b.queue = 1;
  b.start_ns = 8000;
  b.end_ns = 11000;
  b.values = {3000, std::nan("")};
  run.samples = {a, b};
  return run;
}

TEST(ProfileWritersTest, CsvHasOneRowPerSampleWithEveryCounterAsAColumn) {
  std::ostringstream out;
  WriteProfileCsv(TwoQueueRun(), out);
  EXPECT_EQ(out.str(),
            "pid,rank,host,gpu,gpu_uuid,pci_bus_id,index,kernel,queue,context,graph,graph_node,grid_x,grid_y,grid_z,"
            "block_x,block_y,block_z,start_ns,end_ns,nvtx,GPUTime,\"bytes, moved\"\n"
            "0,,,,,,0,scale,queue 0,,,,1024,1,1,64,1,1,5000,7000,,2000,0.5\n"
            "0,,,,,,1,add,queue 1,,,,1024,1,1,64,1,1,8000,11000,,3000,\n");
}

TEST(ProfileWritersTest, ACudaRowNamesItsContextAndTheGraphItWasLaunchedIn) {
  ProfileRun run = TwoQueueRun();
  run.samples[0].context = 3;
  run.samples[0].graph = 12;
  run.samples[1].context = 4;
  run.samples[1].graph = 13;
  run.samples[1].graph_node = 0;
  std::ostringstream out;
  WriteProfileCsv(run, out);
  EXPECT_NE(out.str().find("\n0,,,,,,0,scale,queue 0,3,12,,1024,"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("\n0,,,,,,1,add,queue 1,4,13,0,1024,"), std::string::npos) << out.str();
  const auto json = Json(run);
  EXPECT_EQ(json["samples"][0]["context"], 3);
  EXPECT_EQ(json["samples"][0]["graph"], 12);
  EXPECT_FALSE(json["samples"][0].contains("graph_node"));
  EXPECT_EQ(json["samples"][1]["graph_node"], 0);
}

TEST(ProfileWritersTest, EachRowNamesItsProcessAndItsOpenNvtxRangesOutermostFirst) {
  ProfileRun run = TwoQueueRun();
  run.samples[0].pid = 100;
  run.samples[0].nvtx = {"epoch 1", "torch@forward"};
  run.samples[1].pid = 200;
  std::ostringstream out;
  WriteProfileCsv(run, out);
  EXPECT_NE(
      out.str().find("\n100,,,,,,0,scale,queue 0,,,,1024,1,1,64,1,1,5000,7000,epoch 1 > torch@forward,2000,0.5\n"),
      std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find("\n200,,,,,,1,add,"), std::string::npos) << out.str();
  const auto json = Json(run);
  EXPECT_EQ(json["samples"][0]["pid"], 100);
  EXPECT_EQ(json["samples"][0]["nvtx"].get<std::vector<std::string>>(),
            (std::vector<std::string>{"epoch 1", "torch@forward"}));
  EXPECT_TRUE(json["samples"][1]["nvtx"].empty());
}

TEST(ProfileWritersTest, EachRowNamesTheRankAndHostOfItsProcessAndTheGpuOfItsQueue) {
  ProfileRun run = TwoQueueRun();
  run.samples[0].pid = 100;
  run.samples[1].pid = 200;
  run.processes = {{100, 3, "node7", {}}, {200, std::nullopt, "node7", {}}};
  run.queues[0].gpu = {1, "GPU-5d4c0000-1111-2222-3333-444455556666", "0000:19:00.0"};
  run.unprofiled = {{300, "its CUDA context was not profiled: CUPTI_ERROR_HARDWARE_BUSY"}};
  std::ostringstream out;
  WriteProfileCsv(run, out);
  EXPECT_NE(out.str().find("\n100,3,node7,1,GPU-5d4c0000-1111-2222-3333-444455556666,0000:19:00.0,0,scale,"),
            std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find("\n200,,node7,,,,1,add,"), std::string::npos) << out.str();
  const auto json = Json(run);
  EXPECT_EQ(json["samples"][0]["rank"], 3);
  EXPECT_EQ(json["samples"][0]["gpu"], 1);
  EXPECT_EQ(json["samples"][0]["gpu_uuid"], "GPU-5d4c0000-1111-2222-3333-444455556666");
  EXPECT_EQ(json["samples"][0]["pci_bus_id"], "0000:19:00.0");
  EXPECT_TRUE(json["samples"][1]["rank"].is_null());
  EXPECT_TRUE(json["samples"][1]["gpu"].is_null());
  EXPECT_EQ(json["queues"][0]["gpu_uuid"], "GPU-5d4c0000-1111-2222-3333-444455556666");
  EXPECT_FALSE(json["queues"][1].contains("gpu"));
  ASSERT_EQ(json["processes"].size(), 2u);
  EXPECT_EQ(json["processes"][0]["rank"], 3);
  EXPECT_EQ(json["unprofiled"][0]["pid"], 300);
}

TEST(ProfileWritersTest, ChromeTraceShowsEachProcessOfTheProgramAsATraceProcess) {
  ProfileRun run = TwoQueueRun();
  run.samples[0].pid = 100;
  run.samples[1].pid = 200;
  const auto trace = Trace(run);
  std::map<int, std::string> processes;
  std::map<std::string, int> pid_of_kernel;
  for (const auto& event : trace["traceEvents"]) {
    if (event["ph"] == "M" && event["name"] == "process_name") processes[event["pid"]] = event["args"]["name"];
    if (event["ph"] == "X") pid_of_kernel[event["name"]] = event["pid"];
  }
  ASSERT_EQ(processes.size(), 2u);
  EXPECT_NE(processes[200].find("(pid 200)"), std::string::npos) << processes[200];
  EXPECT_EQ(pid_of_kernel["scale"], 100);
  EXPECT_EQ(pid_of_kernel["add"], 200);
}

TEST(ProfileWritersTest, JsonKeysValuesByCounterNameAndWritesMissingValuesAsNull) {
  const auto json = Json(TwoQueueRun());
  EXPECT_EQ(json["schema"], "opengpa-profile/1");
  ASSERT_EQ(json["samples"].size(), 2u);
  EXPECT_EQ(json["samples"][0]["values"]["GPUTime"], 2000.0);
  EXPECT_TRUE(json["samples"][1]["values"]["bytes, moved"].is_null());
  EXPECT_EQ(json["samples"][1]["kernel"], "add");
  EXPECT_EQ(json["command"][1], "--x");
}

TEST(ProfileWritersTest, ChromeTraceHasACompleteEventPerSampleInMicrosecondsOnItsQueuesTrack) {
  const auto trace = Trace(TwoQueueRun());
  int complete = 0;
  for (const auto& event : trace["traceEvents"]) {
    if (event["ph"] != "X") continue;
    ++complete;
    if (event["name"] == "scale") {
      EXPECT_DOUBLE_EQ(event["ts"].get<double>(), 0.0);  // times start at the earliest sample
      EXPECT_DOUBLE_EQ(event["dur"].get<double>(), 2.0);
      EXPECT_EQ(event["tid"], 0);
    } else {
      EXPECT_DOUBLE_EQ(event["ts"].get<double>(), 3.0);
      EXPECT_DOUBLE_EQ(event["dur"].get<double>(), 3.0);
      EXPECT_EQ(event["tid"], 1);
    }
  }
  EXPECT_EQ(complete, 2);
}

TEST(ProfileWritersTest, ChromeTraceNamesEveryQueueTrack) {
  const auto trace = Trace(TwoQueueRun());
  std::vector<std::string> names;
  for (const auto& event : trace["traceEvents"]) {
    if (event["ph"] == "M" && event["name"] == "thread_name") names.push_back(event["args"]["name"]);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"queue 0", "queue 1"}));
}

TEST(ProfileWritersTest, SamplesWithoutTimestampsAreLaidEndToEndByTheirMeasuredDuration) {
  ProfileRun run = TwoQueueRun();
  run.counters[0] = {"gpu__time_duration.sum", "nsecond", "float64"};
  for (auto& sample : run.samples) {
    sample.start_ns.reset();
    sample.end_ns.reset();
    sample.queue = 0;
  }
  const auto trace = Trace(run);
  std::vector<std::pair<double, double>> spans;
  for (const auto& event : trace["traceEvents"]) {
    if (event["ph"] == "X") spans.emplace_back(event["ts"].get<double>(), event["dur"].get<double>());
  }
  ASSERT_EQ(spans.size(), 2u);
  EXPECT_DOUBLE_EQ(spans[0].first, 0.0);
  EXPECT_DOUBLE_EQ(spans[0].second, 2.0);
  EXPECT_DOUBLE_EQ(spans[1].first, 2.0);
  EXPECT_DOUBLE_EQ(spans[1].second, 3.0);
}

// (counter, ts, queue) -> value of every "C" event.
std::map<std::tuple<std::string, double, std::string>, double> CounterEvents(const nlohmann::ordered_json& trace) {
  std::map<std::tuple<std::string, double, std::string>, double> values;
  for (const auto& event : trace["traceEvents"]) {
    if (event["ph"] != "C") continue;
    EXPECT_EQ(event["args"].size(), 1u);
    for (const auto& [queue, value] : event["args"].items()) {
      values[{event["name"], event["ts"].get<double>(), queue}] = value.get<double>();
    }
  }
  return values;
}

TEST(ProfileWritersTest, ChromeTraceCounterTracksHoldEachLaunchsValueFromItsStartToItsEnd) {
  const auto values = CounterEvents(Trace(TwoQueueRun()));
  // scale on queue 0 from 0 to 2 µs, add on queue 1 from 3 to 6 µs; add has no "bytes, moved" value.
  const std::map<std::tuple<std::string, double, std::string>, double> expected = {
      {{"GPUTime", 0.0, "queue 0"}, 2000},     {{"GPUTime", 2.0, "queue 0"}, 0},
      {{"bytes, moved", 0.0, "queue 0"}, 0.5}, {{"bytes, moved", 2.0, "queue 0"}, 0},
      {{"GPUTime", 3.0, "queue 1"}, 3000},     {{"GPUTime", 6.0, "queue 1"}, 0}};
  EXPECT_EQ(values, expected);
}

TEST(ProfileWritersTest, ChromeTraceCounterTracksOfBackToBackLaunchesStepWithoutADropToZero) {
  ProfileRun run = TwoQueueRun();
  for (auto& sample : run.samples) {  // laid end to end on one queue: the second starts where the first ends
    sample.start_ns.reset();
    sample.end_ns.reset();
    sample.queue = 0;
  }
  const auto values = CounterEvents(Trace(run));
  const std::map<std::tuple<std::string, double, std::string>, double> expected = {
      {{"GPUTime", 0.0, "queue 0"}, 2000},
      {{"GPUTime", 2.0, "queue 0"}, 3000},
      {{"GPUTime", 5.0, "queue 0"}, 0},
      {{"bytes, moved", 0.0, "queue 0"}, 0.5},
      {{"bytes, moved", 2.0, "queue 0"}, 0}};  // the next launch has no value: the track drops to 0
  EXPECT_EQ(values, expected);
}

TEST(ProfileWritersTest, SummaryListsEachKernelOnceWithItsLaunchesShareTotalAndMeansThenTotals) {
  ProfileRun run = TwoQueueRun();
  run.samples.push_back(run.samples[0]);
  run.samples.back().index = 2;
  run.samples.back().values = {4000, 1.5};
  std::ostringstream out;
  WriteProfileSummary(run, out);
  std::istringstream lines(out.str());
  std::vector<std::vector<std::string>> rows;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    rows.emplace_back(std::istream_iterator<std::string>(words), std::istream_iterator<std::string>());
  }
  // Header with units, rule, then kernels by total GPUTime: scale (2 launches, 6000 ns) before add (3000 ns),
  // then the totals over all three launches.
  ASSERT_EQ(rows.size(), 5u) << out.str();
  const std::string header = out.str().substr(0, out.str().find('\n'));
  EXPECT_NE(header.find("total GPUTime (ns)"), std::string::npos) << header;
  EXPECT_NE(header.find("mean GPUTime (ns)"), std::string::npos) << header;
  EXPECT_NE(header.find("mean bytes, moved (bytes)"), std::string::npos) << header;
  EXPECT_EQ(rows[2], (std::vector<std::string>{"scale", "2", "66.7", "6000", "3000", "1"}));
  EXPECT_EQ(rows[3], (std::vector<std::string>{"add", "1", "33.3", "3000", "3000", "-"}));
  EXPECT_EQ(rows[4], (std::vector<std::string>{"(all", "kernels)", "3", "100.0", "9000", "3000", "1"}));
}

TEST(ProfileWritersTest, FormatValuePrintsIntegersWholeAndOtherValuesInTheShortestExactText) {
  EXPECT_EQ(FormatValue(12), "12");
  EXPECT_EQ(FormatValue(0.25), "0.25");
  EXPECT_EQ(FormatValue(2000), "2000");
  EXPECT_EQ(FormatValue(134217728), "134217728");
  EXPECT_EQ(FormatValue(1.0 / 3.0), "0.3333333333333333");
  EXPECT_EQ(FormatValue(1.5e20), "1.5e+20");
  EXPECT_EQ(FormatValue(std::nan("")), "");
}

}  // namespace
}  // namespace opengpa::profiling
