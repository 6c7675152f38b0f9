// opengpa-doctor-cuda: libGPUPerfAPICUDA.so on CUDA device 0 with the truth kernels of tests/device/cuda
// (kernels.cuh, shared, not copied). Samples of one session:
//   0  ffma_kernel: FFMAThreadInstructions = blocks x threads x iterations x 4 chains, exactly; GPUTime > 0 and at
//      most the host's wall time of the pass
//   1  (not --quick) a 256 MiB copy followed by an L2 write-back, after an unmeasured L2 flush: WriteSize is the
//      copy's 256 MiB and FetchSize 256 MiB + the 128 MiB write-back read, within 2% (GPA's kilobytes)
// The CUDA runtime is linked statically and finds libcuda.so.1 itself, so the probe starts on machines without
// the driver and reports CUDA absent. Test seam: OPENGPA_DOCTOR_CUPTI_RESULT=<CUPTI_ERROR_* name> makes the probe
// skip the GPU and take that CUPTI answer as GpaOpenContext's, to test how a refusal is explained (docs/doctor.md).
#include <cuda.h>
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <string>

#include "gpa_failure_causes.h"
#include "gpa_sampling.h"
#include "gpu_performance_api/gpu_perf_api_cuda.h"
#include "kernels.cuh"
#include "loaded_modules.h"
#include "probe_main.h"

