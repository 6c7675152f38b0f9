// The warm-up that runs inside each pass's `opengpa.startup` range, right before the pass's first sample.
//
// cuptiRangeProfilerStart leaves the GPU idle for a long time (0.16 s at 16 samples per pass, 0.38 s at 256 on the
// H100: docs/cuda.md "Cost"). A DRAM-bound kernel that is the first sample after that idle ran 1.8% slower than the
// same kernel later in the pass (docs/sol.md), so its per-time counters read up to 1.3 points under ncu. The
// warm-up streams reads of a buffer larger than L2 for a set time, so that the first sample finds the GPU as the
// others do: after work, not after idle. Its time and traffic land in the startup range, which no sample reads.
#ifndef OPENGPA_BACKENDS_CUDA_CUDA_PASS_WARMUP_H_
#define OPENGPA_BACKENDS_CUDA_CUDA_PASS_WARMUP_H_

#include <cuda.h>

#include <chrono>

#include "nvidia/cuda_driver.h"

namespace opengpa::cuda {

inline constexpr std::chrono::microseconds kDefaultPassWarmUp{2000};

// The warm-up's length: `text` (the value of $OPENGPA_CUDA_PASS_WARMUP_US, or nullptr when unset) as a whole
// number of microseconds up to 1 s, 0 turning the warm-up off; kDefaultPassWarmUp when unset, and, with a logged
// message, when it is not such a number.
std::chrono::microseconds PassWarmUpDuration(const char* text);

class PassWarmUp {
 public:
  PassWarmUp(const nvidia::CudaDriver& driver, CUcontext context, std::chrono::microseconds duration);
  ~PassWarmUp();  // frees the buffer and unloads the kernel
  PassWarmUp(const PassWarmUp&) = delete;
  PassWarmUp& operator=(const PassWarmUp&) = delete;

  // Launches the read kernel back to back until `duration` has passed on the host, then waits for it. Its buffer
  // and kernel are made on the first call. False when it did not run: off, or a driver call failed (logged once
  // as a message; the session goes on without a warm-up, never fails for it).
  bool Run();

 private:
  bool Prepare();
  bool Fail(CUresult result, const char* call);

  const nvidia::CudaDriver& driver_;
  CUcontext context_;
  std::chrono::microseconds duration_;
  bool prepared_ = false;
  bool failed_ = false;
  CUmodule module_ = nullptr;
  CUfunction kernel_ = nullptr;
  CUdeviceptr buffer_ = 0;
  unsigned int blocks_ = 0;
};

}  // namespace opengpa::cuda

#endif  // OPENGPA_BACKENDS_CUDA_CUDA_PASS_WARMUP_H_
