// Device check: the monitor (libOpenGPAMonitor.so, CUPTI PM sampling through a dlopen'ed libcupti) and the CUDA
// library (libGPUPerfAPICUDA.so, CUPTI's range profiler through the linked one) in one process, as Python can load
// them, each measuring known work in turn: both initialise CUPTI's profiler by one rule (src/nvidia/
// cupti_profiler_initialization.h: once per process, never undone). Before that rule, stopping the monitor
// deinitialised CUPTI under the GPA context. Run by tests/device/monitor/run_one_process.sh; needs an NVIDIA GPU.
//
//   1. GPA: FFMAThreadInstructions of the reference FFMA launch = blocks x threads x iterations x 4, exactly;
//   2. monitor: PM sampling of sm__inst_executed_pipe_fma.sum over 20 launches = 20 x the launch's warp FFMAs
//      (within 1 %), then the monitor stopped and destroyed;
//   3. GPA again in the same context: the same exact count (CUPTI still initialised);
//   4. a second monitor after the GPA session: PM sampling still counts (within 1 %).
// Every check prints PASS/FAIL; the exit code is the number of failed checks.
#include <cuda.h>
#include <cuda_runtime.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "../cuda/kernels.cuh"
#include "gpu_performance_api/gpu_perf_api.h"
#include "gpu_performance_api/gpu_perf_api_cuda.h"
#include "gpu_performance_api/opengpa_monitor.h"

namespace {

using namespace opengpa_device;

int g_failures = 0;

void Check(bool ok, const char* what, const std::string& detail) {
  std::printf("%s  %-64s %s\n", ok ? "PASS" : "FAIL", what, detail.c_str());
  std::fflush(stdout);
  if (!ok) ++g_failures;
}

#define CUDA_OK(call)                                                                                    \
  do {                                                                                                   \
    cudaError_t e = (call);                                                                              \
    if (e != cudaSuccess) {                                                                              \
      std::fprintf(stderr, "%s failed: %s (%s:%d)\n", #call, cudaGetErrorString(e), __FILE__, __LINE__); \
      std::exit(100);                                                                                    \
    }                                                                                                    \
  } while (0)

void Log(GpaLoggingType, const char* message) {
  std::printf("[opengpa] %s\n", message);
  std::fflush(stdout);
}

std::string Text(double value) {
  char text[64];
  std::snprintf(text, sizeof text, "%.0f", value);
  return text;
}

void LaunchFfma(float* out, int launches) {
  for (int i = 0; i < launches; ++i) ffma_kernel<<<kFfmaBlocks, kFfmaThreads>>>(out, 1.0001f, 0.5f, kFfmaIterations);
  CUDA_OK(cudaDeviceSynchronize());
}

// One GPA session on `context` with one sample around one FFMA launch; FFMAThreadInstructions, or NaN on failure.
double GpaFfmaCount(CUcontext context, float* out) {
  GpaCudaContextOpenInfo info = GPA_CUDA_CONTEXT_OPEN_INFO_INIT;
  info.context = context;
  GpaContextId gpa_context = nullptr;
  if (GpaOpenContext(&info, kGpaOpenContextDefaultBit, &gpa_context) != kGpaStatusOk) return NAN;
  GpaSessionId session = nullptr;
  double value = NAN;
  GpaUInt32 passes = 0;
  GpaUInt32 index = 0;
  GpaDataType type = kGpaDataTypeFloat64;
  if (GpaGetCounterIndex(gpa_context, "FFMAThreadInstructions", &index) == kGpaStatusOk &&
      GpaGetCounterDataType(gpa_context, index, &type) == kGpaStatusOk &&
      GpaCreateSession(gpa_context, kGpaSessionSampleTypeDiscreteCounter, &session) == kGpaStatusOk &&
      GpaEnableCounterByName(session, "FFMAThreadInstructions") == kGpaStatusOk &&
      GpaGetPassCount(session, &passes) == kGpaStatusOk && GpaBeginSession(session) == kGpaStatusOk) {
    bool ok = true;
    for (GpaUInt32 pass = 0; pass < passes && ok; ++pass) {
      GpaCommandListId list = nullptr;
      ok = GpaBeginCommandList(session, pass, GPA_NULL_COMMAND_LIST, kGpaCommandListNone, &list) == kGpaStatusOk &&
           GpaBeginSample(0, list) == kGpaStatusOk;
      if (ok) LaunchFfma(out, 1);
      ok = ok && GpaEndSample(list) == kGpaStatusOk && GpaEndCommandList(list) == kGpaStatusOk;
    }
    if (ok && GpaEndSession(session) == kGpaStatusOk) {
      while (GpaIsSessionComplete(session) == kGpaStatusResultNotReady) {
      }
      size_t size = 0;
      GpaUInt64 raw = 0;
      if (GpaGetSampleResultSize(session, 0, &size) == kGpaStatusOk && size == sizeof(raw) &&
          GpaGetSampleResult(session, 0, size, &raw) == kGpaStatusOk) {
        if (type == kGpaDataTypeFloat64) {
          std::memcpy(&value, &raw, sizeof(value));
        } else {
          value = static_cast<double>(raw);
        }
      }
    }
    GpaDeleteSession(session);
  }
  GpaCloseContext(gpa_context);
  return value;
}

// A monitor sampling FMA-pipe instructions by PM sampling while `launches` FFMA launches run; their sum, or NaN.
double MonitorFmaInstructions(float* out, int launches) {
  const char* counters[] = {"sm__inst_executed_pipe_fma.sum"};
  OpenGpaMonitorConfig config{};
  config.struct_size = sizeof(config);
  config.interval_ms = 50;
  config.counter_names = counters;
  config.counter_count = 1;
  config.pm_interval_ns = 1000000;
  config.record_capacity = 1u << 20;
  OpenGpaMonitor monitor = nullptr;
  if (OpenGpaMonitorCreate(&config, &monitor) != kGpaStatusOk) return NAN;
  double sum = NAN;
  if (OpenGpaMonitorStart(monitor) == kGpaStatusOk) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    LaunchFfma(out, launches);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    if (OpenGpaMonitorStop(monitor) == kGpaStatusOk) {
      sum = 0;
      std::vector<OpenGpaMonitorRecord> records(1u << 16);
      for (GpaUInt32 count = 0; OpenGpaMonitorRead(monitor, records.data(), static_cast<GpaUInt32>(records.size()),
                                                   &count) == kGpaStatusOk &&
                                count > 0;) {
        for (GpaUInt32 i = 0; i < count; ++i) sum += records[i].value;
      }
    }
  }
  OpenGpaMonitorDestroy(monitor);
  return sum;
}

}  // namespace

