// A CUDA streaming session: CUPTI PM sampling of the session's metrics on the context's device between
// StartStreaming and StopStreaming, decoded every kPmDecodePeriod on a thread of its own (so that the hardware
// buffer never holds more than two periods of records), and drained at the stop.
//
//   StartStreaming  enables PM sampling (the application's context current) with the session's config image,
//                   the interval and the hardware buffer, starts it, and returns once the first record boundary
//                   has passed: the first record, which spans from the configuration to that boundary, is
//                   dropped (it would count earlier work), so no work the caller submits after GpaSpmBegin
//                   falls into it
//   StopStreaming   waits for the work submitted so far (cuCtxSynchronize), stops and drains
#ifndef OPENGPA_BACKENDS_CUDA_STREAMING_CUDA_STREAMING_SESSION_H_
#define OPENGPA_BACKENDS_CUDA_STREAMING_CUDA_STREAMING_SESSION_H_

#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/backend.h"
#include "nvidia/cuda_driver.h"
#include "nvidia/pm_sampler.h"

namespace opengpa::cuda {

// The hardware buffer a stream gets when the caller names none: room for two decode periods of records at
// `interval_ns` (or the whole `duration_ns` when shorter) at 64 KiB a record, at least 64 MiB (which kept every
// 1 ms record of nine metrics on the H100) and at most 1 GiB.
std::size_t DefaultHardwareBufferBytes(std::uint64_t interval_ns, std::uint64_t duration_ns);

// The samples of `losses` that are missing: the holes between consecutive samples, in intervals (rounded). Not the
// edges: sampling starts and stops on CUPTI's host clock (cuptiGetTimestamp), the samples are stamped by the GPU,
// and on the H100 the first sample began 0.6 ms after the start and the last ended 1.5 ms before the stop with no
// byte of the work missing (docs/validation.md); PmSampler logs when the samples cover under 90 % of the time.
std::uint64_t LostSamples(const nvidia::PmSamplingLosses& losses, std::uint64_t interval_ns);

class CudaStreamingSession : public StreamingOnlySession {
 public:
  CudaStreamingSession(const nvidia::cupti::CuptiLibrary& cupti, const nvidia::CudaDriver& driver, CUcontext context,
                       CUdevice device, std::vector<std::string> metrics, std::vector<bool> accumulates);
  ~CudaStreamingSession() override;

  bool IsPassComplete(GpaUInt32) override { return !streaming_; }
  // GPA v3's one sample: each metric over the whole stream (amounts summed, readings averaged over time).
  [[nodiscard]] GpaStatus ReadResults(SampleSlot slot_count, std::vector<double>* values) override;

  [[nodiscard]] GpaStatus StartStreaming(const StreamingOptions& options) override;
  [[nodiscard]] GpaStatus StopStreaming() override;
  [[nodiscard]] GpaStatus ReadStreamingSeries(StreamingSeries* series) override;

 private:
  void DecodeLoop();
  void StopDecodeThread();

  const nvidia::cupti::CuptiLibrary& cupti_;
  const nvidia::CudaDriver& driver_;
  CUcontext context_;
  CUdevice device_;
  std::vector<std::string> metrics_;
  std::vector<bool> accumulates_;  // per metric: an amount per sample (summed), else a reading

  std::unique_ptr<nvidia::PmSampler> sampler_;
  bool streaming_ = false;
  std::uint64_t stop_ns_ = 0;
  std::thread decoder_;
  std::mutex mutex_;  // samples_ and stop_decoding_, between the decode thread and the caller
  std::condition_variable wake_;
  bool stop_decoding_ = false;
  nvidia::PmSamples samples_;
};

}  // namespace opengpa::cuda

#endif  // OPENGPA_BACKENDS_CUDA_STREAMING_CUDA_STREAMING_SESSION_H_
