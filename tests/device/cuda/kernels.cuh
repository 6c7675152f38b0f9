// Kernels whose counter values are computable, shared by the device check and its ncu comparison.
#ifndef OPENGPA_TESTS_DEVICE_CUDA_KERNELS_CUH_
#define OPENGPA_TESTS_DEVICE_CUDA_KERNELS_CUH_

#include <cuda_runtime.h>

#include <cstdint>

namespace opengpa_device {

// Every launch shape in one place, so expected counts are computed from the same numbers the launches use.
constexpr std::size_t kCopyBytes = 256ull << 20;  // 256 MiB read, 256 MiB written
constexpr std::size_t kCopyVectors = kCopyBytes / sizeof(float4);
constexpr int kCopyBlocks = 132 * 8;
constexpr int kCopyThreads = 256;

constexpr int kFfmaBlocks = 264;
constexpr int kFfmaThreads = 256;
constexpr int kFfmaIterations = 4096;
constexpr int kFfmaChains = 4;  // independent FFMAs per iteration
constexpr std::uint64_t kFfmaExpected = std::uint64_t{kFfmaBlocks} * kFfmaThreads * kFfmaIterations * kFfmaChains;

// diverge_kernel: the FFMA loop of ffma_kernel run by only this many lanes of each warp.
constexpr int kDivergeActiveLanes = 8;

constexpr int kBankBlocks = 132;
constexpr int kBankThreads = 256;
constexpr int kBankLoads = 512;  // shared loads per thread

constexpr std::size_t kFlushBytes = 128ull << 20;  // more than twice the L2: evicts (and writes back) it all

constexpr std::size_t kL2Bytes = 8ull << 20;  // fits in any Hopper L2 (50 MB)
constexpr std::size_t kL2Vectors = kL2Bytes / sizeof(float4);
constexpr int kL2Repeats = 20;
constexpr int kL2Blocks = 132 * 4;
constexpr int kL2Threads = 256;

// l1_reuse_kernel: every warp re-reads one 4 KiB array (32 lines of 128 bytes) through the SM's L1.
constexpr int kL1ReuseFloats = 1024;
constexpr int kL1ReuseReads = 2048;  // coalesced 128-byte loads per warp
constexpr int kL1ReuseBlocks = 264;
constexpr int kL1ReuseThreads = 256;
// l1_twice_kernel: each float4 of this many bytes is loaded twice, the second load after the first returned.
constexpr std::size_t kL1TwiceBytes = 32ull << 20;
constexpr int kL1TwiceBlocks = 132 * 4;
constexpr int kL1TwiceThreads = 256;
// flat_kernel: generic (FLAT) loads per thread to shared memory, and as many to global memory.
constexpr int kFlatLoads = 64;
constexpr int kFlatBlocks = 132;
constexpr int kFlatThreads = 256;

__global__ void fill_kernel(float4* data, std::size_t count, float seed) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < count;
       i += std::size_t{gridDim.x} * blockDim.x) {
    const float v = seed + static_cast<float>(i % 1021);
    data[i] = make_float4(v, v + 1.0f, v + 2.0f, v + 3.0f);
  }
}

__global__ void copy_kernel(const float4* __restrict__ src, float4* __restrict__ dst, std::size_t count) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < count;
       i += std::size_t{gridDim.x} * blockDim.x) {
    dst[i] = src[i];
  }
}

