// The keys of `opengpa profile -o` (tools/opengpa/output_name.h) and the reports they make of a run of several
// processes (profile_reports.h).
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "output_name.h"
#include "profile_reports.h"

namespace opengpa::cli {
namespace {

TEST(OutputNameTest, KeysAreFoundAndExpanded) {
  OutputNameKeys keys;
  std::string error;
  ASSERT_TRUE(ParseOutputName("run-%h-%p-%r-%q{JOB}-%q{JOB}-%i-100%%", &keys, &error)) << error;
  EXPECT_TRUE(keys.pid && keys.rank && keys.index && keys.PerProcess());
  EXPECT_EQ(keys.variables, std::vector<std::string>{"JOB"});
  OutputNameValues values{"4242", "3", "node7", "0", [](const std::string& name) { return name + "=x"; }};
  EXPECT_EQ(ExpandOutputName("run-%h-%p-%r-%q{JOB}-%i-100%%", values), "run-node7-4242-3-JOB=x-0-100%");
  ASSERT_TRUE(ParseOutputName("plain/name", &keys, &error));
  EXPECT_FALSE(keys.PerProcess() || keys.index);
}

TEST(OutputNameTest, MalformedKeysAreRefusedNamingThem) {
  OutputNameKeys keys;
  std::string error;
  EXPECT_FALSE(ParseOutputName("run%x", &keys, &error));
  EXPECT_NE(error.find("%x"), std::string::npos) << error;
  EXPECT_FALSE(ParseOutputName("run%", &keys, &error));
  EXPECT_NE(error.find("%%"), std::string::npos) << error;
  EXPECT_FALSE(ParseOutputName("run%q{JOB", &keys, &error));
  EXPECT_FALSE(ParseOutputName("run%q{}", &keys, &error));
  EXPECT_FALSE(ParseOutputName("run%qJOB", &keys, &error));
  EXPECT_NE(error.find("%q{NAME}"), std::string::npos) << error;
}

profiling::ProfileRun ThreeProcesses() {
  profiling::ProfileRun run;
  run.processes = {{10, std::nullopt, "a", {{"JOB", "j10"}}}, {11, 0, "a", {}}, {12, 0, "b", {}}};
  run.queues = {{0, "stream 7", "H100", {0, "GPU-0", "0000:19:00.0"}},
                {1, "stream 7 (pid 11)", "H100", {}},
                {2, "stream 7 (pid 12)", "H100", {}}};
  for (std::uint32_t pid : {10u, 11u, 12u}) {
    profiling::Sample sample;
    sample.pid = pid;
    sample.name = "k" + std::to_string(pid);
    sample.queue = pid - 10;
    run.samples.push_back(sample);
  }
  run.unprofiled = {{13, "busy"}};
  run.messages = {"pid 10: hello"};
  return run;
}

OutputNameValues Own() {
  return {"99", "0", "here", "", [](const std::string&) { return std::string("own"); }};
}

TEST(ProfileReportsTest, OneReportPerProcessHoldsItsSamplesQueuesAndTheRunsUnprofiledList) {
  OutputNameKeys keys;
  std::string error;
  ASSERT_TRUE(ParseOutputName("out.%p.%q{JOB}", &keys, &error));
  const auto reports =
      PlanReports(ThreeProcesses(), "out.%p.%q{JOB}", keys, Own(), [](const std::string&) { return false; });
  ASSERT_EQ(reports.size(), 3u);
  EXPECT_EQ(reports[0].prefix, "out.10.j10");
  EXPECT_EQ(reports[1].prefix, "out.11.");  // a process that reported the variable unset
  ASSERT_EQ(reports[1].run.samples.size(), 1u);
  EXPECT_EQ(reports[1].run.samples[0].name, "k11");
  ASSERT_EQ(reports[1].run.queues.size(), 1u);
  EXPECT_EQ(reports[1].run.queues[0].id, 1u);
  ASSERT_EQ(reports[1].run.processes.size(), 1u);
  EXPECT_EQ(reports[2].run.unprofiled.size(), 1u);
  EXPECT_EQ(reports[2].run.messages, std::vector<std::string>{"pid 10: hello"});
}

TEST(ProfileReportsTest, ProcessesOfOneRankShareAReportAndOneWithoutARankGoesToNone) {
  OutputNameKeys keys;
  std::string error;
  ASSERT_TRUE(ParseOutputName("r%r", &keys, &error));
  const auto reports = PlanReports(ThreeProcesses(), "r%r", keys, Own(), [](const std::string&) { return false; });
  ASSERT_EQ(reports.size(), 2u);
  EXPECT_EQ(reports[0].prefix, "rnone");
  EXPECT_EQ(reports[1].prefix, "r0");
  EXPECT_EQ(reports[1].run.samples.size(), 2u);
}

TEST(ProfileReportsTest, TheIndexIsTheFirstThatReplacesNothingAndNoTwoReportsShareOne) {
  OutputNameKeys keys;
  std::string error;
  ASSERT_TRUE(ParseOutputName("run%i", &keys, &error));
  const std::set<std::string> existing = {"run0", "run1"};
  auto taken = [&existing](const std::string& name) { return existing.count(name) != 0; };
  EXPECT_EQ(PlanReports(ThreeProcesses(), "run%i", keys, Own(), taken).at(0).prefix, "run2");
  ASSERT_TRUE(ParseOutputName("rank%r.%i", &keys, &error));
  const auto reports = PlanReports(ThreeProcesses(), "rank%r.%i", keys, Own(), taken);
  ASSERT_EQ(reports.size(), 2u);
  EXPECT_EQ(reports[0].prefix, "ranknone.0");
  EXPECT_EQ(reports[1].prefix, "rank0.0");
  EXPECT_EQ(ReportPattern("run", {}, true), "run.%p");
  EXPECT_EQ(ReportPattern("run", {}, false), "run");
}

}  // namespace
}  // namespace opengpa::cli
