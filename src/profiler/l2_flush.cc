#include "profiler/l2_flush.h"

#include "nvidia/cuda_driver.h"

namespace opengpa::inject_cuda {
namespace {

// Reads `words` 8-byte words of `buffer` with L2-only loads (ld.global.cg) across a grid-stride loop; the
// store to `sink` never happens (the buffer is zero) but keeps the loads from being optimised away.
constexpr const char* kEvictPtx = R"(.version 7.0
.target sm_52
.address_size 64
.visible .entry opengpa_evict_l2(.param .u64 buffer, .param .u64 words, .param .u64 sink)
{
  .reg .pred %p<3>;
  .reg .b32 %r<5>;
  .reg .b64 %rd<12>;
  ld.param.u64 %rd1, [buffer];
  ld.param.u64 %rd2, [words];
  ld.param.u64 %rd3, [sink];
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %tid.x;
  mov.u32 %r4, %nctaid.x;
  mul.wide.u32 %rd4, %r1, %r2;
  cvt.u64.u32 %rd5, %r3;
  add.u64 %rd4, %rd4, %rd5;
  mul.wide.u32 %rd6, %r4, %r2;
  mov.u64 %rd7, 0;
LOOP:
  setp.ge.u64 %p1, %rd4, %rd2;
  @%p1 bra DONE;
  shl.b64 %rd8, %rd4, 3;
  add.u64 %rd9, %rd1, %rd8;
  ld.global.cg.u64 %rd10, [%rd9];
  xor.b64 %rd7, %rd7, %rd10;
  add.u64 %rd4, %rd4, %rd6;
  bra.uni LOOP;
DONE:
  setp.ne.u64 %p2, %rd7, 1;
  @%p2 bra END;
  st.global.u64 [%rd3], %rd7;
END:
  ret;
}
)";

constexpr unsigned int kThreadsPerBlock = 256;
constexpr unsigned int kBlocksPerSm = 4;

// The driver's entry points: the one table of src/nvidia (cuda_driver.h), empty without a driver.
const nvidia::CudaDriver& Driver() { return nvidia::CudaDriverOrEmpty(); }

}  // namespace

std::unique_ptr<L2Flush> L2Flush::CreateInProgramContext(CUcontext context, std::string* error) {
  const nvidia::CudaDriver& driver = Driver();
  if (!driver.has_l2_flush) {
    *error = "--cache-control all: libcuda.so.1 lacks an entry point the L2 flush needs";
    return nullptr;
  }
  nvidia::ScopedCurrentContext current(driver, context);
  std::unique_ptr<L2Flush> flush(new L2Flush());
  flush->program_context_ = context;
  flush->context_ = context;
  if (!flush->Load(error)) return nullptr;
  return flush;
}

std::unique_ptr<L2Flush> L2Flush::Create(CUcontext context, std::string* error) {
  const nvidia::CudaDriver& driver = Driver();
  CUdevice device = 0;
  std::unique_ptr<L2Flush> flush(new L2Flush());
  flush->program_context_ = context;
  if (driver.has_l2_flush && driver.has_own_context) {
    nvidia::ScopedCurrentContext current(driver, context);
    if (driver.cuCtxGetDevice(&device) == CUDA_SUCCESS &&
        driver.cuEventCreate(&flush->program_done_, CU_EVENT_DISABLE_TIMING) == CUDA_SUCCESS &&
        driver.cuCtxCreate(&flush->own_context_, 0, device) == CUDA_SUCCESS) {
      // cuCtxCreate made the new context current: it stays so while the flush loads, then is popped.
      CUcontext popped = nullptr;
      flush->context_ = flush->own_context_;
      const bool loaded = driver.cuStreamCreate(&flush->own_stream_, CU_STREAM_NON_BLOCKING) == CUDA_SUCCESS &&
                          driver.cuEventCreate(&flush->flush_done_, CU_EVENT_DISABLE_TIMING) == CUDA_SUCCESS &&
                          flush->Load(error);
      driver.cuCtxPopCurrent(&popped);
      if (loaded) return flush;
    }
  }
  // No second context: the flush runs in the program's (a range of its own there).
  flush.reset();
  return CreateInProgramContext(context, error);
}

