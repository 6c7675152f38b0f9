// profiler/report_input.h: what `opengpa report` reads. A run written by profile_writers.h as JSON and as CSV reads
// back as the same launches; a GPA sample CSV reads as one launch per sample; every bad input is refused with the
// file and the reason.
#include "profiler/report_input.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "profiler/profile_writers.h"

namespace opengpa::profiling {
namespace {

using Json = nlohmann::ordered_json;

// A run's profile JSON as `opengpa profile` writes it, read back.
Json WrittenJson(const ProfileRun& run) {
  std::ostringstream out;
  WriteProfileJson(run, out);
  return Json::parse(out.str());
}

ProfileRun TwoRankRun() {
  ProfileRun run;
  run.api = "cuda";
  run.device = "GPU";
  run.command = {"./app"};
  run.counters = {{"GPUTime", "nanoseconds", "float64"}, {"SOL_SM", "percentage", "float64"}};
  run.queues = {{7, "stream 7", "GPU", {}}};
  run.processes = {{100, 0, "host", {}}, {200, 1, "host", {}}};
  Sample a;
  a.pid = 100;
  a.index = 0;
  a.name = "gemm, \"fast\"";  // a comma and quotes: the CSV must quote it
  a.queue = 7;
  a.grid = {16, 8, 1};
  a.block = {128, 1, 1};
  a.start_ns = 1000;
  a.end_ns = 3000;
  a.values = {2000, 87.5};
  a.nvtx = {"step", "forward"};
  Sample b = a;
  b.pid = 200;
  b.name = "relu";
  b.start_ns.reset();
  b.end_ns.reset();
  b.values = {1500, std::nan("")};
  b.nvtx = {};
  run.samples = {a, b};
  return run;
}

class ReportInputTest : public ::testing::Test {
 protected:
  std::string Write(const std::string& name, const std::string& text) {
    const std::string path = ::testing::TempDir() + "report_input_" + name;
    std::ofstream(path, std::ios::binary) << text;
    paths_.push_back(path);
    return path;
  }
  void TearDown() override {
    for (const auto& path : paths_) std::remove(path.c_str());
  }
  std::vector<std::string> paths_;
};

void ExpectTwoRankLaunches(const Json& table) {
  ASSERT_EQ(table["counters"].size(), 2u);
  EXPECT_EQ(table["counters"][0]["name"], "GPUTime");
  ASSERT_EQ(table["launches"].size(), 2u);
  const Json& a = table["launches"][0];
  const Json& b = table["launches"][1];
  const Json expected_a = {"rank 0",  "gemm, \"fast\"", 0,  "stream 7", 1000, 3000, "16x8x1",
                           "128x1x1", "step > forward", "", "",         2000, 87.5};
  EXPECT_EQ(a, expected_a);
  EXPECT_EQ(b[0], "rank 1");
  EXPECT_TRUE(b[4].is_null());  // no device timestamps
  EXPECT_EQ(b[11], 1500);
  EXPECT_TRUE(b[12].is_null());  // not measured
}

TEST_F(ReportInputTest, AProfileJsonReadsAsOneLaunchPerSampleWithItsRankAndCounters) {
  Json table;
  std::string error;
  ASSERT_TRUE(ReadReportInput(Write("run.json", WrittenJson(TwoRankRun()).dump()), &table, &error)) << error;
  EXPECT_EQ(table["format"], "profile-json");
  EXPECT_EQ(table["device"], "GPU");
  EXPECT_EQ(table["counters"][1]["usage"], "percentage");
  ExpectTwoRankLaunches(table);
}

TEST_F(ReportInputTest, AProfileCsvReadsAsTheSameLaunchesAsItsJson) {
  std::ostringstream csv;
  WriteProfileCsv(TwoRankRun(), csv);
  Json table;
  std::string error;
  ASSERT_TRUE(ReadReportInput(Write("run.csv", csv.str()), &table, &error)) << error;
  EXPECT_EQ(table["format"], "profile-csv");
  ExpectTwoRankLaunches(table);
}

TEST_F(ReportInputTest, PyTorchsOpAndModuleOfASampleAreKept) {
  Json document = WrittenJson(TwoRankRun());
  document["samples"][0]["op"] = "aten::addmm";
  document["samples"][0]["module"] = "encoder.0";
  Json table;
  std::string error;
  ASSERT_TRUE(ReadReportInput(Write("torch.json", document.dump()), &table, &error)) << error;
  EXPECT_EQ(table["launches"][0][9], "aten::addmm");
  EXPECT_EQ(table["launches"][0][10], "encoder.0");
  EXPECT_EQ(table["launches"][1][9], "");
}

TEST_F(ReportInputTest, TextFieldsThatAreNotTextReadAsEmpty) {
  Json document = WrittenJson(TwoRankRun());
  document["api"] = 5;
  document["counters"][0]["usage"] = nullptr;
  document["samples"][0]["op"] = 7;
  Json table;
  std::string error;
  ASSERT_TRUE(ReadReportInput(Write("types.json", document.dump()), &table, &error)) << error;
  EXPECT_EQ(table["api"], "");
  EXPECT_EQ(table["counters"][0]["usage"], "");
  EXPECT_EQ(table["launches"][0][9], "");
}

TEST_F(ReportInputTest, AGpaSampleCsvReadsAsOneLaunchPerSampleNamedByItsLabel) {
  const std::string vulkan = "Device,SampleId,Sample,GPUTime,VSBusy\r\nRADV,0,draw,1200,35.5\r\nRADV,1,,800,\r\n";
  Json table;
  std::string error;
  ASSERT_TRUE(ReadReportInput(Write("vk.csv", vulkan), &table, &error)) << error;
  EXPECT_EQ(table["format"], "sample-csv");
  EXPECT_EQ(table["device"], "RADV");
  ASSERT_EQ(table["counters"].size(), 2u);
  EXPECT_EQ(table["counters"][1]["name"], "VSBusy");
  ASSERT_EQ(table["launches"].size(), 2u);
  EXPECT_EQ(table["launches"][0][1], "draw");
  EXPECT_EQ(table["launches"][0][12], 35.5);
  EXPECT_EQ(table["launches"][1][1], "sample 1");
  EXPECT_TRUE(table["launches"][1][12].is_null());
}

TEST_F(ReportInputTest, BadInputsAreRefusedNamingTheFileAndTheReason) {
  const std::pair<std::string, std::string> cases[] = {
      {"{\"schema\": \"other/1\"}", "not an opengpa profile"},
      {"{\"schema\": \"opengpa-profile/1\", \"counters\": []}", "no \"counters\" or \"samples\""},
      {"{\"schema\": \"opengpa-profile/1\", \"counters\": [], \"samples\": [{}]}", "sample 1 has no kernel name"},
      {"{not json", "not valid JSON"},
      {"", "empty"},
      {"a,b\n1,2\n", "neither a profile"},
      {"SampleId,Label,GPUTime\n0,draw,fast\n", "line 2, column 'GPUTime': 'fast' is not a number"},
      {"SampleId,Label\n0,\"draw\n", "never closed"},
  };
  int number = 0;
  for (const auto& [text, reason] : cases) {
    const std::string path = Write("bad" + std::to_string(number++), text);
    Json table;
    std::string error;
    EXPECT_FALSE(ReadReportInput(path, &table, &error)) << text;
    EXPECT_NE(error.find(path), std::string::npos) << error;
    EXPECT_NE(error.find(reason), std::string::npos) << error;
  }
  Json table;
  std::string error;
  EXPECT_FALSE(ReadReportInput(::testing::TempDir() + "report_input_absent", &table, &error));
  EXPECT_NE(error.find("cannot be opened"), std::string::npos) << error;
}

}  // namespace
}  // namespace opengpa::profiling
