// --cache-control all: the same L2 state before every profiled launch, whichever pass or run it is in.
// A small kernel reads a buffer twice the size of the device's L2 that holds no data of the program: the
// program's lines, dirty ones written back, leave the L2, and only clean lines of the buffer remain, so
// the launch that follows starts as it would on a cold cache (what ncu's --cache-control all gives).
// The kernel is PTX compiled by the driver once per context; it runs right before the launch, ordered on
// the launch's own stream.
//
// Where it runs: CUPTI's auto range makes a range of every kernel of the profiled context, and each range
// costs about a millisecond on the H100 (docs/benchmarks.md), so by default the flush runs in a context of
// its own on the same device (the L2 is the device's, shared by its contexts), on a stream of that context,
// between two events: the launch's stream waits for the flush, the flush for what the stream held before
// (or, host-ordered, the host waits for the one and then the other: flush_order.h).
// Where a second context cannot be made (exclusive compute mode, no memory), it runs in the program's
// context and its range is skipped when decoding (in_own_context() says which).
#ifndef OPENGPA_PROFILER_L2_FLUSH_H_
#define OPENGPA_PROFILER_L2_FLUSH_H_

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
  // The same, in the program's context itself (the flush is then a range of the profiled context).
  static std::unique_ptr<L2Flush> CreateInProgramContext(CUcontext context, std::string* error);
  ~L2Flush();
  L2Flush(const L2Flush&) = delete;
  L2Flush& operator=(const L2Flush&) = delete;

  // Enqueues the eviction before whatever comes next on `stream`, a stream of the program's context (the
  // launch's stream, CU_STREAM_PER_THREAD for the per-thread default). Call with the program's context current.
  bool Enqueue(CUstream stream, std::string* error);
  // The program's context is going away: in it, its allocations go with it, so the destructor must not free them.
  void Abandon();

  // In a context of its own: order the flush against the program's stream by host waits rather than by
  // GPU-side event waits (flush_order.h says when each is cheaper).
  void set_host_ordered(bool host_ordered) { host_ordered_ = host_ordered; }

  std::size_t buffer_bytes() const { return bytes_; }
  bool in_own_context() const { return own_context_ != nullptr; }

 private:
  L2Flush() = default;
  bool Load(std::string* error);  // module, kernel and buffers, in the current context
  bool EnqueueHostOrdered(CUstream stream, void** arguments, std::string* error);

  CUcontext program_context_ = nullptr;
  CUcontext context_ = nullptr;      // where the flush kernel and its buffer live
  CUcontext own_context_ = nullptr;  // context_ when the flush made it
  bool host_ordered_ = false;
  CUstream own_stream_ = nullptr;
  CUevent program_done_ = nullptr;  // in the program's context: what its stream held before the launch
  CUevent flush_done_ = nullptr;    // in the own context
  CUmodule module_ = nullptr;
  CUfunction kernel_ = nullptr;
  CUdeviceptr buffer_ = 0;
  CUdeviceptr sink_ = 0;
  std::size_t bytes_ = 0;
  unsigned int blocks_ = 0;
};

}  // namespace opengpa::inject_cuda

#endif  // OPENGPA_PROFILER_L2_FLUSH_H_
