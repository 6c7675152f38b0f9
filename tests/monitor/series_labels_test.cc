// The host and job labels on every series of the metrics endpoint (src/monitor/series_labels.h): what the
// environment gives (a Slurm job, a Kubernetes pod by the downward API or by its service account), what
// $OPENGPA_MONITOR_LABELS and --label add or replace, what is refused, and the labels in the exposition itself.
#include "monitor/series_labels.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <string>

#include "exposition_parser.h"
#include "monitor/metrics_exposition.h"

namespace opengpa::monitor {
namespace {

LabelSources Environment(std::map<std::string, std::string> variables, std::string namespace_file = "/nonexistent") {
  LabelSources sources;
  auto shared = std::make_shared<std::map<std::string, std::string>>(std::move(variables));
  sources.getenv = [shared](const char* name) -> const char* {
    const auto found = shared->find(name);
    return found == shared->end() ? nullptr : found->second.c_str();
  };
  sources.hostname = [] { return std::string("node17"); };
  sources.namespace_file = std::move(namespace_file);
  return sources;
}

TEST(SeriesLabelsTest, AHostAloneGetsItsName) {
  std::string warning;
  EXPECT_EQ(DiscoverSeriesLabels(Environment({}), &warning), (SeriesLabels{{"host", "node17"}}));
  EXPECT_TRUE(warning.empty());
}

TEST(SeriesLabelsTest, ASlurmJobAndAPodNamedByTheDownwardApiAreLabelled) {
  std::string warning;
  const SeriesLabels labels = DiscoverSeriesLabels(
      Environment({{"SLURM_JOB_ID", "4242"}, {"POD_NAMESPACE", "training"}, {"POD_NAME", "trainer-0"}}), &warning);
  EXPECT_EQ(
      labels,
      (SeriesLabels{
          {"host", "node17"}, {"slurm_job_id", "4242"}, {"k8s_namespace", "training"}, {"k8s_pod", "trainer-0"}}));
}

TEST(SeriesLabelsTest, InsideAPodTheServiceAccountNamesTheNamespaceAndTheHostNameThePod) {
  const std::string file = ::testing::TempDir() + "/serviceaccount_namespace";
  std::ofstream(file) << "monitoring\n";
  std::string warning;
  const SeriesLabels labels = DiscoverSeriesLabels(
      Environment({{"KUBERNETES_SERVICE_HOST", "10.0.0.1"}, {"HOSTNAME", "dcgm-abc12"}}, file), &warning);
  EXPECT_EQ(labels, (SeriesLabels{{"host", "node17"}, {"k8s_namespace", "monitoring"}, {"k8s_pod", "dcgm-abc12"}}));
  std::remove(file.c_str());
}

TEST(SeriesLabelsTest, TheEnvironmentsLabelsAddOrReplaceAndBadOnesAreNamed) {
  std::string warning;
  const SeriesLabels labels =
      DiscoverSeriesLabels(Environment({{"OPENGPA_MONITOR_LABELS", "host=nodeA,rack=r3,bad name=x,gpu=7"}}), &warning);
  EXPECT_EQ(labels, (SeriesLabels{{"host", "nodeA"}, {"rack", "r3"}}));
  EXPECT_NE(warning.find("'bad name' is not a label name"), std::string::npos) << warning;
  EXPECT_NE(warning.find("'gpu' is a label of every GPU's series"), std::string::npos) << warning;
}

TEST(SeriesLabelsTest, AddRefusesWhatPrometheusWouldNotTake) {
  SeriesLabels labels;
  std::string error;
  EXPECT_FALSE(AddSeriesLabel("novalue", &labels, &error));
  EXPECT_FALSE(AddSeriesLabel("__name__=x", &labels, &error));
  EXPECT_FALSE(AddSeriesLabel("9lives=x", &labels, &error));
  EXPECT_FALSE(AddSeriesLabel("uuid=x", &labels, &error));
  EXPECT_FALSE(AddSeriesLabel("team=", &labels, &error));
  EXPECT_TRUE(labels.empty());
  EXPECT_TRUE(AddSeriesLabel("team=a=b", &labels, &error)) << error;  // the value is what follows the first '='
  EXPECT_EQ(labels, (SeriesLabels{{"team", "a=b"}}));
}

TEST(SeriesLabelsTest, EverySampleOfTheExpositionCarriesTheLabelsEscaped) {
  MetricsView view;
  view.counters = {{"power_watts", "Power draw", "W", CounterKind::kGauge, CounterOrigin::kNvml}};
  view.devices = {{0, "GPU-0", "A"}, {1, "GPU-1", "B"}};
  view.values = {{true, 70.0, 0.0, 1, 1}, {true, 80.0, 0.0, 1, 1}};
  view.labels = {{"host", "node\"17\""}, {"slurm_job_id", "4242"}};
  for (ExpositionFormat format : {ExpositionFormat::kOpenMetrics, ExpositionFormat::kPrometheusText}) {
    testing::ParsedExposition parsed;
    std::string error;
    const std::string text = FormatMetrics(view, format);
    ASSERT_TRUE(format == ExpositionFormat::kOpenMetrics ? testing::ParseOpenMetrics(text, &parsed, &error)
                                                         : testing::ParsePrometheusText(text, &parsed, &error))
        << error << "\n"
        << text;
    ASSERT_EQ(parsed.families.size(), 1u);
    ASSERT_EQ(parsed.families[0].samples.size(), 2u);
    for (const auto& sample : parsed.families[0].samples) {
      EXPECT_EQ(sample.labels.at("host"), "node\"17\"");
      EXPECT_EQ(sample.labels.at("slurm_job_id"), "4242");
      EXPECT_EQ(sample.labels.size(), 5u);  // gpu, uuid, name, host, slurm_job_id
    }
  }
}

}  // namespace
}  // namespace opengpa::monitor
