// Hardware counters sampled by the GPU itself at a fixed interval (CUPTI PM sampling, cupti_pmsampling.h):
// the GPU writes a record every `interval_ns` into a hardware buffer; each Poll decodes what arrived and
// evaluates the metrics per record. Device-wide: it sees every process's work on the GPU, no replay.
// Needs a GPU of compute capability 8.6 or newer (GPU_TIME_INTERVAL trigger), libcuda and libcupti 13,
// and profiling permission (root, or NVreg_RestrictProfilingToAdminUsers=0).
#ifndef OPENGPA_MONITOR_PM_SAMPLING_SOURCE_H_
#define OPENGPA_MONITOR_PM_SAMPLING_SOURCE_H_

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "monitor/counter_source.h"

namespace opengpa::monitor {

struct PmSamplingOptions {
  // Which GPUs, by the index users see. A device with a uuid is matched to the CUDA device with that
  // UUID (so NVML's and CUDA's orders may differ); without one, `index` is the CUDA ordinal.
  // Empty: every CUDA device.
  std::vector<DeviceIdentity> devices;
  std::vector<std::string> metrics;  // empty: DefaultPmMetrics()
  uint64_t interval_ns = 1'000'000;  // the hardware sampling interval
  // GPU-side buffer records wait in until a thread of the source decodes them, every 100 ms while
  // sampling (25 ms below 100 µs) and all that is left at Stop (docs/realtime.md says why); at least 4 MiB.
  // 0: by the interval (nvidia::PmHardwareBufferFor: 256 MiB below 100 µs, 64 MiB above).
  size_t hardware_buffer_bytes = 0;
  std::vector<std::string> cupti_library_candidates;  // empty: nvidia::cupti::DefaultCuptiCandidates()
  std::vector<std::string> cuda_library_candidates;   // empty: nvidia::DefaultCudaDriverCandidates()
};

// A set that fits one PM sampling pass on GH100 (checked with CUPTI's host API): SM activity, instructions,
// warp occupancy, DRAM and PCIe traffic.
const std::vector<std::string>& DefaultPmMetrics();

// Whether this build can do PM sampling at all (it was compiled against the CUDA toolkit's CUPTI headers).
bool PmSamplingCompiledIn();
// A name that can only mean a CUPTI metric ("unit__counter.rollup").
bool LooksLikePmMetricName(std::string_view name);

// Creates the source: every failure (no libcupti, no GPU, unsupported chip, no permission, a metric
// unknown or not fitting one pass) is a GPA status with a log message, never a crash.
[[nodiscard]] GpaStatus CreatePmSamplingSource(const PmSamplingOptions& options,
                                               std::unique_ptr<CounterSource>* source);

// Lists the base metric names of `chip` ("GH100"), or of the first GPU's chip when `chip` is empty.
[[nodiscard]] GpaStatus ListPmBaseMetrics(const std::string& chip,
                                          const std::vector<std::string>& cupti_library_candidates,
                                          std::string* resolved_chip, std::vector<std::string>* names);
// Describes `metrics` on `chip` and checks they fit one pass, without a GPU.
[[nodiscard]] GpaStatus DescribePmMetrics(const std::string& chip, const std::vector<std::string>& metrics,
                                          const std::vector<std::string>& cupti_library_candidates,
                                          std::vector<CounterDescriptor>* descriptors);

}  // namespace opengpa::monitor

#endif  // OPENGPA_MONITOR_PM_SAMPLING_SOURCE_H_
