#include "nvidia/perfworks_metrics.h"

#include <fmt/format.h>

#include <array>

#include "platform/logging.h"

namespace opengpa::nvidia::perfworks {
namespace {

constexpr std::array<std::string_view, 4> kCounterRollups{".sum", ".avg", ".min", ".max"};
constexpr std::array<std::string_view, 2> kRatioRollups{".pct", ".ratio"};
constexpr std::string_view kThroughputRollup = ".avg.pct_of_peak_sustained_elapsed";

GpaStatus CounterDataPrefix(const HostFunctions& host, const std::string& chip,
                            const std::vector<RawMetricRequest>& requests, std::vector<std::uint8_t>* prefix) {
  auto create = MakeParams<CounterDataBuilderCreateParams>();
  create.chip_name = chip.c_str();
  if (Status s = host.builder_create(&create); s != kSuccess) {
    return LogError(kGpaStatusErrorFailed, "NVPW_CounterDataBuilder_Create({}) failed: {}", chip, StatusName(s));
  }
  auto destroy = MakeParams<CounterDataBuilderParams>();
  destroy.builder = create.builder;
  auto add = MakeParams<CounterDataBuilderAddMetricsParams>();
  add.builder = create.builder;
  add.requests = requests.data();
  add.request_count = requests.size();
  Status s = host.builder_add_metrics(&add);
  auto get = MakeParams<CounterDataBuilderGetPrefixParams>();
  get.builder = create.builder;
  if (s == kSuccess) s = host.builder_get_prefix(&get);
  if (s == kSuccess) {
    prefix->assign(get.bytes_copied, 0);
    get.bytes_allocated = prefix->size();
    get.buffer = prefix->data();
    s = host.builder_get_prefix(&get);
  }
  host.builder_destroy(&destroy);
  if (s != kSuccess) {
    return LogError(kGpaStatusErrorFailed, "the counter-data prefix for {} could not be built: {}", chip,
                    StatusName(s));
  }
  return kGpaStatusOk;
}

}  // namespace

// A raw-metrics configuration of one sampler pass, destroyed with the object.
class PassBuilder {
 public:
  PassBuilder(const HostFunctions& host, const std::string& chip, const std::vector<std::uint8_t>& availability)
      : host_(host) {
    auto create = MakeParams<DeviceRawMetricsConfigCreateParams>();
    create.activity_kind = kActivityRealtimeSampled;
    create.chip_name = chip.c_str();
    status_ = host_.raw_config_create(&create);
    if (status_ != kSuccess) return;
    config_ = create.config;
    if (!availability.empty()) {
      auto set = MakeParams<RawConfigSetCounterAvailabilityParams>();
      set.config = config_;
      set.availability_image = availability.data();
      status_ = host_.raw_config_set_counter_availability(&set);
      if (status_ != kSuccess) return;
    }
    auto begin = MakeParams<RawConfigBeginPassGroupParams>();
    begin.config = config_;
    begin.max_pass_count = 1;  // a sampler session collects exactly one pass
    status_ = host_.raw_config_begin_pass_group(&begin);
  }
  ~PassBuilder() {
    if (config_ == nullptr) return;
    auto destroy = MakeParams<RawConfigParams>();
    destroy.config = config_;
    host_.raw_config_destroy(&destroy);
  }
  PassBuilder(const PassBuilder&) = delete;
  PassBuilder& operator=(const PassBuilder&) = delete;

  Status status() const { return status_; }

  // Whether the pass still has room for the raw counters of one metric.
  bool Fits(const std::vector<const char*>& dependencies) const {
    if (status_ != kSuccess) return false;
    std::vector<RawMetricRequest> requests = Requests(dependencies);
    auto possible = MakeParams<RawConfigIsAddMetricsPossibleParams>();
    possible.config = config_;
    possible.requests = requests.data();
    possible.request_count = requests.size();
    return host_.raw_config_is_add_metrics_possible(&possible) == kSuccess && possible.possible;
  }

  // Adds the raw counters of one metric if the pass still fits them.
  bool TryAdd(const std::vector<const char*>& dependencies) {
    if (!Fits(dependencies)) return false;
    std::vector<RawMetricRequest> requests = Requests(dependencies);
    auto add = MakeParams<RawConfigAddMetricsParams>();
    add.config = config_;
    add.requests = requests.data();
    add.request_count = requests.size();
    return host_.raw_config_add_metrics(&add) == kSuccess;
  }

