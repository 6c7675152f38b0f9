// OpenGPA CUDA sample: profiles three kernels (a memory-bound SAXPY, an FFMA loop, a shared-memory
// transpose with and without bank conflicts) through libGPUPerfAPICUDA.so, the way GPA's samples do:
// load the library and its function table, open a context on the application's CUcontext, enable
// counters, and replay the work once per pass. Prints one row per kernel.
//
// Usage: opengpa_cuda_sample [counter,counter,...]   (default: a multi-pass mix of GPA-style counters)
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "gpu_performance_api/gpu_perf_api_cuda.h"
#include "gpu_performance_api/gpu_perf_api_interface_loader.h"

GpaApiManager* GpaApiManager::gpa_api_manager_ = nullptr;
GpaFuncTableInfo* gpa_function_table_info = nullptr;

namespace {

#define CUDA_CHECK(call)                                                                          \
  do {                                                                                            \
    cudaError_t e_ = (call);                                                                      \
    if (e_ != cudaSuccess) {                                                                      \
      std::fprintf(stderr, "%s failed: %s\n", #call, cudaGetErrorString(e_));                     \
      std::exit(1);                                                                               \
    }                                                                                             \
  } while (0)

GpaFunctionTable* gpa = nullptr;

#define GPA_CHECK(call)                                                                           \
  do {                                                                                            \
    GpaStatus s_ = gpa->call;                                                                     \
    if (s_ != kGpaStatusOk) {                                                                     \
      std::fprintf(stderr, "%s failed: %s\n", #call, gpa->GpaGetStatusAsStr(s_));                 \
      std::exit(1);                                                                               \
    }                                                                                             \
  } while (0)

constexpr int kN = 1 << 24;     // SAXPY elements (64 MiB per vector)
constexpr int kTile = 32;       // transpose tile
constexpr int kMatrix = 4096;   // transpose matrix side

__global__ void saxpy(int n, float a, const float* x, float* y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

__global__ void ffma_loop(float* out, int iterations) {
  float v = threadIdx.x;
  for (int i = 0; i < iterations; ++i) v = fmaf(v, 0.999f, 1.0f);
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// `padding` 0: a column read of the tile hits one bank 32 times; 1: conflict-free.
__global__ void transpose(const float* in, float* out, int side, int padding) {
  __shared__ float tile[kTile * (kTile + 1)];
  const int pitch = kTile + padding;
  const int x = blockIdx.x * kTile + threadIdx.x;
  for (int j = threadIdx.y; j < kTile; j += blockDim.y) tile[j * pitch + threadIdx.x] = in[(blockIdx.y * kTile + j) * side + x];
  __syncthreads();
  const int tx = blockIdx.y * kTile + threadIdx.x;
  for (int j = threadIdx.y; j < kTile; j += blockDim.y) out[(blockIdx.x * kTile + j) * side + tx] = tile[threadIdx.x * pitch + j];
}

std::vector<std::string> Split(const std::string& list) {
  std::vector<std::string> names;
  std::stringstream stream(list);
  for (std::string name; std::getline(stream, name, ',');) {
    if (!name.empty()) names.push_back(name);
  }
  return names;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> counters = Split(
      argc > 1 ? argv[1]
               : "GPUTime,SMBusy,IPC,AchievedOccupancy,FetchSize,WriteSize,L2CacheHit,FFMAThreadInstructions,"
                 "SharedLoadInstructions,SharedWavefrontsPerInstruction");

  if (GpaApiManager::Instance()->LoadApi(kGpaApiCuda) != kGpaStatusOk) {
    std::fprintf(stderr, "cannot load libGPUPerfAPICUDA.so\n");
    return 1;
  }
  gpa = GpaApiManager::Instance()->GetFunctionTable(kGpaApiCuda);
  GPA_CHECK(GpaRegisterLoggingCallback(kGpaLoggingError, [](GpaLoggingType, const char* message) {
    std::fprintf(stderr, "GPA: %s\n", message);
  }));
  GPA_CHECK(GpaInitialize(kGpaInitializeDefaultBit));

  // The application's CUDA context: the runtime's primary context.
  CUDA_CHECK(cudaFree(nullptr));
  GpaCudaContextOpenInfo open_info = GPA_CUDA_CONTEXT_OPEN_INFO_INIT;
  if (cuCtxGetCurrent(&open_info.context) != CUDA_SUCCESS) return 1;
  GpaContextId context = nullptr;
  GPA_CHECK(GpaOpenContext(&open_info, kGpaOpenContextDefaultBit, &context));
  const char* device = nullptr;
  GPA_CHECK(GpaGetDeviceName(context, &device));

  float *x, *y, *y_initial, *ffma_out, *matrix_in, *matrix_out;
  CUDA_CHECK(cudaMalloc(&x, kN * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&y, kN * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&y_initial, kN * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&ffma_out, 132 * 4 * 256 * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&matrix_in, kMatrix * kMatrix * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&matrix_out, kMatrix * kMatrix * sizeof(float)));
  std::vector<float> host(kN);
  for (int i = 0; i < kN; ++i) host[i] = static_cast<float>(i % 977) * 0.5f;
  CUDA_CHECK(cudaMemcpy(x, host.data(), kN * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(y_initial, host.data(), kN * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(matrix_in, host.data(), kN * sizeof(float), cudaMemcpyHostToDevice));

  GpaSessionId session = nullptr;
  GPA_CHECK(GpaCreateSession(context, kGpaSessionSampleTypeDiscreteCounter, &session));
  for (const std::string& name : counters) GPA_CHECK(GpaEnableCounterByName(session, name.c_str()));
  GpaUInt32 passes = 0;
  GPA_CHECK(GpaGetPassCount(session, &passes));
  std::printf("%s: %zu counters in %u passes\n", device, counters.size(), passes);

  const char* kernels[] = {"saxpy", "ffma_loop", "transpose (conflicts)", "transpose (padded)"};
  GPA_CHECK(GpaBeginSession(session));
  for (GpaUInt32 pass = 0; pass < passes; ++pass) {
    // User replay: every pass must see the same inputs, so restore what SAXPY overwrites.
    CUDA_CHECK(cudaMemcpy(y, y_initial, kN * sizeof(float), cudaMemcpyDeviceToDevice));
    GpaCommandListId list = nullptr;
    GPA_CHECK(GpaBeginCommandList(session, pass, GPA_NULL_COMMAND_LIST, kGpaCommandListNone, &list));
    GPA_CHECK(GpaBeginSample(0, list));
    saxpy<<<(kN + 255) / 256, 256>>>(kN, 2.0f, x, y);
    GPA_CHECK(GpaEndSample(list));
    GPA_CHECK(GpaBeginSample(1, list));
    ffma_loop<<<132 * 4, 256>>>(ffma_out, 10000);
    GPA_CHECK(GpaEndSample(list));
    const dim3 grid(kMatrix / kTile, kMatrix / kTile), block(kTile, 8);
    GPA_CHECK(GpaBeginSample(2, list));
    transpose<<<grid, block>>>(matrix_in, matrix_out, kMatrix, 0);
    GPA_CHECK(GpaEndSample(list));
    GPA_CHECK(GpaBeginSample(3, list));
    transpose<<<grid, block>>>(matrix_in, matrix_out, kMatrix, 1);
    GPA_CHECK(GpaEndSample(list));
    GPA_CHECK(GpaEndCommandList(list));
  }
  CUDA_CHECK(cudaGetLastError());
  GPA_CHECK(GpaEndSession(session));

  std::printf("%-24s", "kernel");
  for (const std::string& name : counters) std::printf(" %16.16s", name.c_str());
  std::printf("\n");
  for (GpaUInt32 sample = 0; sample < 4; ++sample) {
    size_t size = 0;
    GPA_CHECK(GpaGetSampleResultSize(session, sample, &size));
    std::vector<GpaUInt64> results(size / sizeof(GpaUInt64));
    GPA_CHECK(GpaGetSampleResult(session, sample, size, results.data()));
    std::printf("%-24s", kernels[sample]);
    for (size_t i = 0; i < counters.size(); ++i) {
      GpaUInt32 index = 0;
      GpaDataType type = kGpaDataTypeUint64;
      GPA_CHECK(GpaGetCounterIndex(context, counters[i].c_str(), &index));
      GPA_CHECK(GpaGetCounterDataType(context, index, &type));
      if (type == kGpaDataTypeFloat64) {
        double value;
        std::memcpy(&value, &results[i], sizeof(value));
        std::printf(" %16.3f", value);
      } else {
        std::printf(" %16llu", static_cast<unsigned long long>(results[i]));
      }
    }
    std::printf("\n");
  }
  GPA_CHECK(GpaDeleteSession(session));
  GPA_CHECK(GpaCloseContext(context));
  GPA_CHECK(GpaDestroy());
  for (float* p : {x, y, y_initial, ffma_out, matrix_in, matrix_out}) cudaFree(p);
  GpaApiManager::DeleteInstance();
  return 0;
}
