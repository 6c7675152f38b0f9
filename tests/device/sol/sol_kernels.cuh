// Kernels built to saturate one GPU unit each, for the Speed-of-Light / GPU Bottleneck check
// (sol_device_check.cu). Each fills every SM (8 blocks of 256 threads per SM, 64 warps: full occupancy
// on sm_90) and runs about 2 ms on an H100. (A GPA sample's SOL is over its busy time, not its CUPTI range:
// docs/cuda.md "Time base"; the check compares every launch order with ncu's per-kernel value.)
//
//   StreamCopy           float4 copy of 1 GiB to another 1 GiB, 3 times: DRAM-bound (the arrays are 20x the L2)
//   FfmaLoop             8 independent FFMA chains per thread, no memory traffic: SM (FMA pipe / issue) bound
//   SharedLoads128       conflict-free 128-bit shared loads (LDS.128): L1/TEX-bound, 4 data-stage wavefronts
//                        per instruction while the SM issues it (and two adds) once
//   SharedLoadsConflict4 32-bit shared loads with 4-way bank conflicts: L1/TEX-bound, the data stage
//                        replays every instruction 4 times while the SM's issue and register writeback idle
//
// Shared loads are PTX `ld.volatile.shared`: neither nvcc nor ptxas may hoist these loop-invariant loads
// out of the loop or merge them (a plain `asm volatile` ld.shared only binds nvcc; ptxas hoisted it in the
// first device run), so every load in the source is executed. The device check confirms it by counting
// shared-memory wavefronts against warps x iterations x loads x 4.
#ifndef OPENGPA_TESTS_DEVICE_SOL_SOL_KERNELS_CUH_
#define OPENGPA_TESTS_DEVICE_SOL_SOL_KERNELS_CUH_

#include <cuda_runtime.h>

#include <cstddef>

namespace sol {

constexpr int kThreadsPerBlock = 256;
constexpr int kBlocksPerSm = 8;

__global__ void StreamCopy(const float4* __restrict__ in, float4* __restrict__ out, std::size_t count, int repeats) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (int r = 0; r < repeats; ++r) {
#pragma unroll 4
    for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) {
      out[i] = in[i];
    }
  }
}

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

// 8 KiB of shared memory per block; shared-window byte address of `tile`.
constexpr unsigned kSharedTileBytes = 8192;

__device__ __forceinline__ void FillTile(float* tile) {
  for (unsigned i = threadIdx.x; i < kSharedTileBytes / 4; i += blockDim.x) tile[i] = static_cast<float>(i & 255);
  __syncthreads();
}

__device__ __forceinline__ float4 LoadShared128(unsigned address) {
  float4 v;
  asm volatile("ld.volatile.shared.v4.f32 {%0, %1, %2, %3}, [%4];"
               : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
               : "r"(address));
  return v;
}

__device__ __forceinline__ float LoadShared32(unsigned address) {
  float v;
  asm volatile("ld.volatile.shared.f32 %0, [%1];" : "=f"(v) : "r"(address));
  return v;
}

__global__ void SharedLoads128(float* out, int iterations) {
  __shared__ __align__(16) float tile[kSharedTileBytes / 4];
  FillTile(tile);
  // Consecutive threads read consecutive 16-byte words: each quarter warp reads 128 contiguous bytes, one
  // wavefront, so a warp's load is 4 wavefronts and no bank conflicts.
  const unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(tile)) + threadIdx.x * 16u;
  // Two adds per load keep the SM's issue slots and FMA pipe far below L1's data stage (4 cycles per load).
  float x = 0, y = 0;
  for (int it = 0; it < iterations; ++it) {
#pragma unroll
    for (unsigned u = 0; u < 8; ++u) {
      const float4 v = LoadShared128(base + ((u * 4096u) & (kSharedTileBytes - 1)));
      x += v.x;
      y += v.w;
    }
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = x + y;
}

__global__ void SharedLoadsConflict4(float* out, int iterations) {
  __shared__ __align__(16) float tile[kSharedTileBytes / 4];
  FillTile(tile);
  // Lane l reads word 4*l: 32 lanes fall on 8 banks (bank = word % 32), 4 distinct words each, so every
  // load needs 4 wavefronts.
  const unsigned lane = threadIdx.x & 31u;
  const unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(tile)) + lane * 16u;
  float acc0 = 0, acc1 = 0;
  for (int it = 0; it < iterations; ++it) {
#pragma unroll
    for (unsigned u = 0; u < 8; ++u) {
      const float v = LoadShared32(base + ((u * 512u) & (kSharedTileBytes - 1)));
      if (u & 1u) {
        acc1 += v;
      } else {
        acc0 += v;
      }
    }
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc0 + acc1;
}

}  // namespace sol

#endif  // OPENGPA_TESTS_DEVICE_SOL_SOL_KERNELS_CUH_
