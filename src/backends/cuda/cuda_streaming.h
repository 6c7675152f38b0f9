// Streaming sessions on CUDA (kGpaSessionSampleTypeStreamingCounter, GPA 4's GpaSpm*): CUPTI PM sampling through
// nvidia::PmSampler, the implementation `opengpa monitor` uses too. Built when the toolkit has CUPTI's PM sampling
// headers (OPENGPA_WITH_PM_SAMPLING, streaming/cuda_streaming_session.cc); otherwise no context streams
// (streaming/cuda_streaming_unavailable.cc).
#ifndef OPENGPA_BACKENDS_CUDA_CUDA_STREAMING_H_
#define OPENGPA_BACKENDS_CUDA_CUDA_STREAMING_H_

#include <cuda.h>

#include <memory>
#include <string>
#include <vector>

#include "core/backend.h"
#include "nvidia/cuda_driver.h"

namespace opengpa::cuda {

// The shortest interval a CUDA streaming session accepts: below it PM sampling loses most records on the H100
// (20 us kept 9050 of 42117; docs/realtime.md).
inline constexpr std::uint64_t kMinimumStreamingIntervalNs = 10'000;

// Whether chip `chip` ("GH100") has PM sampling on a fixed GPU-time interval: GA10x and later (not Turing, Volta
// or GA100), and this build has PM sampling.
bool ChipStreams(const std::string& chip);

// Whether `metrics` (CUPTI metric names) can be PM-sampled together on `chip`: kGpaStatusOk, or logged
// kGpaStatusErrorIncompatibleSampleTypes (a metric PM sampling does not have) / kGpaStatusErrorNotEnabled (more
// than one pass).
[[nodiscard]] GpaStatus CheckStreamableMetrics(const std::string& chip, const std::vector<std::string>& metrics);

// A streaming session sampling `metrics` on CUDA device `device` while `context` (the application's) is current.
[[nodiscard]] GpaStatus CreateStreamingSession(const nvidia::CudaDriver& driver, CUcontext context, CUdevice device,
                                               std::vector<std::string> metrics, std::unique_ptr<BackendSession>* out);

}  // namespace opengpa::cuda

#endif  // OPENGPA_BACKENDS_CUDA_CUDA_STREAMING_H_
