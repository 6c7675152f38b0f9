// PerfWorks through OpenGPA's own declarations, host library only (no GPU): the parameter blocks have the sizes the
// library expects, GH100's device metrics list and plan into sampler passes, unknown and unsampleable metrics are
// refused by name, every metric catalogs/nvidia_graphics.json names is sampleable on GH100, and a missing library is
// reported with what was tried.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "counters/catalog.h"
#include "counters/expression.h"
#include "nvidia/graphics_counter_source.h"
#include "nvidia/perfworks_library.h"
#include "nvidia/perfworks_metrics.h"

#if __has_include(<nvperf_host.h>) && __has_include(<nvperf_target.h>)
#include <nvperf_host.h>
#include <nvperf_target.h>
#define OPENGPA_HAVE_NVPERF_HEADERS 1
#endif

namespace opengpa::nvidia::perfworks {
namespace {

template <typename Params>
constexpr std::size_t SizeOf() {
  return ParamsSize(static_cast<const Params*>(nullptr));
}

// The blocks no public header declares, checked against the facts they were written from.
static_assert(SizeOf<VkInsertTriggerParams>() == 32, "the library checks a 32-byte trigger block");
static_assert(offsetof(VkInsertTriggerParams, device_index) == 16 &&
              offsetof(VkInsertTriggerParams, command_buffer) == 24);
static_assert(SizeOf<SamplerDeviceParams>() == 24);

#ifdef OPENGPA_HAVE_NVPERF_HEADERS
TEST(PerfWorksDeclarations, HaveTheSizesOfTheToolkitsHeadersWhereTheToolkitDeclaresThem) {
  EXPECT_EQ(SizeOf<InitializeParams>(), NVPW_InitializeHost_Params_STRUCT_SIZE);
  EXPECT_EQ(SizeOf<RawConfigSetCounterAvailabilityParams>(),
            NVPW_RawMetricsConfig_SetCounterAvailability_Params_STRUCT_SIZE);
  EXPECT_EQ(SizeOf<RawConfigBeginPassGroupParams>(), NVPW_RawMetricsConfig_BeginPassGroup_Params_STRUCT_SIZE);
  EXPECT_EQ(SizeOf<RawMetricRequest>(), NVPA_RAW_METRIC_REQUEST_STRUCT_SIZE);
  EXPECT_EQ(SizeOf<RawConfigAddMetricsParams>(), NVPW_RawMetricsConfig_AddMetrics_Params_STRUCT_SIZE);
  EXPECT_EQ(SizeOf<RawConfigIsAddMetricsPossibleParams>(),
            NVPW_RawMetricsConfig_IsAddMetricsPossible_Params_STRUCT_SIZE);
  EXPECT_EQ(SizeOf<RawConfigParams>(), NVPW_RawMetricsConfig_EndPassGroup_Params_STRUCT_SIZE);
  EXPECT_EQ(SizeOf<RawConfigGenerateImageParams>(), NVPW_RawMetricsConfig_GenerateConfigImage_Params_STRUCT_SIZE);
  EXPECT_EQ(SizeOf<RawConfigGetImageParams>(), NVPW_RawMetricsConfig_GetConfigImage_Params_STRUCT_SIZE);
  EXPECT_EQ(SizeOf<CounterDataBuilderCreateParams>(), NVPW_CounterDataBuilder_Create_Params_STRUCT_SIZE);
  EXPECT_EQ(SizeOf<CounterDataBuilderAddMetricsParams>(), NVPW_CounterDataBuilder_AddMetrics_Params_STRUCT_SIZE);
  EXPECT_EQ(SizeOf<CounterDataBuilderGetPrefixParams>(),
            NVPW_CounterDataBuilder_GetCounterDataPrefix_Params_STRUCT_SIZE);
  EXPECT_EQ(SizeOf<EvaluatorGetMetricNamesParams>(), NVPW_MetricsEvaluator_GetMetricNames_Params_STRUCT_SIZE);
  EXPECT_EQ(SizeOf<EvaluatorNameToRequestParams>(),
            NVPW_MetricsEvaluator_ConvertMetricNameToMetricEvalRequest_Params_STRUCT_SIZE);
  EXPECT_EQ(SizeOf<EvaluatorRawDependenciesParams>(),
            NVPW_MetricsEvaluator_GetMetricRawDependencies_Params_STRUCT_SIZE);
  EXPECT_EQ(SizeOf<EvaluatorSetDeviceAttributesParams>(), NVPW_MetricsEvaluator_SetDeviceAttributes_Params_STRUCT_SIZE);
  EXPECT_EQ(SizeOf<EvaluatorEvaluateParams>(), NVPW_MetricsEvaluator_EvaluateToGpuValues_Params_STRUCT_SIZE);
  EXPECT_EQ(SizeOf<EvaluatorCounterPropertiesParams>(), NVPW_MetricsEvaluator_GetCounterProperties_Params_STRUCT_SIZE);
  EXPECT_EQ(SizeOf<EvaluatorRatioPropertiesParams>(),
            NVPW_MetricsEvaluator_GetRatioMetricProperties_Params_STRUCT_SIZE);
  EXPECT_EQ(SizeOf<EvaluatorThroughputPropertiesParams>(),
            NVPW_MetricsEvaluator_GetThroughputMetricProperties_Params_STRUCT_SIZE);
  EXPECT_EQ(SizeOf<EvaluatorHwUnitToStringParams>(), NVPW_MetricsEvaluator_HwUnitToString_Params_STRUCT_SIZE);
  EXPECT_EQ(sizeof(MetricEvalRequest), sizeof(NVPW_MetricEvalRequest));
  EXPECT_EQ(SizeOf<GetDeviceCountParams>(), NVPW_GetDeviceCount_Params_STRUCT_SIZE);
  EXPECT_EQ(SizeOf<DeviceGetNamesParams>(), NVPW_Device_GetNames_Params_STRUCT_SIZE);
  EXPECT_EQ(SizeOf<DeviceGetClockStatusParams>(), NVPW_Device_GetClockStatus_Params_STRUCT_SIZE);
  EXPECT_EQ(SizeOf<DeviceGetPciBusIdsParams>(), NVPW_Device_GetPciBusIds_Params_STRUCT_SIZE);
  EXPECT_EQ(sizeof(PciBusId), sizeof(NVPW_PciBusId));
  EXPECT_EQ(SizeOf<CounterDataGetInfoParams>(), NVPW_PeriodicSampler_CounterData_GetInfo_Params_STRUCT_SIZE);
  EXPECT_EQ(SizeOf<CounterDataGetSampleTimeParams>(),
            NVPW_PeriodicSampler_CounterData_GetSampleTime_Params_STRUCT_SIZE);
  EXPECT_EQ(SizeOf<CounterDataGetTriggerCountParams>(),
            NVPW_PeriodicSampler_CounterData_GetTriggerCount_Params_STRUCT_SIZE);
}
#endif

const PerfWorksLibrary& Host() {
  static std::unique_ptr<PerfWorksLibrary> library;
  if (library == nullptr) {
    std::string why;
    library = PerfWorksLibrary::Load(DefaultHostCandidates(), {}, &why);
    if (library == nullptr) ADD_FAILURE() << why;
  }
  return *library;
}

TEST(PerfWorksLibrary, AMissingLibraryIsReportedWithWhatWasTried) {
  std::string why;
  EXPECT_EQ(PerfWorksLibrary::Load({"/nonexistent/libnvperf_host.so"}, {}, &why), nullptr);
  EXPECT_NE(why.find("/nonexistent/libnvperf_host.so"), std::string::npos) << why;
}

TEST(ChipMetrics, Gh100ListsThreadsOfEveryShaderStageWithDescriptionsAndUnits) {
  std::string why;
  auto chip = ChipMetrics::Create(Host(), "GH100", {}, &why);
  ASSERT_NE(chip, nullptr) << why;
  std::set<std::string> names;
  for (const MetricDescription& metric : chip->ListMetrics()) {
    names.insert(metric.name);
    if (metric.name == "sm__threads_launched_shader_ps_killmask_off.sum") {
      EXPECT_FALSE(metric.description.empty());
      EXPECT_EQ(metric.hw_unit, "sm");
    }
  }
  for (const char* stage : {"vs", "tcs", "tes", "gs", "cs"}) {
    EXPECT_TRUE(names.count(std::string("sm__threads_launched_shader_") + stage + ".sum")) << stage;
  }
  EXPECT_TRUE(names.count("dram__bytes_read.sum"));
}

TEST(ChipMetrics, VertexAndPixelThreadsNeedTwoSamplerPassesOnGh100) {
  std::string why;
  auto chip = ChipMetrics::Create(Host(), "GH100", {}, &why);
  ASSERT_NE(chip, nullptr) << why;
  std::vector<PassConfig> passes;
  ASSERT_EQ(chip->PlanPasses({"sm__threads_launched_shader_vs.sum", "sm__threads_launched_shader_ps_killmask_off.sum",
                              "dram__bytes_read.sum"},
                             &passes),
            kGpaStatusOk);
  ASSERT_EQ(passes.size(), 2u);
  EXPECT_EQ(passes[0].metrics, (std::vector<std::size_t>{0, 2}));  // first fit: DRAM rides with the VS threads
  EXPECT_EQ(passes[1].metrics, (std::vector<std::size_t>{1}));
  for (const PassConfig& pass : passes) {
    EXPECT_FALSE(pass.config_image.empty());
    EXPECT_FALSE(pass.counter_data_prefix.empty());
  }
}

TEST(ChipMetrics, UnknownAndUnsampleableMetricsAreRefused) {
  std::string why;
  auto chip = ChipMetrics::Create(Host(), "GH100", {}, &why);
  ASSERT_NE(chip, nullptr) << why;
  std::vector<PassConfig> passes;
  EXPECT_EQ(chip->PlanPasses({"no_such__metric.sum"}, &passes), kGpaStatusErrorCounterNotFound);
  // L2's plain hit rate needs more counters than one sampler pass collects (its TriageCompute form does not).
  EXPECT_FALSE(chip->IsSampleable("lts__t_sector_hit_rate.pct"));
  EXPECT_EQ(chip->PlanPasses({"lts__t_sector_hit_rate.pct"}, &passes), kGpaStatusErrorFailed);
  EXPECT_TRUE(chip->IsSampleable("LTS.TriageCompute.lts__average_t_sector_hit_rate_realtime.pct"));
}

TEST(ChipMetrics, AnUnknownChipIsReportedByName) {
  std::string why;
  EXPECT_EQ(ChipMetrics::Create(Host(), "GX999", {}, &why), nullptr);
  EXPECT_NE(why.find("GX999"), std::string::npos) << why;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Every hardware name a formula of the graphics catalog uses is a metric GH100 offers, so none of its counters is
// hidden on the H100.
TEST(GraphicsCounterSource, OffersEveryMetricTheGraphicsCatalogNamesOnGh100) {
  std::string why;
  auto source = GraphicsCounterSource::ForChip("GH100", &why);
  ASSERT_NE(source, nullptr) << why;
  std::set<std::string> offered;
  for (const GraphicsMetric& metric : source->Metrics()) offered.insert(metric.described.name);
  Catalog catalog;
  std::string error;
  ASSERT_TRUE(ParseCatalog(ReadFile(OPENGPA_SOURCE_DIR "/catalogs/nvidia_graphics.json"), &catalog, &error)) << error;
  std::size_t checked = 0;
  for (const CounterDefinition& counter : catalog.counters) {
    const SymbolResolver names = [&](std::string_view name) -> std::optional<Symbol> {
      EXPECT_TRUE(offered.count(std::string(name))) << counter.name << " names " << name;
      ++checked;
      return Symbol{Symbol::Kind::kInput, 0, 0.0};
    };
    Expression parsed;
    EXPECT_TRUE(Expression::Parse(counter.formula, names, &parsed, &error)) << counter.name << ": " << error;
  }
  EXPECT_GT(checked, 30u);
  EXPECT_FALSE(source->HasDevice());
}

}  // namespace
}  // namespace opengpa::nvidia::perfworks
