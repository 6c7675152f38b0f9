// OpenGPA CUDA sample: profiles three kernels (a memory-bound SAXPY, an FFMA loop, a shared-memory
// transpose with and without bank conflicts) through libGPUPerfAPICUDA.so, the way GPA's samples do:
// load the library and its function table, open a context on the application's CUcontext, enable
// counters, and replay the work once per pass. Prints one row per kernel.
//
// Usage: opengpa_cuda_sample [counter,counter,...]   (default: a multi-pass mix of GPA-style counters)
#include <cuda.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "client/gpa_library_search.h"
#include "client/loaded_gpa_library.h"
#include "gpu_performance_api/gpu_perf_api_cuda.h"
#include "opengpa/opengpa.hpp"

namespace {

#define CUDA_CHECK(call)                                                      \
  do {                                                                        \
    cudaError_t e_ = (call);                                                  \
    if (e_ != cudaSuccess) {                                                  \
      std::fprintf(stderr, "%s failed: %s\n", #call, cudaGetErrorString(e_)); \
      std::exit(1);                                                           \
    }                                                                         \
  } while (0)

constexpr int kN = 1 << 24;    // SAXPY elements (64 MiB per vector)
constexpr int kTile = 32;      // transpose tile
constexpr int kMatrix = 4096;  // transpose matrix side

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
  for (int j = threadIdx.y; j < kTile; j += blockDim.y)
    tile[j * pitch + threadIdx.x] = in[(blockIdx.y * kTile + j) * side + x];
  __syncthreads();
  const int tx = blockIdx.y * kTile + threadIdx.x;
  for (int j = threadIdx.y; j < kTile; j += blockDim.y)
    out[(blockIdx.x * kTile + j) * side + tx] = tile[threadIdx.x * pitch + j];
}

std::vector<std::string> Split(const std::string& list) {
  std::vector<std::string> names;
  std::stringstream stream(list);
  for (std::string name; std::getline(stream, name, ',');) {
    if (!name.empty()) names.push_back(name);
  }
  return names;
}

// Profiles the four kernels in every pass GPA asks for and prints one row per kernel. Throws opengpa::Error
// when a GPA call fails.
void Profile(const GpaFunctionTable& table, const std::vector<std::string>& counters) {
  opengpa::Library gpa(&table);

  // The application's CUDA context: the runtime's primary context.
  CUDA_CHECK(cudaFree(nullptr));
  GpaCudaContextOpenInfo open_info = GPA_CUDA_CONTEXT_OPEN_INFO_INIT;
  if (cuCtxGetCurrent(&open_info.context) != CUDA_SUCCESS) std::exit(1);
  opengpa::Context context(gpa, &open_info);
  const std::string device = context.DeviceName();

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

  {
    opengpa::Session session(context);
    for (const std::string& name : counters) session.Enable(name);
    const GpaUInt32 passes = session.PassCount();
    std::printf("%s: %zu counters in %u passes\n", device.c_str(), counters.size(), passes);

    const char* kernels[] = {"saxpy", "ffma_loop", "transpose (conflicts)", "transpose (padded)"};
    session.Begin();
    for (GpaUInt32 pass = 0; pass < passes; ++pass) {
      // User replay: every pass must see the same inputs, so restore what SAXPY overwrites.
      CUDA_CHECK(cudaMemcpy(y, y_initial, kN * sizeof(float), cudaMemcpyDeviceToDevice));
      opengpa::CommandList list(session, pass);
      list.BeginSample(0);
      saxpy<<<(kN + 255) / 256, 256>>>(kN, 2.0f, x, y);
      list.EndSample();
      list.BeginSample(1);
      ffma_loop<<<132 * 4, 256>>>(ffma_out, 10000);
      list.EndSample();
      const dim3 grid(kMatrix / kTile, kMatrix / kTile), block(kTile, 8);
      list.BeginSample(2);
      transpose<<<grid, block>>>(matrix_in, matrix_out, kMatrix, 0);
      list.EndSample();
      list.BeginSample(3);
      transpose<<<grid, block>>>(matrix_in, matrix_out, kMatrix, 1);
      list.EndSample();
      list.End();
    }
    CUDA_CHECK(cudaGetLastError());
    session.End();

    std::printf("%-24s", "kernel");
    for (const std::string& name : counters) std::printf(" %16.16s", name.c_str());
    std::printf("\n");
    for (GpaUInt32 sample = 0; sample < 4; ++sample) {
      // Typed by each counter's data type, in the order the counters were enabled.
      const std::vector<opengpa::CounterValue> values = session.Result(sample);
      std::printf("%-24s", kernels[sample]);
      for (size_t i = 0; i < counters.size() && i < values.size(); ++i) {
        if (const double* value = std::get_if<double>(&values[i])) {
          // A whole number (bytes, instructions) as an integer, not "123.000"; a fraction too small for three
          // decimals with its significant digits.
          const bool whole = std::fabs(*value) < 1e15 && *value == std::floor(*value);
          const bool tiny = std::fabs(*value - std::round(*value)) < 0.0005;
          std::printf(whole ? " %16.0f" : tiny ? " %16.6g" : " %16.3f", *value);
        } else {
          std::printf(" %16llu", static_cast<unsigned long long>(std::get<std::uint64_t>(values[i])));
        }
      }
      std::printf("\n");
    }
  }
  for (float* p : {x, y, y_initial, ffma_out, matrix_in, matrix_out}) cudaFree(p);
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> counters =
      Split(argc > 1 ? argv[1]
                     : "GPUTime,SMBusy,IPC,AchievedOccupancy,FetchSize,WriteSize,L2CacheHit,FFMAThreadInstructions,"
                       "SharedLoadInstructions,SharedWavefrontsPerInstruction");

  // Beside the program, its build tree's lib/, then the loader's search path (the RUNPATH names lib/ too).
  const std::string file = opengpa::client::GpaLibraryFileName(kGpaApiCuda);
  std::string error;
  std::unique_ptr<opengpa::client::LoadedGpaLibrary> library = opengpa::client::LoadedGpaLibrary::Load(
      opengpa::client::GpaLibraryPaths(file, "", opengpa::client::FoldersBesideExecutable()), &error);
  if (library == nullptr) {
    std::fprintf(stderr, "cannot load %s:%s\n", file.c_str(), error.c_str());
    return 1;
  }
  library->Table().GpaRegisterLoggingCallback(
      kGpaLoggingError, [](GpaLoggingType, const char* message) { std::fprintf(stderr, "GPA: %s\n", message); });
  try {
    Profile(library->Table(), counters);
  } catch (const opengpa::Error& failure) {
    std::fprintf(stderr, "%s\n", failure.what());
    return 1;
  }
  return 0;
}
