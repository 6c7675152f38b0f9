// GPA v2 on a live CUDA context (needs a GPU): the kernels of tests/device/cuda, each in its own v2 sample, and
// then the same kernels through the v3 API of the same library. Prints PASS/FAIL lines; exit status = failures.
//   - ffma: FFMAThreadInstructions is exactly blocks * threads * iterations * chains, through v2 and v3;
//   - copy: FetchSize (DRAM kilobytes read) is 256 MiB = 262144 KB within 2%, through v2 and v3, and v2 within 2% of
//   v3;
//   - GPUTime is milliseconds in v2 (usage and value): v2 ms * 1e6 within 25% of v3 ns for the same kernel.
#include <cuda.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "gpu_performance_api/gpu_perf_api.h"
#include "gpu_performance_api/gpu_perf_api_cuda.h"
#include "gpu_performance_api/v2/GPUPerfAPI.h"
#include "kernels.cuh"

using namespace opengpa_device;

namespace {

int failures = 0;

void Check(bool ok, const std::string& what, const std::string& detail) {
  std::printf("%s %s: %s\n", ok ? "PASS" : "FAIL", what.c_str(), detail.c_str());
  if (!ok) ++failures;
}

#define CUDA_OK(call)                                                        \
  do {                                                                       \
    cudaError_t e = (call);                                                  \
    if (e != cudaSuccess) {                                                  \
      std::fprintf(stderr, "%s failed: %s\n", #call, cudaGetErrorString(e)); \
      std::exit(100);                                                        \
    }                                                                        \
  } while (0)

void LogV2(GPA_Logging_Type, const char* message) { std::fprintf(stderr, "GPA v2: %s\n", message); }
void LogV3(GpaLoggingType, const char* message) { std::fprintf(stderr, "GPA v3: %s\n", message); }

struct Buffers {
  float4* src = nullptr;
  float4* dst = nullptr;
  float* ffma_out = nullptr;
  float4* flush = nullptr;
  float* l2_out = nullptr;
  Buffers() {
    CUDA_OK(cudaMalloc(&src, kCopyBytes));
    CUDA_OK(cudaMalloc(&dst, kCopyBytes));
    CUDA_OK(cudaMalloc(&ffma_out, sizeof(float) * kFfmaBlocks * kFfmaThreads));
    CUDA_OK(cudaMalloc(&flush, kFlushBytes));
    CUDA_OK(cudaMalloc(&l2_out, sizeof(float) * kL2Blocks * kL2Threads));
    fill_kernel<<<1024, 256>>>(src, kCopyVectors, 1.0f);
    fill_kernel<<<1024, 256>>>(flush, kFlushBytes / sizeof(float4), 0.25f);
    CUDA_OK(cudaDeviceSynchronize());
  }
  ~Buffers() {
    for (void* p : {static_cast<void*>(src), static_cast<void*>(dst), static_cast<void*>(ffma_out),
                    static_cast<void*>(flush), static_cast<void*>(l2_out)}) {
      cudaFree(p);
    }
  }
  void FlushL2() { l2_flush_kernel<<<kL2Blocks, kL2Threads>>>(flush, kFlushBytes / sizeof(float4), l2_out); }
  void Copy() { copy_kernel<<<kCopyBlocks, kCopyThreads>>>(src, dst, kCopyVectors); }
  void Ffma() { ffma_kernel<<<kFfmaBlocks, kFfmaThreads>>>(ffma_out, 1.0001f, 0.5f, kFfmaIterations); }
};

const std::vector<std::string> kCounters = {"GPUTime", "FetchSize", "FFMAThreadInstructions"};
using Values = std::map<std::string, double>;  // by counter name, one sample

// v2: sample 0 = copy, sample 1 = ffma, GPA_GetPassCount passes (the L2 is flushed before each copy).
std::vector<Values> MeasureV2(CUcontext cu, Buffers& b) {
  std::vector<Values> values(2);
  GpaCudaContextOpenInfo info = GPA_CUDA_CONTEXT_OPEN_INFO_INIT;
  info.context = cu;
  GPA_RegisterLoggingCallback(GPA_LOGGING_ERROR, LogV2);
  Check(GPA_Initialize() == GPA_STATUS_OK, "v2 GPA_Initialize", "");
  Check(GPA_OpenContext(&info) == GPA_STATUS_OK, "v2 GPA_OpenContext(live CUcontext)", "");
  for (const std::string& name : kCounters)
    Check(GPA_EnableCounterStr(name.c_str()) == GPA_STATUS_OK, "v2 enable " + name, "");
  gpa_uint32 session = 0, passes = 0;
  Check(GPA_BeginSession(&session) == GPA_STATUS_OK, "v2 GPA_BeginSession", "");
  GPA_GetPassCount(&passes);
  std::printf("v2: session %u, %u pass(es)\n", session, passes);
  for (gpa_uint32 pass = 0; pass < passes; ++pass) {
    b.FlushL2();
    GPA_BeginPass();
    GPA_BeginSample(0);
    b.Copy();
    GPA_EndSample();
    GPA_BeginSample(1);
    b.Ffma();
    GPA_EndSample();
    Check(GPA_EndPass() == GPA_STATUS_OK, "v2 GPA_EndPass " + std::to_string(pass), "");
  }
  Check(GPA_EndSession() == GPA_STATUS_OK, "v2 GPA_EndSession", "");
  CUDA_OK(cudaDeviceSynchronize());
  bool ready = false;
  const GPA_Status ready_status = GPA_IsSessionReady(&ready, session);  // before `ready` is printed
  Check(ready_status == GPA_STATUS_OK && ready, "v2 GPA_IsSessionReady after the GPU finished",
        ready ? "ready" : "not ready");
  for (gpa_uint32 sample = 0; sample < 2; ++sample) {
    for (const std::string& name : kCounters) {
      gpa_uint32 index = 0;
      GPA_Type type;
      GPA_GetCounterIndex(name.c_str(), &index);
      GPA_GetCounterDataType(index, &type);
      GPA_Status status;
      if (type == GPA_TYPE_UINT64) {
        gpa_uint64 v = 0;
        status = GPA_GetSampleUInt64(session, sample, index, &v);
        values[sample][name] = static_cast<double>(v);
      } else {
        status = GPA_GetSampleFloat64(session, sample, index, &values[sample][name]);
      }
      Check(status == GPA_STATUS_OK, "v2 read " + name + " of sample " + std::to_string(sample),
            GPA_GetStatusAsStr(status));
    }
  }
  gpa_uint32 gpu_time = 0;
  GPA_Usage_Type usage;
  GPA_GetCounterIndex("GPUTime", &gpu_time);
  GPA_GetCounterUsageType(gpu_time, &usage);
  Check(usage == GPA_USAGE_TYPE_MILLISECONDS, "v2 GPUTime usage is milliseconds", "");
  Check(GPA_CloseContext() == GPA_STATUS_OK, "v2 GPA_CloseContext", "");
  Check(GPA_Destroy() == GPA_STATUS_OK, "v2 GPA_Destroy", "");
  GPA_RegisterLoggingCallback(GPA_LOGGING_NONE, nullptr);
  return values;
}

// v3: the same samples and passes through the Gpa* functions.
std::vector<Values> MeasureV3(CUcontext cu, Buffers& b) {
  std::vector<Values> values(2);
  GpaRegisterLoggingCallback(kGpaLoggingError, LogV3);
  GpaCudaContextOpenInfo info = GPA_CUDA_CONTEXT_OPEN_INFO_INIT;
  info.context = cu;
  GpaContextId context = nullptr;
  GpaSessionId session = nullptr;
  GpaInitialize(kGpaInitializeDefaultBit);
  Check(GpaOpenContext(&info, kGpaOpenContextDefaultBit, &context) == kGpaStatusOk, "v3 GpaOpenContext", "");
  GpaCreateSession(context, kGpaSessionSampleTypeDiscreteCounter, &session);
  for (const std::string& name : kCounters) GpaEnableCounterByName(session, name.c_str());
  Check(GpaBeginSession(session) == kGpaStatusOk, "v3 GpaBeginSession", "");
  GpaUInt32 passes = 0;
  GpaGetPassCount(session, &passes);
  for (GpaUInt32 pass = 0; pass < passes; ++pass) {
    b.FlushL2();
    GpaCommandListId list = nullptr;
    GpaBeginCommandList(session, pass, GPA_NULL_COMMAND_LIST, kGpaCommandListNone, &list);
    GpaBeginSample(0, list);
    b.Copy();
    GpaEndSample(list);
    GpaBeginSample(1, list);
    b.Ffma();
    GpaEndSample(list);
    GpaEndCommandList(list);
  }
  Check(GpaEndSession(session) == kGpaStatusOk, "v3 GpaEndSession", "");
  for (GpaUInt32 sample = 0; sample < 2; ++sample) {
    std::vector<GpaUInt64> words(kCounters.size());
    Check(GpaGetSampleResult(session, sample, words.size() * sizeof(GpaUInt64), words.data()) == kGpaStatusOk,
          "v3 GpaGetSampleResult " + std::to_string(sample), "");
    for (GpaUInt32 e = 0; e < kCounters.size(); ++e) {
      GpaUInt32 index = 0;
      const char* name = nullptr;
      GpaDataType type;
      GpaGetEnabledIndex(session, e, &index);
      GpaGetCounterName(context, index, &name);
      GpaGetCounterDataType(context, index, &type);
      double v = static_cast<double>(words[e]);
      if (type == kGpaDataTypeFloat64) std::memcpy(&v, &words[e], sizeof v);
      values[sample][name] = v;
    }
  }
  GpaDeleteSession(session);
  GpaCloseContext(context);
  GpaDestroy();
  return values;
}

double RelativeDifference(double a, double b) { return std::fabs(a - b) / std::fmax(std::fabs(b), 1e-30); }

std::string Fmt(const char* format, double a, double b) {
  char text[256];
  std::snprintf(text, sizeof text, format, a, b);
  return text;
}

}  // namespace

int main() {
  CUDA_OK(cudaFree(nullptr));
  CUcontext cu = nullptr;
  if (cuCtxGetCurrent(&cu) != CUDA_SUCCESS || cu == nullptr) return 102;
  cudaDeviceProp properties{};
  CUDA_OK(cudaGetDeviceProperties(&properties, 0));
  std::printf("device: %s\n", properties.name);
  Buffers buffers;
  const auto v2 = MeasureV2(cu, buffers);
  const auto v3 = MeasureV3(cu, buffers);
  const double mib256_kb = static_cast<double>(kCopyBytes) / 1024;  // FetchSize is in kilobytes, as GPA's
  for (const auto& [label, values] : {std::pair<const char*, const std::vector<Values>&>{"v2", v2}, {"v3", v3}}) {
    Check(values[1].at("FFMAThreadInstructions") == static_cast<double>(kFfmaExpected),
          std::string(label) + " ffma: FFMAThreadInstructions is exact",
          Fmt("%.0f, expected %.0f", values[1].at("FFMAThreadInstructions"), static_cast<double>(kFfmaExpected)));
    Check(RelativeDifference(values[0].at("FetchSize"), mib256_kb) < 0.02,
          std::string(label) + " copy: FetchSize is 256 MiB within 2%",
          Fmt("%.1f KB of %.0f", values[0].at("FetchSize"), mib256_kb));
  }
  Check(v2[1].at("FFMAThreadInstructions") == v3[1].at("FFMAThreadInstructions"), "ffma: v2 == v3",
        Fmt("%.0f vs %.0f", v2[1].at("FFMAThreadInstructions"), v3[1].at("FFMAThreadInstructions")));
  Check(RelativeDifference(v2[0].at("FetchSize"), v3[0].at("FetchSize")) < 0.02, "copy: v2 FetchSize within 2% of v3",
        Fmt("%.1f KB vs %.1f KB", v2[0].at("FetchSize"), v3[0].at("FetchSize")));
  for (int sample = 0; sample < 2; ++sample) {
    const double v2_ns = v2[sample].at("GPUTime") * 1e6;
    Check(v2_ns > 0 && RelativeDifference(v2_ns, v3[sample].at("GPUTime")) < 0.25,
          std::string(sample == 0 ? "copy" : "ffma") + ": v2 GPUTime (ms) * 1e6 within 25% of v3 GPUTime (ns)",
          Fmt("%.6f ms vs %.0f ns", v2[sample].at("GPUTime"), v3[sample].at("GPUTime")));
  }
  std::printf("failures: %d\n", failures);
  return failures;
}
