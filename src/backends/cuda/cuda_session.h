// BackendSession for CUDA: GPA samples are CUPTI user ranges, GPA passes are CUPTI user-replay passes.
//
//   GpaBeginSession       enables the Range Profiler on the context with the session's config image
//   GpaBeginCommandList   starts pass p (passes in order, one at a time) and records an empty range,
//                         kStartupRange, that takes the pass's start-up out of the first sample
//   GpaBeginSample/End    push/pop a range named after the sample's slot
//   GpaEndCommandList     records an empty range, kIdleRange (the profiler's own start/stop of a range,
//                         subtracted from every sample's GR-busy cycles), stops the pass and records an event to
//                         answer GpaIsPassComplete
//   GpaEndSession         decodes the counter data (CUPTI waits for the context), evaluates every
//                         range into metric values, and disables the Range Profiler
#ifndef OPENGPA_BACKENDS_CUDA_CUDA_SESSION_H_
#define OPENGPA_BACKENDS_CUDA_CUDA_SESSION_H_

#include <cuda.h>

#include <memory>
#include <string>
#include <vector>

#include "core/backend.h"
#include "nvidia/cuda_driver.h"
#include "nvidia/cupti_host_metrics.h"
#include "nvidia/cupti_range_session.h"

namespace opengpa::cuda {

// The session's own CUPTI ranges besides the samples' (whose names are their slots).
inline constexpr const char* kStartupRange = "opengpa.startup";
inline constexpr const char* kIdleRange = "opengpa.idle";

// Whether `metric` counts the cycles the GPU's front end (GR) was busy: gr__cycles_active and its alias
// gpu__cycles_active, any rollup. These are the sample's busy time (GPUTime, docs/cuda.md "Time base").
bool IsBusyCycleMetric(const std::string& metric);

// Takes the profiler's own range start/stop out of the samples: for every busy-cycle metric, subtracts the
// empty range's value (`idle`, one per metric) from each row of `values` (rows of metrics.size()), never below 0.
void SubtractIdleRange(const std::vector<std::string>& metrics, const std::vector<double>& idle,
                       std::vector<double>* values);

class CudaSession : public BackendSession {
 public:
  // `driver` and `range_profilers` are the seams of the driver and of CUPTI: CPU tests pass fakes
  // (tests/cuda/cuda_session_test.cc).
  CudaSession(const nvidia::CudaDriver& driver, CUcontext context, std::unique_ptr<nvidia::CuptiMetricConfig> config,
              std::uint32_t max_samples_per_pass,
              nvidia::RangeProfilerFactory range_profilers = nvidia::CuptiRangeProfilerFactory());
  ~CudaSession() override;

  GpaUInt32 PassCount() const override { return static_cast<GpaUInt32>(config_->pass_count()); }
  [[nodiscard]] GpaStatus Begin() override;
  [[nodiscard]] GpaStatus End() override;
  [[nodiscard]] GpaStatus BeginCommandList(GpaUInt32 pass, void* api_list, GpaCommandListType type,
                                           std::unique_ptr<BackendCommandList>* out) override;
  [[nodiscard]] GpaStatus EndCommandList(BackendCommandList& list) override;
  [[nodiscard]] GpaStatus BeginSample(BackendCommandList& list, SampleSlot slot) override;
  [[nodiscard]] GpaStatus EndSample(BackendCommandList& list, SampleSlot slot) override;
  bool IsPassComplete(GpaUInt32 pass) override;
  [[nodiscard]] GpaStatus ReadResults(SampleSlot slot_count, std::vector<double>* values) override;

 private:
  struct EventDestroyer {
    const nvidia::CudaDriver* driver;
    void operator()(CUevent event) const { driver->cuEventDestroy(event); }
  };
  using EventPtr = std::unique_ptr<CUevent_st, EventDestroyer>;

  // Push and pop a range with no work in it.
  [[nodiscard]] GpaStatus RecordEmptyRange(const char* name);
  // Fills values_ from the decoded counter data; one row per range, found by the range's name (its slot).
  [[nodiscard]] GpaStatus EvaluateRanges();

  const nvidia::CudaDriver& driver_;
  CUcontext context_;
  std::unique_ptr<nvidia::CuptiMetricConfig> config_;
  std::uint32_t max_samples_per_pass_;

  nvidia::RangeProfilerFactory range_profilers_;
  std::unique_ptr<nvidia::RangeProfiler> ranges_;
  GpaUInt32 next_pass_ = 0;  // the pass GpaBeginCommandList must start next
  bool list_open_ = false;
  bool all_passes_submitted_ = false;
  std::vector<EventPtr> pass_done_;  // per ended pass: recorded after its work

  bool ended_ = false;
  GpaStatus result_status_ = kGpaStatusOk;  // why results cannot be read, if they cannot
  SampleSlot slots_seen_ = 0;
  std::vector<double> values_;  // slots_seen_ rows of config_->metrics().size()
};

}  // namespace opengpa::cuda

#endif  // OPENGPA_BACKENDS_CUDA_CUDA_SESSION_H_
