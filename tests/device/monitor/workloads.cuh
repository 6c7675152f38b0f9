// GPU work with a known amount of it, for checking the monitor's numbers against ground truth.
#ifndef OPENGPA_TESTS_DEVICE_REALTIME_WORKLOADS_CUH_
#define OPENGPA_TESTS_DEVICE_REALTIME_WORKLOADS_CUH_

// Each thread runs `iterations` x 128 dependent-in-8-chains FFMAs and stores one float, so the kernel
// is bound by the FMA pipe with every SM busy. Per iteration the loop body is 128 FFMA (checked in
// SASS, see docs/realtime.md) plus loop overhead on other pipes.
constexpr int kFfmaPerIteration = 128;

__global__ void FfmaKernel(float* out, int iterations, float a, float b) {
  float x0 = threadIdx.x, x1 = x0 + 1.f, x2 = x0 + 2.f, x3 = x0 + 3.f;
  float x4 = x0 + 4.f, x5 = x0 + 5.f, x6 = x0 + 6.f, x7 = x0 + 7.f;
  for (int i = 0; i < iterations; ++i) {
#pragma unroll
    for (int k = 0; k < kFfmaPerIteration / 8; ++k) {
      x0 = fmaf(x0, a, b);
      x1 = fmaf(x1, a, b);
      x2 = fmaf(x2, a, b);
      x3 = fmaf(x3, a, b);
      x4 = fmaf(x4, a, b);
      x5 = fmaf(x5, a, b);
      x6 = fmaf(x6, a, b);
      x7 = fmaf(x7, a, b);
    }
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7;
}

#endif  // OPENGPA_TESTS_DEVICE_REALTIME_WORKLOADS_CUH_
