// `opengpa monitor --trace` (tools/opengpa/monitor_trace.h): records of two GPUs become one trace process per GPU
// and one counter track per counter, each value at the start of the interval it covers, in µs from the start.
#include "monitor_trace.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>
#include <sstream>
#include <string>

namespace opengpa::cli {
namespace {

using monitor::CounterKind;

constexpr std::uint64_t kOrigin = 1'700'000'000'000'000'000;

TEST(MonitorTraceTest, EachGpuIsATraceProcessAndEachRecordACounterValueAtTheStartOfItsInterval) {
  std::ostringstream out;
  MonitorTraceWriter writer(out, {{0, "GPU-a", "NVIDIA H100"}, {3, "GPU-b", ""}},
                            {{"gpu_utilization_percent", "", "percent", CounterKind::kGauge},
                             {"energy_joules", "", "joules", CounterKind::kDelta}},
                            kOrigin);
  writer.Add({kOrigin + 1'000'000, 1'000'000, 0, 0, 87.0});  // the first millisecond
  writer.Add({kOrigin + 2'000'000, 1'000'000, 3, 1, 0.25});  // the second, on GPU 3
  writer.Add({kOrigin + 2'000'000, 0, 3, 0, 12.5});          // an instant's reading
  writer.Add({kOrigin + 3'000'000, 1'000'000, 0, 7, 1.0});   // no such counter: left out
  writer.Add({kOrigin + 3'000'000, 1'000'000, 0, 0, std::numeric_limits<double>::quiet_NaN()});  // no value
  writer.Close();
  const auto trace = nlohmann::json::parse(out.str());
  EXPECT_EQ(trace["displayTimeUnit"], "ms");
  const auto& events = trace["traceEvents"];
  ASSERT_EQ(events.size(), 5u);
  EXPECT_EQ(events[0]["ph"], "M");
  EXPECT_EQ(events[0]["pid"], 1);
  EXPECT_EQ(events[0]["args"]["name"], "GPU 0: NVIDIA H100");
  EXPECT_EQ(events[1]["pid"], 4);
  EXPECT_EQ(events[1]["args"]["name"], "GPU 3");
  const auto first_value = nlohmann::json::parse(
      R"json({"name": "gpu_utilization_percent (percent)", "ph": "C", "ts": 0.0, "pid": 1, "args": {"value": 87.0}})json");
  EXPECT_EQ(events[2], first_value);
  EXPECT_EQ(events[3]["name"], "energy_joules (joules per interval)");
  EXPECT_DOUBLE_EQ(events[3]["ts"].get<double>(), 1000.0);
  EXPECT_EQ(events[3]["pid"], 4);
  EXPECT_DOUBLE_EQ(events[3]["args"]["value"].get<double>(), 0.25);
  EXPECT_DOUBLE_EQ(events[4]["ts"].get<double>(), 2000.0);
}

TEST(MonitorTraceTest, ATraceWithoutGpusOrRecordsIsStillValidJson) {
  std::ostringstream out;
  MonitorTraceWriter writer(out, {}, {}, kOrigin);
  writer.Close();
  const auto trace = nlohmann::json::parse(out.str());
  ASSERT_EQ(trace["traceEvents"].size(), 1u);
  EXPECT_EQ(trace["traceEvents"][0]["ph"], "M");
}

}  // namespace
}  // namespace opengpa::cli