namespace opengpa::doctor {
namespace {

using namespace opengpa_device;
using Clock = std::chrono::steady_clock;

void CudaCheck(cudaError_t result, const char* call) {
  if (result != cudaSuccess) throw std::runtime_error(std::string(call) + ": " + cudaGetErrorString(result));
}

// Device buffers of the kernels, filled once (the copy's destination poisoned, so the copy must write it).
struct Buffers {
  float4* copy_src = nullptr;
  float4* copy_dst = nullptr;
  float4* flush = nullptr;
  float* ffma_out = nullptr;
  float* flush_out = nullptr;
  Buffers(bool with_copy) {
    CudaCheck(cudaMalloc(&ffma_out, sizeof(float) * kFfmaBlocks * kFfmaThreads), "cudaMalloc");
    if (!with_copy) return;
    CudaCheck(cudaMalloc(&copy_src, kCopyBytes), "cudaMalloc");
    CudaCheck(cudaMalloc(&copy_dst, kCopyBytes), "cudaMalloc");
    CudaCheck(cudaMalloc(&flush, kFlushBytes), "cudaMalloc");
    CudaCheck(cudaMalloc(&flush_out, sizeof(float) * kL2Blocks * kL2Threads), "cudaMalloc");
    fill_kernel<<<1024, 256>>>(copy_src, kCopyVectors, 1.5f);
    fill_kernel<<<1024, 256>>>(copy_dst, kCopyVectors, 7.0f);
    fill_kernel<<<1024, 256>>>(flush, kFlushBytes / sizeof(float4), 0.25f);
    CudaCheck(cudaDeviceSynchronize(), "fill_kernel");
  }
  ~Buffers() {
    for (void* p : {static_cast<void*>(copy_src), static_cast<void*>(copy_dst), static_cast<void*>(flush),
                    static_cast<void*>(ffma_out), static_cast<void*>(flush_out)}) {
      if (p) cudaFree(p);
    }
  }
  // Reads a clean buffer larger than L2, writing back what earlier work left dirty there.
  void FlushL2() const { l2_flush_kernel<<<kL2Blocks, kL2Threads>>>(flush, kFlushBytes / sizeof(float4), flush_out); }
};

std::string VersionText(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

// The NVIDIA driver's profiling restriction (NVreg_RestrictProfilingToAdminUsers) as it reports it, if it does.
nlohmann::json ProfilingRestriction() {
  std::ifstream params("/proc/driver/nvidia/params");
  std::string line;
  while (std::getline(params, line)) {
    if (line.rfind("RmProfilingAdminOnly:", 0) == 0) {
      return {{"admin_only", line.find('1') != std::string::npos}, {"root", geteuid() == 0}};
    }
  }
  return nullptr;
}

// The seam: CUPTI's answer taken from the environment instead of a GPU.
bool ExplainInjectedCuptiResult(const ProbeOptions& options, ProbeReport& report) {
  const char* injected = secure_getenv("OPENGPA_DOCTOR_CUPTI_RESULT");
  if (injected == nullptr || *injected == '\0') return false;
  report.Driver()["injected_cupti_result"] = injected;
  auto gpa = ProbeGpaLibrary::Load(static_cast<GpaApiType>(kGpaApiCuda), options.search, &report);
  if (!gpa) return true;
  // What libGPUPerfAPICUDA.so logs and returns when CUPTI refuses (src/nvidia/cupti_status.cc: CuptiFailure).
  const GpaStatus status = kGpaStatusErrorHardwareNotSupported;
  report.AddCause(ExplainGpaFailure(
      "GpaOpenContext", gpa->Gpa().StatusText(status),
      {std::string("cuptiProfilerInitialize failed: ") + injected + " (injected by OPENGPA_DOCTOR_CUPTI_RESULT)"}));
  return true;
}

void RunCudaProbe(const ProbeOptions& options, ProbeReport& report) {
  if (ExplainInjectedCuptiResult(options, report)) return;
  if (void* driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL); driver == nullptr) {
    const char* why = dlerror();
    report.MarkAbsent(std::string("no NVIDIA driver: ") + (why ? why : "libcuda.so.1 not found"));
    return;
  }
  int driver_version = 0;
  int devices = 0;
  cudaDriverGetVersion(&driver_version);
  if (const cudaError_t result = cudaGetDeviceCount(&devices); result != cudaSuccess || devices == 0) {
    report.MarkAbsent("libcuda.so.1 is installed but reports no CUDA device (" +
                      std::string(result != cudaSuccess ? cudaGetErrorString(result) : "0 devices") + ")");
    return;
  }
  // GPA first: GpaInitialize must precede the context it will sample.
  auto gpa = ProbeGpaLibrary::Load(static_cast<GpaApiType>(kGpaApiCuda), options.search, &report);
  if (!gpa) return;
  cudaDeviceProp properties{};
  CudaCheck(cudaGetDeviceProperties(&properties, 0), "cudaGetDeviceProperties");
  CudaCheck(cudaFree(nullptr), "cudaFree(0) (creating the primary context)");
  void* get_current = nullptr;
  cudaDriverEntryPointQueryResult found{};
  CudaCheck(cudaGetDriverEntryPoint("cuCtxGetCurrent", &get_current, cudaEnableDefault, &found),
            "cudaGetDriverEntryPoint(cuCtxGetCurrent)");
  CUcontext current = nullptr;
  reinterpret_cast<CUresult (*)(CUcontext*)>(get_current)(&current);
  report.SetDriver({{"device", properties.name},
                    {"compute_capability", std::to_string(properties.major) + "." + std::to_string(properties.minor)},
                    {"name", "NVIDIA CUDA driver"},
                    {"version", VersionText(driver_version)},
                    {"profiling_restriction", ProfilingRestriction()}});

  GpaCudaContextOpenInfo open_info = GPA_CUDA_CONTEXT_OPEN_INFO_INIT;
  open_info.context = current;
  opengpa::Context context(gpa->Gpa(), &open_info);
  report.Driver()["gpa_device"] = context.DeviceName();
  report.Driver()["libraries"] = LoadedModules({"libcuda", "libcupti", "libnvperf", "libGPUPerfAPI"});
  std::vector<std::string> counters = {"FFMAThreadInstructions", "GPUTime"};
  if (!options.quick) counters.insert(counters.end(), {"FetchSize", "WriteSize"});
  if (const auto missing = MissingCounters(context, counters); !missing.empty()) {
    for (const auto& name : missing) {
      report.AddCause({"counter_not_offered", name + " is not offered on " + context.DeviceName(),
                       "CUPTI lacks a metric behind it on this chip; `opengpa list --api cuda` shows what it offers"});
    }
    return;
  }
  Buffers buffers(!options.quick);
  const GpaUInt32 samples = options.quick ? 1 : 2;
  double longest_pass_ns = 0;
  const auto values = CollectSamples(context, counters, samples, [&](opengpa::Session& session, GpaUInt32 pass) {
    const auto start = Clock::now();
    opengpa::CommandList list(session, pass);
    list.BeginSample(0);
    ffma_kernel<<<kFfmaBlocks, kFfmaThreads>>>(buffers.ffma_out, 1.0001f, 0.5f, kFfmaIterations);
    list.EndSample();
    if (samples > 1) {
      buffers.FlushL2();  // unmeasured: the copy's DRAM traffic is then its own
      list.BeginSample(1);
      copy_kernel<<<kCopyBlocks, kCopyThreads>>>(buffers.copy_src, buffers.copy_dst, kCopyVectors);
      buffers.FlushL2();  // DRAM writes happen at eviction: this puts all of the copy's inside the sample
      list.EndSample();
    }
    list.End();
    CudaCheck(cudaDeviceSynchronize(), "the kernels of a pass");
    longest_pass_ns = std::max(longest_pass_ns, std::chrono::duration<double, std::nano>(Clock::now() - start).count());
  });

  const std::string ffma = "ffma_kernel " + std::to_string(kFfmaBlocks) + "x" + std::to_string(kFfmaThreads);
  report.Compare({ffma, "FFMAThreadInstructions", "items", values[0].at("FFMAThreadInstructions"),
                  static_cast<double>(kFfmaExpected), Tolerance::Exact(), "blocks x threads x iterations x 4 chains"});
  report.Compare({ffma, "GPUTime", "nanoseconds", values[0].at("GPUTime"), longest_pass_ns, Tolerance::PositiveAtMost(),
                  "the host's wall time of the pass, up to cudaDeviceSynchronize"});
  if (samples > 1) {
    const double copy_kb = static_cast<double>(kCopyBytes) / 1024;
    const double flush_kb = static_cast<double>(kFlushBytes) / 1024;
    report.Compare({"256 MiB copy + L2 write-back", "WriteSize", "kilobytes", values[1].at("WriteSize"), copy_kb,
                    Tolerance::Relative(0.02), "the copy's 256 MiB written"});
    report.Compare({"256 MiB copy + L2 write-back", "FetchSize", "kilobytes", values[1].at("FetchSize"),
                    copy_kb + flush_kb, Tolerance::Relative(0.02), "the copy's 256 MiB + the 128 MiB write-back read"});
  }
  report.ExplainFailedChecks(
      "CUPTI's counters came back empty: another profiler or the monitor holding the GPU's counters, a clock or "
      "power state that stopped the counters, or a stand-in libGPUPerfAPICUDA.so; rerun with `opengpa doctor -v "
      "--api cuda`");
}

}  // namespace
}  // namespace opengpa::doctor

int main(int argc, char** argv) { return opengpa::doctor::RunProbe(argc, argv, "cuda", opengpa::doctor::RunCudaProbe); }