  Status Finish(std::vector<std::uint8_t>* image) {
    auto end = MakeParams<RawConfigParams>();
    end.config = config_;
    if (Status s = host_.raw_config_end_pass_group(&end); s != kSuccess) return s;
    auto generate = MakeParams<RawConfigGenerateImageParams>();
    generate.config = config_;
    generate.merge_all_pass_groups = 1;
    if (Status s = host_.raw_config_generate_image(&generate); s != kSuccess) return s;
    auto get = MakeParams<RawConfigGetImageParams>();
    get.config = config_;
    if (Status s = host_.raw_config_get_image(&get); s != kSuccess) return s;  // sizes the image
    image->assign(get.bytes_copied, 0);
    get.bytes_allocated = image->size();
    get.buffer = image->data();
    return host_.raw_config_get_image(&get);
  }

  static std::vector<RawMetricRequest> Requests(const std::vector<const char*>& dependencies) {
    std::vector<RawMetricRequest> requests;
    for (const char* name : dependencies) {
      auto request = MakeParams<RawMetricRequest>();
      request.metric_name = name;
      request.keep_instances = 1;  // per-unit values, so .max/.min rollups can be evaluated
      requests.push_back(request);
    }
    return requests;
  }

 private:
  const HostFunctions& host_;
  RawMetricsConfig* config_ = nullptr;
  Status status_ = kSuccess;
};

std::unique_ptr<ChipMetrics> ChipMetrics::Create(const PerfWorksLibrary& library, const std::string& chip,
                                                 std::vector<std::uint8_t> availability, std::string* why) {
  const HostFunctions& host = library.Host();
  std::unique_ptr<ChipMetrics> metrics(new ChipMetrics(library, chip));
  metrics->availability_ = std::move(availability);
  auto size = MakeParams<DeviceEvaluatorScratchSizeParams>();
  size.chip_name = chip.c_str();
  if (Status s = host.evaluator_scratch_size(&size); s != kSuccess) {
    *why = fmt::format("PerfWorks has no device metrics for chip {}: {}", chip, StatusName(s));
    return nullptr;
  }
  metrics->scratch_.assign(size.scratch_size, 0);
  auto init = MakeParams<DeviceEvaluatorInitializeParams>();
  init.scratch = metrics->scratch_.data();
  init.scratch_size = metrics->scratch_.size();
  init.chip_name = chip.c_str();
  if (Status s = host.evaluator_initialize(&init); s != kSuccess) {
    *why = fmt::format("NVPW_Device_MetricsEvaluator_Initialize({}) failed: {}", chip, StatusName(s));
    return nullptr;
  }
  metrics->evaluator_ = init.evaluator;
  return metrics;
}

ChipMetrics::ChipMetrics(const PerfWorksLibrary& library, std::string chip)
    : library_(library), chip_(std::move(chip)) {}

ChipMetrics::~ChipMetrics() {
  empty_pass_.reset();
  if (evaluator_ == nullptr) return;
  auto destroy = MakeParams<EvaluatorDestroyParams>();
  destroy.evaluator = evaluator_;
  library_.Host().evaluator_destroy(&destroy);
}

std::vector<MetricDescription> ChipMetrics::ListMetrics() const {
  const HostFunctions& host = library_.Host();
  std::vector<MetricDescription> list;
  auto unit_name = [&](std::uint32_t unit) {
    auto params = MakeParams<EvaluatorHwUnitToStringParams>();
    params.evaluator = evaluator_;
    params.hw_unit = unit;
    return host.evaluator_hw_unit_to_string(&params) == kSuccess && params.name ? std::string(params.name)
                                                                                : std::string();
  };
  for (std::uint8_t type : {kMetricCounter, kMetricRatio, kMetricThroughput}) {
    auto names = MakeParams<EvaluatorGetMetricNamesParams>();
    names.evaluator = evaluator_;
    names.metric_type = type;
    if (host.evaluator_get_metric_names(&names) != kSuccess) continue;
    for (std::size_t i = 0; i < names.metric_count; ++i) {
      const std::string base = names.names + names.name_begin_indices[i];
      MetricDescription described;
      described.type = static_cast<MetricType>(type);
      if (type == kMetricCounter) {
        auto p = MakeParams<EvaluatorCounterPropertiesParams>();
        p.evaluator = evaluator_;
        p.counter_index = i;
        if (host.evaluator_counter_properties(&p) == kSuccess) {
          described.description = p.description ? p.description : "";
          described.hw_unit = unit_name(p.hw_unit);
        }
      } else if (type == kMetricRatio) {
        auto p = MakeParams<EvaluatorRatioPropertiesParams>();
        p.evaluator = evaluator_;
        p.ratio_index = i;
        if (host.evaluator_ratio_properties(&p) == kSuccess) {
          described.description = p.description ? p.description : "";
          described.hw_unit = unit_name(static_cast<std::uint32_t>(p.hw_unit));
        }
      } else {
        auto p = MakeParams<EvaluatorThroughputPropertiesParams>();
        p.evaluator = evaluator_;
        p.throughput_index = i;
        if (host.evaluator_throughput_properties(&p) == kSuccess) {
          described.description = p.description ? p.description : "";
          described.hw_unit = unit_name(p.hw_unit);
        }
      }
      auto add = [&](std::string_view rollup) {
        MetricDescription entry = described;
        entry.name = base + std::string(rollup);
        list.push_back(std::move(entry));
      };
      if (type == kMetricCounter) {
        for (std::string_view rollup : kCounterRollups) add(rollup);
      } else if (type == kMetricRatio) {
        for (std::string_view rollup : kRatioRollups) add(rollup);
      } else {
        add(kThroughputRollup);
      }
    }
  }
  return list;
}

bool ChipMetrics::Request(std::string_view name, MetricEvalRequest* request) const {
  const std::string text(name);
  auto params = MakeParams<EvaluatorNameToRequestParams>();
  params.evaluator = evaluator_;
  params.metric_name = text.c_str();
  params.request = request;
  params.request_struct_size = sizeof(MetricEvalRequest);
  return library_.Host().evaluator_name_to_request(&params) == kSuccess;
}

bool ChipMetrics::RawDependencies(const MetricEvalRequest& request, std::vector<const char*>* names) const {
  auto params = MakeParams<EvaluatorRawDependenciesParams>();
  params.evaluator = evaluator_;
  params.requests = &request;
  params.request_count = 1;
  params.request_struct_size = sizeof(MetricEvalRequest);
  params.request_stride = sizeof(MetricEvalRequest);
  if (library_.Host().evaluator_raw_dependencies(&params) != kSuccess) return false;  // counts them
  names->assign(params.raw_dependency_count, nullptr);
  params.raw_dependencies = names->data();
  params.optional_raw_dependency_count = 0;
  return library_.Host().evaluator_raw_dependencies(&params) == kSuccess;
}

bool ChipMetrics::IsSampleable(std::string_view name) const {
  MetricEvalRequest request{};
  std::vector<const char*> dependencies;
  if (!Request(name, &request) || !RawDependencies(request, &dependencies)) return false;
  // One empty configuration answers every question: asking does not add.
  if (empty_pass_ == nullptr) empty_pass_ = std::make_unique<PassBuilder>(library_.Host(), chip_, availability_);
  return empty_pass_->Fits(dependencies);
}

GpaStatus ChipMetrics::BuildPass(const std::vector<std::vector<const char*>>& dependencies, PassConfig* pass) const {
  PassBuilder builder(library_.Host(), chip_, availability_);
  std::vector<const char*> all;
  for (const auto& metric : dependencies) {
    if (!builder.TryAdd(metric)) {
      return LogError(kGpaStatusErrorFailed, "PerfWorks refused a sampler pass it had planned on {}", chip_);
    }
    all.insert(all.end(), metric.begin(), metric.end());
  }
  if (Status s = builder.Finish(&pass->config_image); s != kSuccess) {
    return LogError(kGpaStatusErrorFailed, "the sampler configuration for {} could not be generated: {}", chip_,
                    StatusName(s));
  }
  return CounterDataPrefix(library_.Host(), chip_, PassBuilder::Requests(all), &pass->counter_data_prefix);
}

GpaStatus ChipMetrics::PlanPasses(const std::vector<std::string>& names, std::vector<PassConfig>* passes) const {
  passes->clear();
  // First fit: each metric goes into the first pass that still has room for its raw counters.
  std::vector<std::unique_ptr<PassBuilder>> builders;
  std::vector<std::vector<std::vector<const char*>>> dependencies;  // [pass][metric in pass]
  std::vector<std::vector<std::size_t>> members;
  for (std::size_t i = 0; i < names.size(); ++i) {
    MetricEvalRequest request{};
    std::vector<const char*> raw;
    if (!Request(names[i], &request) || !RawDependencies(request, &raw)) {
      return LogError(kGpaStatusErrorCounterNotFound, "\"{}\" is not a PerfWorks metric of {}", names[i], chip_);
    }
    std::size_t chosen = builders.size();
    for (std::size_t p = 0; p < builders.size() && chosen == builders.size(); ++p) {
      if (builders[p]->TryAdd(raw)) chosen = p;
    }
    if (chosen == builders.size()) {
      builders.push_back(std::make_unique<PassBuilder>(library_.Host(), chip_, availability_));
      if (builders.back()->status() != kSuccess) {
        return LogError(kGpaStatusErrorFailed, "a sampler configuration for {} could not be created: {}", chip_,
                        StatusName(builders.back()->status()));
      }
      if (!builders.back()->TryAdd(raw)) {
        return LogError(kGpaStatusErrorFailed,
                        "\"{}\" needs more counters than one GPU periodic sampler pass of {} collects; it cannot be "
                        "sampled",
                        names[i], chip_);
      }
      dependencies.emplace_back();
      members.emplace_back();
    }
    dependencies[chosen].push_back(std::move(raw));
    members[chosen].push_back(i);
  }
  builders.clear();
  for (std::size_t p = 0; p < members.size(); ++p) {
    PassConfig pass;
    pass.metrics = members[p];
    GpaStatus status = BuildPass(dependencies[p], &pass);
    if (status != kGpaStatusOk) return status;
    passes->push_back(std::move(pass));
  }
  return kGpaStatusOk;
}

GpaStatus ChipMetrics::UseDeviceOf(const std::vector<std::uint8_t>& counter_data) const {
  auto attributes = MakeParams<EvaluatorSetDeviceAttributesParams>();
  attributes.evaluator = evaluator_;
  attributes.counter_data = counter_data.data();
  attributes.counter_data_size = counter_data.size();
  if (Status s = library_.Host().evaluator_set_device_attributes(&attributes); s != kSuccess) {
    return LogError(kGpaStatusErrorFailed, "NVPW_MetricsEvaluator_SetDeviceAttributes failed: {}", StatusName(s));
  }
  return kGpaStatusOk;
}

GpaStatus ChipMetrics::Evaluate(const std::vector<std::string>& names, const std::vector<std::uint8_t>& counter_data,
                                std::size_t range, std::vector<double>* values) const {
  const HostFunctions& host = library_.Host();
  std::vector<MetricEvalRequest> requests(names.size());
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (!Request(names[i], &requests[i])) {
      return LogError(kGpaStatusErrorCounterNotFound, "\"{}\" is not a PerfWorks metric of {}", names[i], chip_);
    }
  }
  values->assign(names.size(), 0.0);
  auto evaluate = MakeParams<EvaluatorEvaluateParams>();
  evaluate.evaluator = evaluator_;
  evaluate.requests = requests.data();
  evaluate.request_count = requests.size();
  evaluate.request_struct_size = sizeof(MetricEvalRequest);
  evaluate.request_stride = sizeof(MetricEvalRequest);
  evaluate.counter_data = counter_data.data();
  evaluate.counter_data_size = counter_data.size();
  evaluate.range_index = range;
  evaluate.values = values->data();
  if (Status s = host.evaluator_evaluate(&evaluate); s != kSuccess) {
    return LogError(kGpaStatusErrorFailed, "NVPW_MetricsEvaluator_EvaluateToGpuValues (sample {}) failed: {}", range,
                    StatusName(s));
  }
  return kGpaStatusOk;
}

}  // namespace opengpa::nvidia::perfworks
