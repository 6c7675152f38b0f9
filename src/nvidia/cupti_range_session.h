// CUPTI's Range Profiler on one CUDA context (cupti_range_profiler.h): enable, configure with a
// CuptiMetricConfig, run passes (Start..Stop) with ranges (Push..Pop), decode into a counter-data image.
// Owns the range-profiler object: destroying the session stops an open pass and disables profiling.
//
// User range + user replay is what GPA samples and passes map to; the `opengpa profile` CLI uses auto
// range + kernel replay through the same class.
#ifndef OPENGPA_NVIDIA_CUPTI_RANGE_SESSION_H_
#define OPENGPA_NVIDIA_CUPTI_RANGE_SESSION_H_

#include <cuda.h>
#include <cupti_profiler_target.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "gpu_performance_api/gpu_perf_api_types.h"
#include "nvidia/cupti_host_metrics.h"

struct CUpti_RangeProfiler_Object;

namespace opengpa::nvidia {

// cuptiProfilerInitialize, once per process and never undone (cupti_profiler_initialization.h): the range
// profiler's target side needs it.
[[nodiscard]] GpaStatus EnsureCuptiProfilerInitialized();

// CUPTI's chip name for a device ordinal, e.g. "GH100".
[[nodiscard]] GpaStatus CuptiChipName(CUdevice device, std::string* chip);

// Whether CUPTI can profile `device`; on failure the log names each reason CUPTI gives (vGPU, MIG, ...).
[[nodiscard]] GpaStatus CheckDeviceSupportsRangeProfiling(CUdevice device);

// The counter-availability image of a context's device (lets host code leave out metrics the device
// cannot collect now).
[[nodiscard]] GpaStatus CounterAvailabilityImage(CUcontext context, std::vector<std::uint8_t>* image);

struct RangeProfilerOptions {
  CUpti_ProfilerRange range = CUPTI_UserRange;
  CUpti_ProfilerReplayMode replay = CUPTI_UserReplay;
  // Capacity of the counter-data image; CUPTI's Start costs more the larger it is (docs/cuda.md).
  std::size_t max_ranges_per_pass = 256;
  std::uint16_t nesting_levels = 1;
};

// A range-profiler session as its users drive it (the CUDA backend's sessions): passes, ranges, and the decoded
// ranges' values. The seam where CPU tests put a fake in place of CUPTI (tests/cuda/cuda_session_test.cc); the
// one implementation over CUPTI is CuptiRangeSession.
class RangeProfiler {
 public:
  virtual ~RangeProfiler() = default;
  // One pass: Start, ranges and work, Stop. Stop says whether CUPTI has now seen every pass it needs.
  [[nodiscard]] virtual GpaStatus Start() = 0;
  [[nodiscard]] virtual GpaStatus Stop(bool* all_passes_submitted) = 0;
  [[nodiscard]] virtual GpaStatus PushRange(const char* name) = 0;
  [[nodiscard]] virtual GpaStatus PopRange() = 0;
  // Waits for the context's work and decodes the collected passes.
  [[nodiscard]] virtual GpaStatus Decode(std::size_t* ranges_dropped) = 0;
  // After Decode: the decoded ranges, each named as pushed, and one value per metric of the configuration.
  [[nodiscard]] virtual GpaStatus RangeCount(std::size_t* count) const = 0;
  [[nodiscard]] virtual GpaStatus RangeName(std::size_t range, std::string* name) const = 0;
  [[nodiscard]] virtual GpaStatus EvaluateRange(std::size_t range, double* values) const = 0;
};

// Makes the range-profiler session of `context` for `config` (which must outlive it).
using RangeProfilerFactory =
    std::function<GpaStatus(CUcontext context, const CuptiMetricConfig& config, const RangeProfilerOptions& options,
                            std::unique_ptr<RangeProfiler>* out)>;

// The factory over CUPTI: CuptiRangeSession::Create.
RangeProfilerFactory CuptiRangeProfilerFactory();

class CuptiRangeSession : public RangeProfiler {
  struct Disabler {
    void operator()(CUpti_RangeProfiler_Object* object) const;
  };
  using ObjectPtr = std::unique_ptr<CUpti_RangeProfiler_Object, Disabler>;
  struct Key {  // only Create constructs one
    explicit Key() = default;
  };

 public:
  CuptiRangeSession(Key, const CuptiMetricConfig& config, const RangeProfilerOptions& options, ObjectPtr object);

  // Enables range profiling on `context` (fails if another profiler, e.g. ncu, holds it) and sets the
  // configuration. `config` must outlive the session.
  [[nodiscard]] static GpaStatus Create(CUcontext context, const CuptiMetricConfig& config,
                                        const RangeProfilerOptions& options, std::unique_ptr<CuptiRangeSession>* out);
  ~CuptiRangeSession() override;
  CuptiRangeSession(const CuptiRangeSession&) = delete;
  CuptiRangeSession& operator=(const CuptiRangeSession&) = delete;

  [[nodiscard]] GpaStatus Start() override;
  [[nodiscard]] GpaStatus Stop(bool* all_passes_submitted) override;
  [[nodiscard]] GpaStatus PushRange(const char* name) override;
  [[nodiscard]] GpaStatus PopRange() override;
  // Decodes into counter_data().
  [[nodiscard]] GpaStatus Decode(std::size_t* ranges_dropped) override;
  [[nodiscard]] GpaStatus RangeCount(std::size_t* count) const override;
  [[nodiscard]] GpaStatus RangeName(std::size_t range, std::string* name) const override;
  [[nodiscard]] GpaStatus EvaluateRange(std::size_t range, double* values) const override;

  // After Decode, readies the same range-profiler object for another Start: the counter-data image is
  // initialized afresh (its ranges read, they are dropped), and with `set_config` the configuration is set
  // again. Reusing the object spares enabling profiling and allocating CUPTI's per-range buffers again.
  [[nodiscard]] GpaStatus ResetCounterData(bool set_config);

  bool started() const { return started_; }
  const std::vector<std::uint8_t>& counter_data() const { return counter_data_; }
  const CuptiMetricConfig& config() const { return config_; }

 private:
  [[nodiscard]] GpaStatus InitializeCounterData();
  [[nodiscard]] GpaStatus SetConfig();

  const CuptiMetricConfig& config_;
  RangeProfilerOptions options_;
  ObjectPtr object_;
  std::vector<std::uint8_t> counter_data_;
  bool started_ = false;
};

}  // namespace opengpa::nvidia

#endif  // OPENGPA_NVIDIA_CUPTI_RANGE_SESSION_H_