int main() {
  GpaRegisterLoggingCallback(kGpaLoggingError, Log);
  OpenGpaMonitorRegisterLoggingCallback(kGpaLoggingError, Log);
  CUDA_OK(cudaSetDevice(0));
  CUDA_OK(cudaFree(nullptr));  // the primary context, current on this thread
  CUcontext context = nullptr;
  cuCtxGetCurrent(&context);
  float* out = nullptr;
  CUDA_OK(cudaMalloc(&out, sizeof(float) * kFfmaBlocks * kFfmaThreads));
  LaunchFfma(out, 2);  // module loaded, clocks up
  if (GpaInitialize(kGpaInitializeDefaultBit) != kGpaStatusOk) {
    std::printf("FAIL  GpaInitialize\n");
    return 1;
  }
  const double exact = static_cast<double>(kFfmaExpected);
  // Warp-level FMA-pipe instructions of one launch: the loop's FFMAs per warp (other FMA-pipe work is small).
  const double warp_ffmas = double(kFfmaBlocks) * kFfmaThreads / 32 * kFfmaIterations * kFfmaChains;
  constexpr int kMonitoredLaunches = 20;

  const double first = GpaFfmaCount(context, out);
  Check(first == exact, "1. GPA: FFMAThreadInstructions exact", Text(first) + " of " + Text(exact));
  const double monitored = MonitorFmaInstructions(out, kMonitoredLaunches);
  const double ratio = monitored / (warp_ffmas * kMonitoredLaunches);
  Check(ratio >= 0.99 && ratio < 1.01, "2. monitor after GPA: PM FMA-pipe instructions = 20 launches (1 %)",
        Text(monitored) + ", ratio " + std::to_string(ratio));
  const double second = GpaFfmaCount(context, out);
  Check(second == exact, "3. GPA after the monitor stopped: FFMAThreadInstructions exact",
        Text(second) + " of " + Text(exact));
  const double again = MonitorFmaInstructions(out, kMonitoredLaunches);
  const double ratio_again = again / (warp_ffmas * kMonitoredLaunches);
  Check(ratio_again >= 0.99 && ratio_again < 1.01, "4. a second monitor after GPA: PM FMA-pipe instructions (1 %)",
        Text(again) + ", ratio " + std::to_string(ratio_again));
  GpaDestroy();
  cudaFree(out);
  std::printf("failures: %d\n", g_failures);
  return g_failures;
}