bool L2Flush::Load(std::string* error) {
  const nvidia::CudaDriver& driver = Driver();
  CUdevice device = 0;
  int l2_bytes = 0;
  int sms = 0;
  if (driver.cuCtxGetDevice(&device) != CUDA_SUCCESS ||
      driver.cuDeviceGetAttribute(&l2_bytes, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, device) != CUDA_SUCCESS ||
      driver.cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device) != CUDA_SUCCESS ||
      l2_bytes <= 0 || sms <= 0) {
    *error = "--cache-control all: the device's L2 size is not known";
    return false;
  }
  bytes_ = 2 * static_cast<std::size_t>(l2_bytes);
  blocks_ = static_cast<unsigned int>(sms) * kBlocksPerSm;
  if (driver.cuModuleLoadData(&module_, kEvictPtx) != CUDA_SUCCESS ||
      driver.cuModuleGetFunction(&kernel_, module_, "opengpa_evict_l2") != CUDA_SUCCESS) {
    *error = "--cache-control all: the driver cannot load the L2 flush kernel";
    return false;
  }
  if (driver.cuMemAlloc(&buffer_, bytes_) != CUDA_SUCCESS ||
      driver.cuMemAlloc(&sink_, sizeof(std::uint64_t)) != CUDA_SUCCESS ||
      driver.cuMemsetD8(buffer_, 0, bytes_) != CUDA_SUCCESS) {
    *error = "--cache-control all: cannot allocate the " + std::to_string(bytes_ >> 20) +
             " MiB the L2 flush reads (twice the L2)";
    return false;
  }
  return true;
}

void L2Flush::Abandon() {
  // At exit or with the program's context going: leave what is left to the driver.
  context_ = nullptr;
  own_context_ = nullptr;
}

L2Flush::~L2Flush() {
  if (context_ == nullptr) return;
  const nvidia::CudaDriver& driver = Driver();
  if (own_context_ != nullptr) {
    driver.cuCtxDestroy(own_context_);  // its module, buffers, stream and event go with it
    return;                             // program_done_ goes with the program's context
  }
  nvidia::ScopedCurrentContext current(driver, context_);
  if (buffer_ != 0) driver.cuMemFree(buffer_);
  if (sink_ != 0) driver.cuMemFree(sink_);
  if (module_ != nullptr) driver.cuModuleUnload(module_);
}

bool L2Flush::Enqueue(CUstream stream, std::string* error) {
  const nvidia::CudaDriver& driver = Driver();
  unsigned long long words = bytes_ / sizeof(std::uint64_t);
  void* arguments[] = {&buffer_, &words, &sink_};
  if (own_context_ == nullptr) {
    const CUresult result =
        driver.cuLaunchKernel(kernel_, blocks_, 1, 1, kThreadsPerBlock, 1, 1, 0, stream, arguments, nullptr);
    if (result != CUDA_SUCCESS) {
      *error = "--cache-control all: the L2 flush kernel did not launch (CUresult " + std::to_string(result) + ")";
      return false;
    }
    return true;
  }
  if (host_ordered_) return EnqueueHostOrdered(stream, arguments, error);
  // program stream -> program_done_ -> flush stream: flush -> flush_done_ -> program stream: the launch.
  CUresult result = driver.cuEventRecord(program_done_, stream);
  if (result == CUDA_SUCCESS) {
    nvidia::ScopedCurrentContext current(driver, own_context_);
    result = driver.cuStreamWaitEvent(own_stream_, program_done_, 0);
    if (result == CUDA_SUCCESS) {
      result =
          driver.cuLaunchKernel(kernel_, blocks_, 1, 1, kThreadsPerBlock, 1, 1, 0, own_stream_, arguments, nullptr);
    }
    if (result == CUDA_SUCCESS) result = driver.cuEventRecord(flush_done_, own_stream_);
  }
  if (result == CUDA_SUCCESS) result = driver.cuStreamWaitEvent(stream, flush_done_, 0);
  if (result != CUDA_SUCCESS) {
    *error = "--cache-control all: the L2 flush in its own context failed (CUresult " + std::to_string(result) + ")";
    return false;
  }
  return true;
}

bool L2Flush::EnqueueHostOrdered(CUstream stream, void** arguments, std::string* error) {
  const nvidia::CudaDriver& driver = Driver();
  // The host waits for what the stream held, then for the flush: neither context waits on the GPU.
  CUresult result = driver.cuEventRecord(program_done_, stream);
  if (result == CUDA_SUCCESS) result = driver.cuEventSynchronize(program_done_);
  if (result == CUDA_SUCCESS) {
    nvidia::ScopedCurrentContext current(driver, own_context_);
    result = driver.cuLaunchKernel(kernel_, blocks_, 1, 1, kThreadsPerBlock, 1, 1, 0, own_stream_, arguments, nullptr);
    if (result == CUDA_SUCCESS) result = driver.cuEventRecord(flush_done_, own_stream_);
    if (result == CUDA_SUCCESS) result = driver.cuEventSynchronize(flush_done_);
  }
  if (result != CUDA_SUCCESS) {
    *error = "--cache-control all: the L2 flush in its own context failed (CUresult " + std::to_string(result) + ")";
    return false;
  }
  return true;
}

}  // namespace opengpa::inject_cuda
