// The many-launch program of bench/profile/run.sh: an ordinary CUDA program, unaware of any profiler,
// that makes LAUNCHES small kernel launches (default 8000) round robin over four kernels on arrays of
// N floats (default 2^20 = 4 MiB, which fit in the H100's L2, so what DRAM sees depends on the cache
// state the profiler leaves):
//   add    c = a + b      reads 8N bytes, writes 4N
//   ffma   x = x*m + k    exactly threads * 64 FFMA instructions, no memory but one store per thread
//   scale  a *= 1.0001    reads 4N, writes 4N
//   fill   b = round      writes 4N
// Usage: many_launches [LAUNCHES] [N] [RANGE]
// RANGE > 0: every RANGE launches run inside an NVTX push/pop range "step" (for --range-mode nvtx: a
// range's counters are the sums of its kernels').
#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>

#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                                                    \
  do {                                                                                                 \
    cudaError_t error_ = (call);                                                                       \
    if (error_ != cudaSuccess) {                                                                       \
      std::fprintf(stderr, "%s failed: %s (line %d)\n", #call, cudaGetErrorString(error_), __LINE__); \
      return 1;                                                                                        \
    }                                                                                                  \
  } while (0)

__global__ void add(const float* a, const float* b, float* c, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

__global__ void ffma(float* out, int iters, float x0) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = x0 + static_cast<float>(i & 7);
  for (int it = 0; it < iters; ++it) x = fmaf(x, 0.999f, 1e-3f);
  out[i] = x;
}

__global__ void scale(float* a, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] *= 1.0001f;
}

__global__ void fill(float* b, int n, float value) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) b[i] = value;
}

int main(int argc, char** argv) {
  const int launches = argc > 1 ? std::atoi(argv[1]) : 8000;
  const int n = argc > 2 ? std::atoi(argv[2]) : 1 << 20;
  const int range = argc > 3 ? std::atoi(argv[3]) : 0;
  float *a, *b, *c, *out;
  CHECK(cudaMalloc(&a, n * sizeof(float)));
  CHECK(cudaMalloc(&b, n * sizeof(float)));
  CHECK(cudaMalloc(&c, n * sizeof(float)));
  CHECK(cudaMalloc(&out, n * sizeof(float)));
  CHECK(cudaMemset(a, 0, n * sizeof(float)));
  CHECK(cudaMemset(b, 0, n * sizeof(float)));
  const int block = 256, grid = (n + block - 1) / block;
  for (int i = 0; i < launches; ++i) {
    if (range > 0 && i % range == 0) nvtxRangePushA("step");
    switch (i % 4) {
      case 0: add<<<grid, block>>>(a, b, c, n); break;
      case 1: ffma<<<grid, block>>>(out, 64, 1.0f); break;
      case 2: scale<<<grid, block>>>(a, n); break;
      default: fill<<<grid, block>>>(b, n, static_cast<float>(i)); break;
    }
    if (range > 0 && (i % range == range - 1 || i == launches - 1)) nvtxRangePop();
  }
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::printf("%d launches of 4 kernels on %d floats\n", launches, n);
  return 0;
}
