#include "backends/cuda/cuda_session.h"

#include <algorithm>
#include <charconv>
#include <string>

#include "platform/logging.h"

namespace opengpa::cuda {

using nvidia::CudaDriver;
using nvidia::CuptiMetricConfig;
using nvidia::RangeProfilerFactory;
using nvidia::RangeProfilerOptions;
using nvidia::ScopedCurrentContext;
namespace {

class CudaCommandList : public BackendCommandList {
 public:
  explicit CudaCommandList(GpaUInt32 pass) : pass_(pass) {}
  GpaUInt32 pass() const { return pass_; }

 private:
  GpaUInt32 pass_;
};

}  // namespace

bool IsBusyCycleMetric(const std::string& metric) {
  return metric.rfind("gr__cycles_active.", 0) == 0 || metric.rfind("gpu__cycles_active.", 0) == 0;
}

void SubtractIdleRange(const std::vector<std::string>& metrics, const std::vector<double>& idle,
                       std::vector<double>* values) {
  const std::size_t count = metrics.size();
  if (count == 0 || idle.size() != count) return;
  for (std::size_t m = 0; m < count; ++m) {
    if (!IsBusyCycleMetric(metrics[m])) continue;
    for (std::size_t row = m; row < values->size(); row += count) {
      (*values)[row] = std::max(0.0, (*values)[row] - idle[m]);
    }
  }
}

CudaSession::CudaSession(const CudaDriver& driver, CUcontext context, std::unique_ptr<CuptiMetricConfig> config,
                         std::uint32_t max_samples_per_pass, RangeProfilerFactory range_profilers)
    : driver_(driver),
      context_(context),
      config_(std::move(config)),
      max_samples_per_pass_(max_samples_per_pass),
      range_profilers_(std::move(range_profilers)) {}

CudaSession::~CudaSession() = default;

GpaStatus CudaSession::Begin() {
  RangeProfilerOptions options;
  options.range = CUPTI_UserRange;
  options.replay = CUPTI_UserReplay;
  options.max_ranges_per_pass = max_samples_per_pass_ + 2;  // the samples, kStartupRange and kIdleRange
  options.nesting_levels = 1;
  if (GpaStatus status = range_profilers_(context_, *config_, options, &ranges_); status != kGpaStatusOk) {
    return status;
  }
  Log(kGpaLoggingTrace, "CUDA session: {} CUPTI metrics in {} passes, up to {} samples per pass",
      config_->metrics().size(), config_->pass_count(), max_samples_per_pass_);
  return kGpaStatusOk;
}

GpaStatus CudaSession::BeginCommandList(GpaUInt32 pass, void* api_list, GpaCommandListType type,
                                        std::unique_ptr<BackendCommandList>* out) {
  if (type != kGpaCommandListNone || api_list != nullptr) {
    return LogError(kGpaStatusErrorInvalidParameter,
                    "CUDA has no command lists: pass GPA_NULL_COMMAND_LIST and kGpaCommandListNone (got command_list "
                    "{}, type {})",
                    api_list, static_cast<int>(type));
  }
  if (list_open_) {
    return LogError(kGpaStatusErrorInvalidParameter,
                    "pass {} cannot begin while the command list of pass {} is open: CUDA records one pass at a time",
                    pass, next_pass_ - 1);
  }
  if (pass != next_pass_) {
    return LogError(kGpaStatusErrorInvalidParameter,
                    "pass_index {}: CUPTI replays passes in order and expects pass {} next", pass, next_pass_);
  }
  if (GpaStatus status = ranges_->Start(); status != kGpaStatusOk) return status;
  // The first range of a pass holds the pass's start-up (measured on the H100: its GR-busy time 1-2 us longer
  // than the same work later in the pass, its elapsed time 50-220 us longer): an empty range takes it, so that
  // the first sample measures only its own work.
  if (GpaStatus status = RecordEmptyRange(kStartupRange); status != kGpaStatusOk) return status;
  list_open_ = true;
  ++next_pass_;
  *out = std::make_unique<CudaCommandList>(pass);
  return kGpaStatusOk;
}

GpaStatus CudaSession::EndCommandList(BackendCommandList& list) {
  const GpaUInt32 pass = static_cast<CudaCommandList&>(list).pass();
  bool all_submitted = false;
  list_open_ = false;
  // An empty range: what a range's own start and stop keep GR busy (about 2 us on the H100), subtracted from
  // every sample of the pass's busy cycles (SubtractIdleRange). Last, after the samples, so that nothing of the
  // application's is in flight around it and the pass's start-up is long over.
  GpaStatus idle_status = RecordEmptyRange(kIdleRange);
  if (GpaStatus status = ranges_->Stop(&all_submitted); status != kGpaStatusOk) return status;
  if (idle_status != kGpaStatusOk) return idle_status;
  all_passes_submitted_ = all_submitted;
  const bool last = pass + 1 == PassCount();
  if (all_submitted != last) {
    Log(kGpaLoggingError, "CUPTI reports all passes {}submitted after pass {} of {}", all_submitted ? "" : "not ", pass,
        PassCount());
  }

  // GpaIsPassComplete: an event after the pass's work on the legacy default stream, which waits for
  // all blocking streams of the context.
  CUevent event = nullptr;
  ScopedCurrentContext current(driver_, context_);
  CUresult result = current.result();
  if (result == CUDA_SUCCESS) result = driver_.cuEventCreate(&event, CU_EVENT_DISABLE_TIMING);
  if (result == CUDA_SUCCESS) {
    pass_done_.emplace_back(event, EventDestroyer{&driver_});
    result = driver_.cuEventRecord(event, nullptr);
  }
  if (result != CUDA_SUCCESS) {
    return driver_.Failure(kGpaStatusErrorFailed, result, "cuEventRecord", fmt::format("end of pass {}", pass));
  }
  return kGpaStatusOk;
}

GpaStatus CudaSession::RecordEmptyRange(const char* name) {
  if (GpaStatus status = ranges_->PushRange(name); status != kGpaStatusOk) return status;
  return ranges_->PopRange();
}

GpaStatus CudaSession::BeginSample(BackendCommandList& /*list*/, SampleSlot slot) {
  if (slot >= max_samples_per_pass_) {
    return LogError(kGpaStatusErrorIndexOutOfRange,
                    "sample slot {} exceeds the {} samples per pass this context reserves "
                    "(GpaCudaContextOpenInfo::max_samples_per_pass)",
                    slot, max_samples_per_pass_);
  }
  // The range's name is the slot, so that results find their sample whatever order CUPTI stores ranges in.
  char name[16];
  const auto [end, error] = std::to_chars(name, name + sizeof(name) - 1, slot);
  *end = '\0';
  if (GpaStatus status = ranges_->PushRange(name); status != kGpaStatusOk) return status;
  slots_seen_ = std::max(slots_seen_, slot + 1);
  return kGpaStatusOk;
}

GpaStatus CudaSession::EndSample(BackendCommandList& /*list*/, SampleSlot /*slot*/) { return ranges_->PopRange(); }

bool CudaSession::IsPassComplete(GpaUInt32 pass) {
  if (ended_) return true;  // GpaEndSession waited for everything
  if (pass >= pass_done_.size()) return false;
  return driver_.cuEventQuery(pass_done_[pass].get()) == CUDA_SUCCESS;
}

GpaStatus CudaSession::End() {
  if (list_open_) {
    return LogError(kGpaStatusErrorCommandListNotEnded, "the command list of pass {} was not ended", next_pass_ - 1);
  }
  if (!all_passes_submitted_) {
    return LogError(kGpaStatusErrorNotEnoughPasses, "CUPTI needs {} passes and {} were recorded", PassCount(),
                    next_pass_);
  }
  std::size_t dropped = 0;
  result_status_ = ranges_->Decode(&dropped);
  if (result_status_ == kGpaStatusOk && dropped != 0) {
    result_status_ =
        LogError(kGpaStatusErrorReadingSampleResult,
                 "CUPTI dropped {} ranges: more samples than the {} per pass reserved", dropped, max_samples_per_pass_);
  }
  if (result_status_ == kGpaStatusOk) result_status_ = EvaluateRanges();
  // Results are in values_: release the Range Profiler so the next session can begin.
  ranges_.reset();
  pass_done_.clear();
  ended_ = true;
  return kGpaStatusOk;
}

GpaStatus CudaSession::EvaluateRanges() {
  const std::size_t metric_count = config_->metrics().size();
  values_.assign(static_cast<std::size_t>(slots_seen_) * metric_count, 0.0);
  std::vector<double> idle;
  std::size_t range_count = 0;
  if (GpaStatus status = ranges_->RangeCount(&range_count); status != kGpaStatusOk) return status;
  for (std::size_t range = 0; range < range_count; ++range) {
    std::string name;
    if (GpaStatus status = ranges_->RangeName(range, &name); status != kGpaStatusOk) return status;
    if (name == kStartupRange) continue;
    if (name == kIdleRange) {
      idle.assign(metric_count, 0.0);
      if (GpaStatus status = ranges_->EvaluateRange(range, idle.data()); status != kGpaStatusOk) return status;
      continue;
    }
    SampleSlot slot = 0;
    const auto [end, error] = std::from_chars(name.data(), name.data() + name.size(), slot);
    if (error != std::errc() || end != name.data() + name.size() || slot >= slots_seen_) {
      return LogError(kGpaStatusErrorReadingSampleResult, "CUPTI range {} has the unexpected name \"{}\"", range, name);
    }
    if (GpaStatus status = ranges_->EvaluateRange(range, &values_[slot * metric_count]); status != kGpaStatusOk) {
      return status;
    }
  }
  if (idle.empty()) {
    Log(kGpaLoggingError, "CUPTI returned no \"{}\" range: GR-busy cycles include the range start/stop", kIdleRange);
  }
  SubtractIdleRange(config_->metrics(), idle, &values_);
  return kGpaStatusOk;
}

GpaStatus CudaSession::ReadResults(SampleSlot slot_count, std::vector<double>* values) {
  if (!ended_) return LogError(kGpaStatusErrorSessionNotEnded, "results are read after GpaEndSession");
  if (result_status_ != kGpaStatusOk) return result_status_;
  const std::size_t metric_count = config_->metrics().size();
  values->assign(static_cast<std::size_t>(slot_count) * metric_count, 0.0);
  const std::size_t rows = std::min<std::size_t>(slot_count, slots_seen_);
  std::copy(values_.begin(), values_.begin() + rows * metric_count, values->begin());
  return kGpaStatusOk;
}

}  // namespace opengpa::cuda
