// The CUDA workload of the `opengpa profile` vs `ncu` comparison (docs/cli.md): an ordinary program
// that knows nothing of either profiler. 60 rounds of four kernels = 240 launches over arrays larger
// than the H100's L2, so DRAM traffic is predictable:
//   add    c = a + b over N floats          reads 8N bytes, writes 4N
//   ffma   `iters` dependent FMAs per thread  exactly threads * iters FFMA instructions
//          (iters = 64, 128, 192, 256 in turn)
//   scale  a *= 1.0001 over N floats        reads 4N bytes, writes 4N
//   fill   b = round                        writes 4N bytes
// It prints the schedule ("launch <index> <kernel> <threads> <iters>") so the comparison can check
// counts against ground truth, and checks its own results.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <vector>

#define CHECK(call)                                                                                   \
  do {                                                                                                \
    cudaError_t error_ = (call);                                                                      \
    if (error_ != cudaSuccess) {                                                                      \
      std::fprintf(stderr, "%s failed: %s (line %d)\n", #call, cudaGetErrorString(error_), __LINE__); \
      return 1;                                                                                       \
    }                                                                                                 \
  } while (0)

__global__ void add(const float* a, const float* b, float* c, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

__global__ void ffma(float* out, int iters, float x0) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = x0 + static_cast<float>(i & 7);  // an add, not an FMA: the only FMAs are the loop's
  const float m = 0.999f, k = 1e-3f;
  for (int it = 0; it < iters; ++it) x = fmaf(x, m, k);
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

int main() {
  const int n = 1 << 24;             // 64 MiB per array, > 50 MB of L2
  const int ffma_threads = 1 << 20;  // 8192 blocks of 128
  const int rounds = 60;
  float *a, *b, *c, *out;
  CHECK(cudaMalloc(&a, n * sizeof(float)));
  CHECK(cudaMalloc(&b, n * sizeof(float)));
  CHECK(cudaMalloc(&c, n * sizeof(float)));
  CHECK(cudaMalloc(&out, ffma_threads * sizeof(float)));
  CHECK(cudaMemset(a, 0, n * sizeof(float)));
  const int block = 256, grid = (n + block - 1) / block;
  int index = 0;
  for (int round = 0; round < rounds; ++round) {
    const int iters = 64 * (1 + round % 4);
    add<<<grid, block>>>(a, b, c, n);
    std::printf("launch %d add %d 0\n", index++, n);
    ffma<<<ffma_threads / 128, 128>>>(out, iters, 1.0f);
    std::printf("launch %d ffma %d %d\n", index++, ffma_threads, iters);
    scale<<<grid, block>>>(a, n);
    std::printf("launch %d scale %d 0\n", index++, n);
    fill<<<grid, block>>>(b, n, static_cast<float>(round));
    std::printf("launch %d fill %d 0\n", index++, n);
  }
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  // Last round: b = 59, a = 0 (scaled zeros), so c = a + b (computed before fill) = 58.
  std::vector<float> host(16);
  CHECK(cudaMemcpy(host.data(), c, host.size() * sizeof(float), cudaMemcpyDeviceToHost));
  for (float value : host) {
    if (std::fabs(value - static_cast<float>(rounds - 2)) > 1e-3f) {
      std::fprintf(stderr, "wrong result %f (expected %d)\n", value, rounds - 2);
      return 1;
    }
  }
  cudaFree(out);
  cudaFree(c);
  cudaFree(b);
  cudaFree(a);
  std::printf("%d launches\n", index);
  return 0;
}
