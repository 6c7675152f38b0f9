#include "nvidia/pm_host_object.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "platform/logging.h"
#include "platform/text_affixes.h"

namespace opengpa::nvidia {

using cupti::MakeParams;

GpaStatus PmHostObject::Create(const cupti::CuptiLibrary& cupti, const std::string& chip,
                               const std::vector<uint8_t>& availability, std::unique_ptr<PmHostObject>* host) {
  host->reset();
  auto params = MakeParams<CUpti_Profiler_Host_Initialize_Params>(CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE);
  params.profilerType = CUPTI_PROFILER_TYPE_PM_SAMPLING;
  params.pChipName = chip.c_str();
  params.pCounterAvailabilityImage = availability.empty() ? nullptr : availability.data();
  if (CUptiResult result = cupti.Api().host_initialize(&params); result != CUPTI_SUCCESS) {
    return LogError(kGpaStatusErrorHardwareNotSupported,
                    "CUPTI PM sampling: cuptiProfilerHostInitialize for chip '{}' failed: {}", chip,
                    cupti.Describe(result));
  }
  *host = std::make_unique<PmHostObject>(cupti, params.pHostObject, chip);
  return kGpaStatusOk;
}

PmHostObject::~PmHostObject() {
  auto params =
      MakeParams<CUpti_Profiler_Host_Deinitialize_Params>(CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE);
  params.pHostObject = object_;
  cupti_.Api().host_deinitialize(&params);
}

GpaStatus PmHostObject::BaseMetrics(std::vector<std::string>* names) const {
  names->clear();
  for (CUpti_MetricType type : {CUPTI_METRIC_TYPE_COUNTER, CUPTI_METRIC_TYPE_RATIO, CUPTI_METRIC_TYPE_THROUGHPUT}) {
    auto params =
        MakeParams<CUpti_Profiler_Host_GetBaseMetrics_Params>(CUpti_Profiler_Host_GetBaseMetrics_Params_STRUCT_SIZE);
    params.pHostObject = object_;
    params.metricType = type;
    if (CUptiResult result = cupti_.Api().host_get_base_metrics(&params); result != CUPTI_SUCCESS) {
      return LogError(kGpaStatusErrorFailed, "CUPTI PM sampling: cuptiProfilerHostGetBaseMetrics failed: {}",
                      cupti_.Describe(result));
    }
    for (size_t i = 0; i < params.numMetrics; ++i) names->emplace_back(params.ppMetricNames[i]);
  }
  std::sort(names->begin(), names->end());
  return kGpaStatusOk;
}

namespace {

// A counter-type metric with a plain rollup (.sum/.avg/.max/.min) is an amount per sample, which adds up
// over time; ratios, percentages and rates are readings.
bool Accumulates(const std::string& metric, CUpti_MetricType type) {
  if (type != CUPTI_METRIC_TYPE_COUNTER) return false;
  for (std::string_view rollup : {".sum", ".avg", ".max", ".min"}) {
    if (EndsWith(metric, rollup)) return true;
  }
  return false;
}

}  // namespace

GpaStatus PmHostObject::Describe(const std::string& metric, PmMetricProperties* properties) const {
  auto params = MakeParams<CUpti_Profiler_Host_GetMetricProperties_Params>(
      CUpti_Profiler_Host_GetMetricProperties_Params_STRUCT_SIZE);
  params.pHostObject = object_;
  params.pMetricName = metric.c_str();
  if (CUptiResult result = cupti_.Api().host_get_metric_properties(&params); result != CUPTI_SUCCESS) {
    return LogError(kGpaStatusErrorCounterNotFound, "CUPTI PM sampling: metric '{}' is unknown on {}: {}", metric,
                    chip_, cupti_.Describe(result));
  }
  properties->description = params.pDescription != nullptr ? params.pDescription : "";
  properties->accumulates = Accumulates(metric, params.metricType);
  // CUPTI reports the base metric's unit; a percentage or rate submetric changes it.
  std::string unit = params.pDimUnit != nullptr ? params.pDimUnit : "";
  if (metric.find(".pct_of_peak") != std::string::npos) {
    unit = "percent";
  } else if (EndsWith(metric, ".per_second")) {
    unit += "/s";
  } else if (EndsWith(metric, ".ratio")) {
    unit = "ratio";
  }
  properties->unit = unit;
  return kGpaStatusOk;
}

GpaStatus PmHostObject::BuildConfigImage(const std::vector<std::string>& metrics, std::vector<uint8_t>* image) {
  std::vector<const char*> names;
  names.reserve(metrics.size());
  for (const std::string& metric : metrics) names.push_back(metric.c_str());
  auto add =
      MakeParams<CUpti_Profiler_Host_ConfigAddMetrics_Params>(CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE);
  add.pHostObject = object_;
  add.ppMetricNames = names.data();
  add.numMetrics = names.size();
  if (CUptiResult result = cupti_.Api().host_config_add_metrics(&add); result != CUPTI_SUCCESS) {
    return LogError(kGpaStatusErrorCounterNotFound, "CUPTI PM sampling: cannot schedule metrics [{}] on {}: {}",
                    fmt::join(metrics, ", "), chip_, cupti_.Describe(result));
  }
  auto size = MakeParams<CUpti_Profiler_Host_GetConfigImageSize_Params>(
      CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE);
  size.pHostObject = object_;
  if (CUptiResult result = cupti_.Api().host_get_config_image_size(&size); result != CUPTI_SUCCESS) {
    return LogError(kGpaStatusErrorFailed, "CUPTI PM sampling: cuptiProfilerHostGetConfigImageSize failed: {}",
                    cupti_.Describe(result));
  }
  image->assign(size.configImageSize, 0);
  auto get =
      MakeParams<CUpti_Profiler_Host_GetConfigImage_Params>(CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE);
  get.pHostObject = object_;
  get.configImageSize = image->size();
  get.pConfigImage = image->data();
  if (CUptiResult result = cupti_.Api().host_get_config_image(&get); result != CUPTI_SUCCESS) {
    return LogError(kGpaStatusErrorFailed, "CUPTI PM sampling: cuptiProfilerHostGetConfigImage failed: {}",
                    cupti_.Describe(result));
  }
  auto passes =
      MakeParams<CUpti_Profiler_Host_GetNumOfPasses_Params>(CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE);
  passes.configImageSize = image->size();
  passes.pConfigImage = image->data();
  if (CUptiResult result = cupti_.Api().host_get_num_of_passes(&passes); result != CUPTI_SUCCESS) {
    return LogError(kGpaStatusErrorFailed, "CUPTI PM sampling: cuptiProfilerHostGetNumOfPasses failed: {}",
                    cupti_.Describe(result));
  }
  if (passes.numOfPasses != 1) {
    // PM sampling has no replay: everything must be counted at once.
    return LogError(kGpaStatusErrorNotEnoughPasses,
                    "CUPTI PM sampling: metrics [{}] need {} passes on {}; PM sampling can only collect one pass, "
                    "so sample fewer metrics",
                    fmt::join(metrics, ", "), passes.numOfPasses, chip_);
  }
  return kGpaStatusOk;
}

}  // namespace opengpa::nvidia
