// --cache-control all: the same L2 state before every profiled launch, whichever pass or run it is in.
// A small kernel reads a buffer twice the size of the device's L2 that holds no data of the program: the
// program's lines, dirty ones written back, leave the L2, and only clean lines of the buffer remain, so
// the launch that follows starts as it would on a cold cache (what ncu's --cache-control all gives).
// The kernel is PTX compiled by the driver once per context; it runs on the launch's own stream, right
// before it.
#ifndef OPENGPA_TOOLS_OPENGPA_INJECT_CUDA_L2_FLUSH_H_
#define OPENGPA_TOOLS_OPENGPA_INJECT_CUDA_L2_FLUSH_H_

#include <cuda.h>

#include <cstddef>
#include <memory>
#include <string>

namespace opengpa::inject_cuda {

class L2Flush {
 public:
  // Loads the kernel and allocates the buffer in `context` (made current for the call). nullptr and
  // *error when the driver refuses (out of memory, no L2 size).
  static std::unique_ptr<L2Flush> Create(CUcontext context, std::string* error);
  ~L2Flush();
  L2Flush(const L2Flush&) = delete;
  L2Flush& operator=(const L2Flush&) = delete;

  // Enqueues the eviction on `stream` (the launch's stream, CU_STREAM_PER_THREAD for the per-thread default).
  bool Enqueue(CUstream stream, std::string* error);
  // The context is going away: its allocations go with it, so the destructor must not free them.
  void Abandon() { context_ = nullptr; }

  std::size_t buffer_bytes() const { return bytes_; }

 private:
  L2Flush() = default;
  CUcontext context_ = nullptr;
  CUmodule module_ = nullptr;
  CUfunction kernel_ = nullptr;
  CUdeviceptr buffer_ = 0;
  CUdeviceptr sink_ = 0;
  std::size_t bytes_ = 0;
  unsigned int blocks_ = 0;
};

}  // namespace opengpa::inject_cuda

#endif  // OPENGPA_TOOLS_OPENGPA_INJECT_CUDA_L2_FLUSH_H_
