#include "nvidia/cupti_host_metrics.h"

#include <cupti_profiler_host.h>
#include <cupti_range_profiler.h>

#include <cstdlib>
#include <utility>

#include "nvidia/cupti_loader.h"
#include "nvidia/cupti_status.h"
#include "platform/logging.h"

namespace opengpa::nvidia {
namespace {

CUpti_MetricType ToCupti(MetricKind kind) {
  switch (kind) {
    case MetricKind::kCounter: return CUPTI_METRIC_TYPE_COUNTER;
    case MetricKind::kRatio: return CUPTI_METRIC_TYPE_RATIO;
    case MetricKind::kThroughput: return CUPTI_METRIC_TYPE_THROUGHPUT;
  }
  return CUPTI_METRIC_TYPE_COUNTER;
}

MetricKind FromCupti(CUpti_MetricType type) {
  switch (type) {
    case CUPTI_METRIC_TYPE_RATIO: return MetricKind::kRatio;
    case CUPTI_METRIC_TYPE_THROUGHPUT: return MetricKind::kThroughput;
    default: return MetricKind::kCounter;
  }
}

std::string OrEmpty(const char* text) { return text != nullptr ? std::string(text) : std::string(); }

// Adds `metrics` to a fresh host object one at a time, to name the first one CUPTI refuses.
std::string FirstRefusedMetric(const CuptiHostMetrics& chip, const std::vector<std::string>& metrics) {
  HostObjectPtr host;
  if (CreateHostObject(chip.chip(), chip.counter_availability(), &host) != kGpaStatusOk) return {};
  for (const std::string& metric : metrics) {
    const char* name = metric.c_str();
    CUpti_Profiler_Host_ConfigAddMetrics_Params add{CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
    add.pHostObject = host.get();
    add.ppMetricNames = &name;
    add.numMetrics = 1;
    if (cuptiProfilerHostConfigAddMetrics(&add) != CUPTI_SUCCESS) return metric;
  }
  return {};
}

}  // namespace

void HostObjectDeleter::operator()(CUpti_Profiler_Host_Object* object) const {
  CUpti_Profiler_Host_Deinitialize_Params params{CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
  params.pHostObject = object;
  cuptiProfilerHostDeinitialize(&params);
}

GpaStatus CreateHostObject(std::string_view chip, const std::vector<std::uint8_t>& counter_availability,
                           HostObjectPtr* out) {
  const std::string chip_name(chip);
  CUpti_Profiler_Host_Initialize_Params params{CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
  params.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  params.pChipName = chip_name.c_str();
  params.pCounterAvailabilityImage = counter_availability.empty() ? nullptr : counter_availability.data();
  if (const CUptiResult result = cuptiProfilerHostInitialize(&params); result != CUPTI_SUCCESS) {
    return CuptiFailure(result, "cuptiProfilerHostInitialize", "chip " + chip_name);
  }
  out->reset(params.pHostObject);
  return kGpaStatusOk;
}

std::vector<std::string> SupportedChips() {
  CUpti_Profiler_Host_GetSupportedChips_Params params{CUpti_Profiler_Host_GetSupportedChips_Params_STRUCT_SIZE};
  std::vector<std::string> chips;
  if (cuptiProfilerHostGetSupportedChips(&params) != CUPTI_SUCCESS) return chips;
  for (std::size_t i = 0; i < params.numChips; ++i) chips.emplace_back(params.ppChipNames[i]);
  return chips;
}

CuptiHostMetrics::CuptiHostMetrics(Key, std::string chip, std::vector<std::uint8_t> availability, HostObjectPtr host)
    : chip_(std::move(chip)), counter_availability_(std::move(availability)), host_(std::move(host)) {}

GpaStatus CuptiHostMetrics::Create(std::string_view chip, std::vector<std::uint8_t> counter_availability,
                                   std::unique_ptr<CuptiHostMetrics>* out) {
  if (std::string why; LoadedCupti(&why) == nullptr) return LogError(kGpaStatusErrorLibLoadFailed, "{}", why);
  const std::vector<std::string> chips = SupportedChips();
  bool known = false;
  std::string known_list;
  for (const std::string& name : chips) {
    known = known || name == chip;
    known_list += (known_list.empty() ? "" : ", ") + name;
  }
  if (!known) {
    return LogError(kGpaStatusErrorHardwareNotSupported, "chip \"{}\" is not one the installed CUPTI can profile ({})",
                    chip, known_list);
  }
  HostObjectPtr host;
  if (GpaStatus status = CreateHostObject(chip, counter_availability, &host); status != kGpaStatusOk) return status;
  auto metrics =
      std::make_unique<CuptiHostMetrics>(Key{}, std::string(chip), std::move(counter_availability), std::move(host));
  if (GpaStatus status = metrics->ReadBaseMetrics(); status != kGpaStatusOk) return status;
  *out = std::move(metrics);
  return kGpaStatusOk;
}

GpaStatus CuptiHostMetrics::ReadBaseMetrics() {
  for (MetricKind kind : {MetricKind::kCounter, MetricKind::kRatio, MetricKind::kThroughput}) {
    CUpti_Profiler_Host_GetBaseMetrics_Params params{CUpti_Profiler_Host_GetBaseMetrics_Params_STRUCT_SIZE};
    params.pHostObject = host_.get();
    params.metricType = ToCupti(kind);
    if (const CUptiResult result = cuptiProfilerHostGetBaseMetrics(&params); result != CUPTI_SUCCESS) {
      return CuptiFailure(result, "cuptiProfilerHostGetBaseMetrics", "chip " + chip_);
    }
    base_metrics_[static_cast<int>(kind)].assign(params.ppMetricNames, params.ppMetricNames + params.numMetrics);
  }
  return kGpaStatusOk;
}

const std::vector<std::string>& CuptiHostMetrics::BaseMetrics(MetricKind kind) const {
  return base_metrics_[static_cast<int>(kind)];
}

GpaStatus CuptiHostMetrics::SubMetrics(MetricKind kind, std::string_view base,
                                       std::vector<std::string>* suffixes) const {
  const std::string name(base);
  CUpti_Profiler_Host_GetSubMetrics_Params params{CUpti_Profiler_Host_GetSubMetrics_Params_STRUCT_SIZE};
  params.pHostObject = host_.get();
  params.metricType = ToCupti(kind);
  params.pMetricName = name.c_str();
  if (const CUptiResult result = cuptiProfilerHostGetSubMetrics(&params); result != CUPTI_SUCCESS) {
    return CuptiFailure(result, "cuptiProfilerHostGetSubMetrics", "metric " + name);
  }
  suffixes->assign(params.ppSubMetrics, params.ppSubMetrics + params.numOfSubmetrics);
  return kGpaStatusOk;
}

GpaStatus CuptiHostMetrics::Properties(std::string_view metric, MetricProperties* out) const {
  const std::string name(metric);
  CUpti_Profiler_Host_GetMetricProperties_Params params{CUpti_Profiler_Host_GetMetricProperties_Params_STRUCT_SIZE};
  params.pHostObject = host_.get();
  params.pMetricName = name.c_str();
  if (const CUptiResult result = cuptiProfilerHostGetMetricProperties(&params); result != CUPTI_SUCCESS) {
    return ToGpaStatus(result);
  }
  out->description = OrEmpty(params.pDescription);
  out->hw_unit = OrEmpty(params.pHwUnit);
  out->dim_unit = OrEmpty(params.pDimUnit);
  out->kind = FromCupti(params.metricType);
  return kGpaStatusOk;
}

GpaStatus CuptiMetricConfig::Create(const CuptiHostMetrics& chip, std::vector<std::string> metrics,
                                    std::unique_ptr<CuptiMetricConfig>* out) {
  if (metrics.empty()) {
    return LogError(kGpaStatusErrorNoCountersEnabled, "a CUPTI configuration needs at least one metric");
  }
  auto config = std::make_unique<CuptiMetricConfig>(Key{});
  config->metrics_ = std::move(metrics);
  for (const std::string& metric : config->metrics_) config->metric_pointers_.push_back(metric.c_str());
  // CUPTI's host object accumulates metrics, so every configuration gets its own.
  if (GpaStatus status = CreateHostObject(chip.chip(), chip.counter_availability(), &config->host_);
      status != kGpaStatusOk) {
    return status;
  }
  CUpti_Profiler_Host_ConfigAddMetrics_Params add{CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
  add.pHostObject = config->host_.get();
  add.ppMetricNames = config->metric_pointers_.data();
  add.numMetrics = config->metric_pointers_.size();
  if (const CUptiResult result = cuptiProfilerHostConfigAddMetrics(&add); result != CUPTI_SUCCESS) {
    // Which metric CUPTI refuses is found by adding them one at a time (seconds for thousands): only when the
    // message will be read (a planner probing subsets mutes GPA's errors).
    const std::string refused = LoggingEnabled(kGpaLoggingError) ? FirstRefusedMetric(chip, config->metrics_) : "";
    return CuptiFailure(result, "cuptiProfilerHostConfigAddMetrics",
                        refused.empty() ? fmt::format("{} metrics on chip {}", config->metrics_.size(), chip.chip())
                                        : fmt::format("chip {} cannot collect \"{}\" together with the metrics before "
                                                      "it in this set of {}",
                                                      chip.chip(), refused, config->metrics_.size()));
  }
  CUpti_Profiler_Host_GetConfigImageSize_Params size{CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE};
  size.pHostObject = config->host_.get();
  if (const CUptiResult result = cuptiProfilerHostGetConfigImageSize(&size); result != CUPTI_SUCCESS) {
    return CuptiFailure(result, "cuptiProfilerHostGetConfigImageSize");
  }
  config->image_.resize(size.configImageSize);
  CUpti_Profiler_Host_GetConfigImage_Params image{CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE};
  image.pHostObject = config->host_.get();
  image.configImageSize = config->image_.size();
  image.pConfigImage = config->image_.data();
  if (const CUptiResult result = cuptiProfilerHostGetConfigImage(&image); result != CUPTI_SUCCESS) {
    return CuptiFailure(result, "cuptiProfilerHostGetConfigImage");
  }
  CUpti_Profiler_Host_GetNumOfPasses_Params passes{CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE};
  passes.configImageSize = config->image_.size();
  passes.pConfigImage = config->image_.data();
  if (const CUptiResult result = cuptiProfilerHostGetNumOfPasses(&passes); result != CUPTI_SUCCESS) {
    return CuptiFailure(result, "cuptiProfilerHostGetNumOfPasses");
  }
  config->pass_count_ = passes.numOfPasses;
  *out = std::move(config);
  return kGpaStatusOk;
}

GpaStatus CuptiMetricConfig::Evaluate(const std::vector<std::uint8_t>& counter_data, std::size_t range_index,
                                      double* values) const {
  CUpti_Profiler_Host_EvaluateToGpuValues_Params params{CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE};
  params.pHostObject = host_.get();
  params.pCounterDataImage = counter_data.data();
  params.counterDataImageSize = counter_data.size();
  params.rangeIndex = range_index;
  params.ppMetricNames = const_cast<const char**>(metric_pointers_.data());
  params.numMetrics = metric_pointers_.size();
  params.pMetricValues = values;
  if (const CUptiResult result = cuptiProfilerHostEvaluateToGpuValues(&params); result != CUPTI_SUCCESS) {
    return CuptiFailure(result, "cuptiProfilerHostEvaluateToGpuValues", fmt::format("range {}", range_index));
  }
  return kGpaStatusOk;
}

GpaStatus CounterDataRangeCount(const std::vector<std::uint8_t>& counter_data, std::size_t* count) {
  CUpti_RangeProfiler_GetCounterDataInfo_Params params{CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE};
  params.pCounterDataImage = counter_data.data();
  params.counterDataImageSize = counter_data.size();
  if (const CUptiResult result = cuptiRangeProfilerGetCounterDataInfo(&params); result != CUPTI_SUCCESS) {
    return CuptiFailure(result, "cuptiRangeProfilerGetCounterDataInfo");
  }
  *count = params.numTotalRanges;
  return kGpaStatusOk;
}

GpaStatus CounterDataRangeName(const std::vector<std::uint8_t>& counter_data, std::size_t range_index,
                               std::string* name) {
  CUpti_Profiler_Host_GetRangeName_Params params{CUpti_Profiler_Host_GetRangeName_Params_STRUCT_SIZE};
  params.pCounterDataImage = counter_data.data();
  params.counterDataImageSize = counter_data.size();
  params.rangeIndex = range_index;
  params.delimiter = "/";
  if (const CUptiResult result = cuptiProfilerHostGetRangeName(&params); result != CUPTI_SUCCESS) {
    return CuptiFailure(result, "cuptiProfilerHostGetRangeName", fmt::format("range {}", range_index));
  }
  *name = OrEmpty(params.pRangeName);
  // CUPTI allocates the name and leaves freeing it to the caller (cupti_profiler_host.h).
  std::free(const_cast<char*>(params.pRangeName));
  return kGpaStatusOk;
}

}  // namespace opengpa::nvidia
