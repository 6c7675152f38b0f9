#include "backends/cuda/cuda_pass_warmup.h"

#include <charconv>
#include <cstring>
#include <string_view>

#include "platform/logging.h"

namespace opengpa::cuda {
namespace {

// Larger than any GPU's L2 that CUPTI profiles (50 MB on the H100), so the reads reach DRAM.
constexpr unsigned long long kBufferBytes = 64ull << 20;
constexpr unsigned int kThreads = 256;
constexpr unsigned int kBlocksPerSm = 4;
// Launches between two looks at the clock: about 0.2 ms of reads on the H100.
constexpr int kLaunchesPerCheck = 8;
constexpr std::chrono::microseconds kLongestWarmUp{1000000};

// Grid-stride 16-byte reads of `count` vectors through L2 (ld.global.cg), folded into a value that is stored only
// if it equals a constant, so the loads cannot be dropped and nothing is written in practice. PTX, so the driver
// compiles it for whatever GPU the context is on.
constexpr const char* kWarmUpPtx = R"(.version 7.0
.target sm_50
.address_size 64
.visible .entry opengpa_pass_warmup(.param .u64 data, .param .u64 count, .param .u64 out)
{
  .reg .pred %p<3>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<10>;
  ld.param.u64 %rd1, [data];
  ld.param.u64 %rd2, [count];
  ld.param.u64 %rd3, [out];
  cvta.to.global.u64 %rd1, %rd1;
  cvta.to.global.u64 %rd3, %rd3;
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %tid.x;
  mov.u32 %r4, %nctaid.x;
  mul.wide.u32 %rd4, %r1, %r2;
  cvt.u64.u32 %rd5, %r3;
  add.u64 %rd4, %rd4, %rd5;
  mul.wide.u32 %rd6, %r4, %r2;
  mov.u32 %r5, 0;
  setp.ge.u64 %p1, %rd4, %rd2;
  @%p1 bra DONE;
LOOP:
  shl.b64 %rd7, %rd4, 4;
  add.u64 %rd7, %rd1, %rd7;
  ld.global.cg.v4.u32 {%r6, %r7, %r8, %r9}, [%rd7];
  xor.b32 %r5, %r5, %r6;
  xor.b32 %r5, %r5, %r7;
  xor.b32 %r5, %r5, %r8;
  xor.b32 %r5, %r5, %r9;
  add.u64 %rd4, %rd4, %rd6;
  setp.lt.u64 %p2, %rd4, %rd2;
  @%p2 bra LOOP;
DONE:
  setp.ne.u32 %p1, %r5, -1640531527;
  @%p1 bra END;
  st.global.u32 [%rd3], %r5;
END:
  ret;
}
)";

}  // namespace

std::chrono::microseconds PassWarmUpDuration(const char* text) {
  if (text == nullptr) return kDefaultPassWarmUp;
  const std::string_view value(text);
  long long microseconds = -1;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), microseconds);
  if (value.empty() || error != std::errc() || end != value.data() + value.size() || microseconds < 0 ||
      microseconds > kLongestWarmUp.count()) {
    Log(kGpaLoggingMessage, "OPENGPA_CUDA_PASS_WARMUP_US=\"{}\" is not a number of microseconds from 0 to {}: the "
        "pass warm-up stays at {} us", value.substr(0, 40), kLongestWarmUp.count(), kDefaultPassWarmUp.count());
    return kDefaultPassWarmUp;
  }
  return std::chrono::microseconds(microseconds);
}

PassWarmUp::PassWarmUp(const nvidia::CudaDriver& driver, CUcontext context, std::chrono::microseconds duration)
    : driver_(driver), context_(context), duration_(duration) {}

PassWarmUp::~PassWarmUp() {
  if (buffer_ == 0 && module_ == nullptr) return;
  nvidia::ScopedCurrentContext current(driver_, context_);
  if (current.result() != CUDA_SUCCESS) return;  // the context is gone, and its memory and modules with it
  if (buffer_ != 0) driver_.cuMemFree(buffer_);
  if (module_ != nullptr) driver_.cuModuleUnload(module_);
}

bool PassWarmUp::Fail(CUresult result, const char* call) {
  failed_ = true;
  Log(kGpaLoggingMessage, "CUDA pass warm-up off for this session: {} failed: {} (the first sample of each pass may "
      "then find the GPU idle for the profiler's start-up)", call, driver_.Describe(result));
  return false;
}

bool PassWarmUp::Prepare() {
  CUdevice device = 0;
  int sm_count = 0;
  CUresult result = driver_.cuCtxGetDevice(&device);
  if (result != CUDA_SUCCESS) return Fail(result, "cuCtxGetDevice");
  result = driver_.cuDeviceGetAttribute(&sm_count, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device);
  if (result != CUDA_SUCCESS) return Fail(result, "cuDeviceGetAttribute");
  blocks_ = static_cast<unsigned int>(sm_count > 0 ? sm_count : 1) * kBlocksPerSm;
  result = driver_.cuModuleLoadData(&module_, kWarmUpPtx);
  if (result != CUDA_SUCCESS) return Fail(result, "cuModuleLoadData");
  result = driver_.cuModuleGetFunction(&kernel_, module_, "opengpa_pass_warmup");
  if (result != CUDA_SUCCESS) return Fail(result, "cuModuleGetFunction");
  result = driver_.cuMemAlloc(&buffer_, kBufferBytes);
  if (result != CUDA_SUCCESS) return Fail(result, "cuMemAlloc of 64 MiB");
  prepared_ = true;
  return true;
}

bool PassWarmUp::Run() {
  if (duration_.count() == 0 || failed_) return false;
  nvidia::ScopedCurrentContext current(driver_, context_);
  if (current.result() != CUDA_SUCCESS) return Fail(current.result(), "cuCtxPushCurrent");
  if (!prepared_ && !Prepare()) return false;
  unsigned long long vectors = kBufferBytes / 16;
  void* arguments[] = {&buffer_, &vectors, &buffer_};
  const auto start = std::chrono::steady_clock::now();
  do {
    for (int i = 0; i < kLaunchesPerCheck; ++i) {
      // The legacy default stream: it waits for the application's blocking streams, as the samples' work does.
      const CUresult result = driver_.cuLaunchKernel(kernel_, blocks_, 1, 1, kThreads, 1, 1, 0, nullptr, arguments,
                                                     nullptr);
      if (result != CUDA_SUCCESS) return Fail(result, "cuLaunchKernel");
    }
    if (const CUresult result = driver_.cuCtxSynchronize(); result != CUDA_SUCCESS) {
      return Fail(result, "cuCtxSynchronize");
    }
  } while (std::chrono::steady_clock::now() - start < duration_);
  return true;
}

}  // namespace opengpa::cuda