// kFfmaChains independent FFMA chains, so every iteration is exactly kFfmaChains FFMA instructions.
__global__ void ffma_kernel(float* out, float a, float b, int iterations) {
  // Intrinsics, so that the compiler cannot contract the set-up into extra FFMAs.
  float x0 = __fmul_rn(static_cast<float>(threadIdx.x), 1e-3f);
  float x1 = __fadd_rn(x0, 1.0f);
  float x2 = __fadd_rn(x0, 2.0f);
  float x3 = __fadd_rn(x0, 3.0f);
#pragma unroll 4
  for (int i = 0; i < iterations; ++i) {
    x0 = fmaf(x0, a, b);
    x1 = fmaf(x1, a, b);
    x2 = fmaf(x2, a, b);
    x3 = fmaf(x3, a, b);
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = __fadd_rn(__fadd_rn(x0, x1), __fadd_rn(x2, x3));
}

// ffma_kernel's loop run by the first kDivergeActiveLanes lanes of each warp only: its vector instructions
// have 8 of 32 lanes active (VALUUtilization 25%).
__global__ void diverge_kernel(float* out, float a, float b, int iterations) {
  float x0 = __fmul_rn(static_cast<float>(threadIdx.x), 1e-3f);
  float x1 = __fadd_rn(x0, 1.0f);
  float x2 = __fadd_rn(x0, 2.0f);
  float x3 = __fadd_rn(x0, 3.0f);
  if ((threadIdx.x & 31) < kDivergeActiveLanes) {
#pragma unroll 4
    for (int i = 0; i < iterations; ++i) {
      x0 = fmaf(x0, a, b);
      x1 = fmaf(x1, a, b);
      x2 = fmaf(x2, a, b);
      x3 = fmaf(x3, a, b);
    }
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = __fadd_rn(__fadd_rn(x0, x1), __fadd_rn(x2, x3));
}

// Lane l of a warp loads word l * stride: `stride`-way bank conflicts for strides 1, 2, 4, ..., 32.
__global__ void bank_conflict_kernel(float* out, int stride, int loads) {
  __shared__ float words[32 * 32];
  for (int i = threadIdx.x; i < 32 * 32; i += blockDim.x) words[i] = static_cast<float>(i);
  __syncthreads();
  const volatile float* shared = words;
  const int lane = threadIdx.x & 31;
  float sum = 0.0f;
  for (int i = 0; i < loads; ++i) sum += shared[lane * stride];
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// Reads `data` `repeats` times through L2 only (ld.global.cg bypasses L1).
__global__ void l2_reread_kernel(const float4* data, std::size_t count, int repeats, float* out) {
  float sum = 0.0f;
  for (int r = 0; r < repeats; ++r) {
    for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < count;
         i += std::size_t{gridDim.x} * blockDim.x) {
      const float4 v = __ldcg(&data[i]);
      sum += v.x + v.y + v.z + v.w;
    }
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// Reads a clean buffer larger than L2, so that dirty lines of earlier work are written back before a
// measured sample, not during it.
__global__ void l2_flush_kernel(const float4* data, std::size_t count, float* out) {
  float sum = 0.0f;
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < count;
       i += std::size_t{gridDim.x} * blockDim.x) {
    sum += __ldcg(&data[i]).x;
  }
  if (sum == 12345.0f) out[0] = sum;  // keeps the loads; never true for the fill pattern
}

// Brings the L2 buffer into L2 before l2_reread_kernel (a separate name, so ncu's rows tell them apart).
__global__ void l2_warm_kernel(const float4* data, std::size_t count, float* out) {
  float sum = 0.0f;
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < count;
       i += std::size_t{gridDim.x} * blockDim.x) {
    const float4 v = __ldcg(&data[i]);
    sum += v.x;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// A small kernel whose instruction, shared-memory and global-memory counts depend on (blocks, iterations):
// the many-samples multi-pass check gives every sample a different, deterministic value.
__global__ void mix_kernel(const float* in, float* out, int iterations) {
  __shared__ float tile[256];
  const int index = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = in[index];
  __syncthreads();
  float x = tile[(threadIdx.x * 3) & 255];
  for (int i = 0; i < iterations; ++i) {
    x = fmaf(x, 1.0001f, tile[(threadIdx.x + i) & 255]);
  }
  out[index] = x;
}

// L0CacheHit's non-trivial truth: warp w's read r loads the 128-byte line (w + r) % 32 of a 4 KiB array, so
// each SM's L1 misses only the first touch of each of its 128 sectors (at most once per resident warp when they
// race) and hits every later lookup.
__global__ void l1_reuse_kernel(const float* data, float* out, int reads) {
  const int lane = threadIdx.x & 31;
  const int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  float sum = 0.0f;
  for (int r = 0; r < reads; ++r) {
    sum += __ldca(&data[((warp + r) & 31) * 32 + lane]);
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// L0CacheHit of 50%: every float4 is loaded twice through L1, the second load's address depending on the first's
// value (x * 0 is 0 for the finite fill pattern but not foldable), so it issues after the first returned and
// hits the sectors the first one missed.
__global__ void l1_twice_kernel(const float4* data, std::size_t count, float* out) {
  float sum = 0.0f;
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < count;
       i += std::size_t{gridDim.x} * blockDim.x) {
    const float4 first = __ldca(&data[i]);
    const float4 second = __ldca(&data[i + static_cast<int>(first.x * 0.0f)]);
    sum += first.y + second.z;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// PTX ld/st without a state space: SASS LD/ST through a generic address (NVIDIA's FLAT).
__device__ __forceinline__ float LoadGeneric(const float* p) {
  float v;
  asm volatile("ld.f32 %0, [%1];" : "=f"(v) : "l"(p));
  return v;
}
__device__ __forceinline__ void StoreGeneric(float* p, float v) {
  asm volatile("st.f32 [%0], %1;" ::"l"(p), "f"(v) : "memory");
}

// FlatLDSInsts and FlatVMemInsts truth. With shared_mask = 1 (a run-time value, so the compiler cannot tell the
// spaces apart), `near` points to shared memory and `far` to global memory: per warp 1 generic store + `loads`
// generic loads resolve to shared memory, `loads` generic loads + 1 generic store to global memory, and no
// LDS/STS/LDG/STG.
__global__ void flat_kernel(const float* in, float* out, int shared_mask, int loads) {
  __shared__ float tile[256];
  const int index = blockIdx.x * blockDim.x + threadIdx.x;
  float* near = (shared_mask & 1) ? tile : out + blockIdx.x * blockDim.x;
  const float* far = (shared_mask & 2) ? tile : in + blockIdx.x * blockDim.x;
  StoreGeneric(near + threadIdx.x, static_cast<float>(threadIdx.x));
  __syncthreads();
  float sum = 0.0f;
  for (int i = 0; i < loads; ++i) {
    const int j = (threadIdx.x + i) & 255;
    sum += LoadGeneric(near + j) + LoadGeneric(far + j);
  }
  StoreGeneric(out + index, sum);
}

}  // namespace opengpa_device

#endif  // OPENGPA_TESTS_DEVICE_CUDA_KERNELS_CUH_
