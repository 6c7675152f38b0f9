// Kernels whose work is known exactly, shared by the graph and stream programs of this folder: an FFMA
// loop (threads x iterations FFMAs, no memory but its one store), a copy (reads and writes its buffer
// once) and an in-place scale (reads and writes its buffer once).
#pragma once
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                                                   \
  do {                                                                                                \
    cudaError_t error_ = (call);                                                                      \
    if (error_ != cudaSuccess) {                                                                      \
      std::fprintf(stderr, "%s failed: %s (line %d)\n", #call, cudaGetErrorString(error_), __LINE__); \
      std::exit(1);                                                                                   \
    }                                                                                                 \
  } while (0)

__global__ void known_ffma(float* out, int iterations) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a = 1.0f + i * 1e-7f, b = 0.999f;
  for (int k = 0; k < iterations; ++k) a = fmaf(a, b, 1e-3f);
  out[i] = a;
}

__global__ void known_copy(const float4* in, float4* out, size_t count) {
  const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  if (i < count) out[i] = in[i];
}

__global__ void known_scale(float4* data, size_t count) {
  const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  if (i < count) {
    float4 v = data[i];
    v.x *= 1.5f;
    v.y *= 1.5f;
    v.z *= 1.5f;
    v.w *= 1.5f;
    data[i] = v;
  }
}
