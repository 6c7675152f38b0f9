// BackendContext for CUDA: the chip's CUPTI metrics as hardware counters, the embedded catalogs, pass
// counts from CUPTI's scheduler, and sessions over the Range Profiler. A live context measures a
// CUcontext; an offline one (no context, a chip name) enumerates and counts passes only.
#ifndef OPENGPA_BACKENDS_CUDA_CUDA_CONTEXT_H_
#define OPENGPA_BACKENDS_CUDA_CUDA_CONTEXT_H_

#include <cuda.h>

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "core/backend.h"
#include "cuda_counters/cuda_device.h"
#include "nvidia/cupti_host_metrics.h"

namespace opengpa::cuda {

class CudaContext : public BackendContext {
  struct Key {  // only Open constructs contexts (make_unique needs a public constructor)
    explicit Key() = default;
  };

 public:
  explicit CudaContext(Key) {}

  struct Live {
    CUcontext context = nullptr;
    const nvidia::CudaDriver* driver = nullptr;
    LiveDevice device;
  };

  // `live` is empty for an offline context (chip_name then names the chip).
  [[nodiscard]] static GpaStatus Open(const std::string& chip_name, std::unique_ptr<Live> live,
                                      std::uint32_t max_samples_per_pass, std::unique_ptr<BackendContext>* out);

  const DeviceInfo& Device() const override { return device_; }
  // Discrete counters always; streaming counters where PM sampling works (a live GPU of compute capability 8.6 or
  // newer, or an offline chip of that kind, which lists and checks streamable counters but cannot stream).
  GpaContextSampleTypeFlags SupportedSampleTypes() const override {
    return kGpaContextSampleTypeDiscreteCounter | (streams_ ? kGpaContextSampleTypeStreamingCounter : 0);
  }
  const std::vector<HardwareCounterInfo>& HardwareCounters() const override { return hardware_; }
  std::vector<std::string_view> DerivedCatalogs() const override;
  std::vector<std::pair<std::string, double>> Constants() const override;
  [[nodiscard]] GpaStatus CountPasses(const std::vector<HardwareCounterIndex>& counters, GpaUInt32* passes) override;
  [[nodiscard]] GpaStatus CheckStreamable(const std::vector<HardwareCounterIndex>& counters) override;
  [[nodiscard]] GpaStatus CreateSession(int type, const std::vector<HardwareCounterIndex>& counters,
                                        std::unique_ptr<BackendSession>* out) override;

  bool offline() const { return live_ == nullptr; }
  const nvidia::CuptiHostMetrics& metrics() const { return *metrics_; }

 private:
  // The CUPTI metric names of `counters`, in order; fails (logged) for an index out of range.
  [[nodiscard]] GpaStatus MetricNames(const std::vector<HardwareCounterIndex>& counters,
                                      std::vector<std::string>* names) const;

  std::unique_ptr<Live> live_;
  DeviceInfo device_;
  std::unique_ptr<nvidia::CuptiHostMetrics> metrics_;
  std::vector<HardwareCounterInfo> hardware_;
  std::uint32_t max_samples_per_pass_ = 0;
  bool streams_ = false;

  std::mutex pass_cache_mutex_;
  std::map<std::vector<HardwareCounterIndex>, GpaUInt32> pass_cache_;  // GpaGetPassCount is asked often
};

}  // namespace opengpa::cuda

#endif  // OPENGPA_BACKENDS_CUDA_CUDA_CONTEXT_H_
