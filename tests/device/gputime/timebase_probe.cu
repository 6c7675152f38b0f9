// Exploration: which CUPTI metric measures a GPA sample's work and not the Range Profiler's own start/stop?
// Profiles kernels of 5 us .. 10 ms (and a latency-bound and a DRAM-bound one), each its own sample, in every
// rotation of the launch order, with candidate time-base metrics as raw counters; cudaEvent gives each kernel's
// own duration, and so does CUPTI's activity API. --workload launches each once for ncu.
#include <cuda.h>
#include <cuda_runtime.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "gpu_performance_api/gpu_perf_api.h"
#include "gpu_performance_api/gpu_perf_api_cuda.h"
#include "kernel_activity.h"

#define CUDA_OK(call)                                                  \
  do {                                                                 \
    cudaError_t e_ = (call);                                           \
    if (e_ != cudaSuccess) {                                           \
      std::fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(e_)); \
      std::exit(100);                                                  \
    }                                                                  \
  } while (0)
#define GPA_OK(call)                                                  \
  do {                                                                \
    GpaStatus s_ = (call);                                            \
    if (s_ != kGpaStatusOk) {                                         \
      std::fprintf(stderr, "%s: %s\n", #call, GpaGetStatusAsStr(s_)); \
      std::exit(101);                                                 \
    }                                                                 \
  } while (0)

__global__ void FfmaLoop(float* out, int iterations, float m, float k) {
  const float seed = static_cast<float>(threadIdx.x) * 1e-3f;
  float a0 = seed, a1 = seed + 1, a2 = seed + 2, a3 = seed + 3, a4 = seed + 4, a5 = seed + 5, a6 = seed + 6,
        a7 = seed + 7;
  for (int it = 0; it < iterations; ++it) {
#pragma unroll
    for (int u = 0; u < 16; ++u) {
      a0 = fmaf(a0, m, k);
      a1 = fmaf(a1, m, k);
      a2 = fmaf(a2, m, k);
      a3 = fmaf(a3, m, k);
      a4 = fmaf(a4, m, k);
      a5 = fmaf(a5, m, k);
      a6 = fmaf(a6, m, k);
      a7 = fmaf(a7, m, k);
    }
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;
}
__global__ void Copy(const float4* __restrict__ in, float4* __restrict__ out, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    out[i] = in[i];
}

struct K {
  const char* label;
  int kind;
  int blocks;
  int threads;
  int iters;
};
std::vector<K> g_k;
float* g_res;
float4 *g_in, *g_out;
size_t g_n;
void Launch(const K& k) {
  if (k.kind == 0)
    FfmaLoop<<<k.blocks, k.threads>>>(g_res, k.iters, 0.9999f, 1e-4f);
  else
    Copy<<<k.blocks, k.threads>>>(g_in, g_out, g_n);
  CUDA_OK(cudaGetLastError());
}

int main(int argc, char** argv) {
  int sms = 0;
  CUDA_OK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const int full = sms * 8;
  g_k = {{"ffma_3", 0, full, 256, 3},     {"ffma_17", 0, full, 256, 17},     {"ffma_93", 0, full, 256, 93},
         {"ffma_940", 0, full, 256, 940}, {"ffma_9400", 0, full, 256, 9400}, {"copy_1GiB", 1, full, 256, 0},
         {"onewarp_1000", 0, 1, 32, 1000}};
  g_n = (size_t(1) << 30) / 16;
  CUDA_OK(cudaMalloc(&g_res, sizeof(float) * full * 256));
  CUDA_OK(cudaMalloc(&g_in, g_n * 16));
  CUDA_OK(cudaMalloc(&g_out, g_n * 16));
  CUDA_OK(cudaMemset(g_in, 1, g_n * 16));
  if (argc > 1 && std::strcmp(argv[1], "--workload") == 0) {
    for (auto& k : g_k) Launch(k);
    Launch(g_k[2]);
    Launch(g_k[2]);
    CUDA_OK(cudaDeviceSynchronize());
    return 0;
  }
  for (auto& k : g_k) Launch(k);
  CUDA_OK(cudaDeviceSynchronize());
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  std::printf("event");
  for (auto& k : g_k) {
    std::vector<float> t;
    for (int r = 0; r < 9; ++r) {
      cudaEventRecord(e0);
      Launch(k);
      cudaEventRecord(e1);
      cudaEventSynchronize(e1);
      float ms;
      cudaEventElapsedTime(&ms, e0, e1);
      t.push_back(ms * 1000);
    }
    std::sort(t.begin(), t.end());
    std::printf(",%s=%.2f", k.label, t[4]);
  }
  std::printf("\n");
  // The same launches' CUPTI activity durations (what Nsight Systems shows), medians of 9, each synchronized.
  if (KernelActivity::Start({"FfmaLoop", "4Copy"})) {
    std::printf("activity");
    for (auto& k : g_k) {
      KernelActivity::Take();
      for (int r = 0; r < 9; ++r) {
        Launch(k);
        CUDA_OK(cudaDeviceSynchronize());
      }
      std::vector<double> t = KernelActivity::Take();
      std::sort(t.begin(), t.end());
      std::printf(",%s=%.2f(%zu)", k.label, t.empty() ? -1.0 : t[t.size() / 2] / 1e3, t.size());
    }
    std::printf("\n");
  }

  std::vector<std::string> metrics;
  for (int i = 1; i < argc; ++i) metrics.push_back(argv[i]);
  GPA_OK(GpaInitialize(kGpaInitializeDefaultBit));
  GpaCudaContextOpenInfo info = GPA_CUDA_CONTEXT_OPEN_INFO_INIT;
  cuCtxGetCurrent(&info.context);
  info.max_samples_per_pass = 16;
  GpaContextId ctx;
  GPA_OK(GpaOpenContext(&info, kGpaOpenContextEnableHardwareCountersBit, &ctx));
  std::printf("sample,variant,rotation,position,label");
  for (auto& m : metrics) std::printf(",%s", m.c_str());
  std::printf("\n");
  const int n = static_cast<int>(g_k.size());
  // variant 0: plain; 1: cudaDeviceSynchronize after GpaBeginCommandList; 2: usleep(3000) after it.
  struct Run {
    int variant, rotation;
  };
  std::vector<Run> runs;
  for (int r = 0; r < n; ++r) runs.push_back({0, r});
  runs.push_back({1, 0});
  runs.push_back({1, 4});
  runs.push_back({2, 0});
  runs.push_back({2, 4});
  for (const Run& run : runs) {
    GpaSessionId s;
    GPA_OK(GpaCreateSession(ctx, kGpaSessionSampleTypeDiscreteCounter, &s));
    for (auto& m : metrics) GPA_OK(GpaEnableCounterByName(s, m.c_str()));
    GpaUInt32 passes;
    GPA_OK(GpaGetPassCount(s, &passes));
    GPA_OK(GpaBeginSession(s));
    std::vector<std::string> labels;
    for (GpaUInt32 p = 0; p < passes; ++p) {
      GpaCommandListId list;
      GPA_OK(GpaBeginCommandList(s, p, GPA_NULL_COMMAND_LIST, kGpaCommandListNone, &list));
      if (run.variant == 1) CUDA_OK(cudaDeviceSynchronize());
      if (run.variant == 2) usleep(3000);
      GpaUInt32 id = 0;
      labels.clear();
      for (int i = 0; i < n; ++i) {
        const K& k = g_k[(i + run.rotation) % n];
        GPA_OK(GpaBeginSample(id++, list));
        Launch(k);
        GPA_OK(GpaEndSample(list));
        labels.push_back(k.label);
      }
      // two kernels with a 300 us host gap in one sample; a 300 us host sleep before the kernel in a sample
      GPA_OK(GpaBeginSample(id++, list));
      Launch(g_k[2]);
      cudaDeviceSynchronize();
      usleep(300);
      Launch(g_k[2]);
      GPA_OK(GpaEndSample(list));
      labels.push_back("2x_ffma_93_gap300");
      GPA_OK(GpaBeginSample(id++, list));
      usleep(300);
      Launch(g_k[2]);
      GPA_OK(GpaEndSample(list));
      labels.push_back("sleep300_ffma_93");
      GPA_OK(GpaBeginSample(id++, list));
      Launch(g_k[2]);
      Launch(g_k[2]);
      GPA_OK(GpaEndSample(list));
      labels.push_back("2x_ffma_93");
      GPA_OK(GpaEndCommandList(list));
    }
    GPA_OK(GpaEndSession(s));
    while (GpaIsSessionComplete(s) == kGpaStatusResultNotReady) {
    }
    GpaUInt32 enabled;
    GPA_OK(GpaGetNumEnabledCounters(s, &enabled));
    for (size_t i = 0; i < labels.size(); ++i) {
      size_t size;
      GPA_OK(GpaGetSampleResultSize(s, i, &size));
      std::vector<unsigned char> bytes(size);
      GPA_OK(GpaGetSampleResult(s, i, size, bytes.data()));
      std::printf("%zu,%d,%d,%zu,%s", i, run.variant, run.rotation, i, labels[i].c_str());
      for (GpaUInt32 e = 0; e < enabled; ++e) {
        GpaUInt32 index;
        GpaDataType type;
        GPA_OK(GpaGetEnabledIndex(s, e, &index));
        GPA_OK(GpaGetCounterDataType(ctx, index, &type));
        double v;
        if (type == kGpaDataTypeUint64) {
          GpaUInt64 u;
          std::memcpy(&u, &bytes[e * 8], 8);
          v = double(u);
        } else
          std::memcpy(&v, &bytes[e * 8], 8);
        std::printf(",%.6g", v);
      }
      std::printf("\n");
    }
    std::fprintf(stderr, "session variant %d rotation %d: %u passes\n", run.variant, run.rotation, passes);
    GpaDeleteSession(s);
  }
  GpaCloseContext(ctx);
  GpaDestroy();
  return 0;
}
