// The kernels of the process checks (run.sh): a shared library, so that the C program (spawn_check.cu) and a
// Python parent (parent.py, through ctypes) launch the same kernels. Each launch adds 1 to 256 integers; the
// caller's count of launches is checked on the host afterwards, so a launch the profiler disturbed is caught.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>

__global__ void parent_kernel(int* data) { data[threadIdx.x] += 1; }
__global__ void child_kernel(int* data) { data[threadIdx.x] += 1; }

// Launches `count` kernels named parent_kernel (which = "parent") or child_kernel; 0 when every launch ran.
extern "C" int launch_kernels(const char* which, int count) {
  int* data = nullptr;
  if (cudaMalloc(&data, 256 * sizeof(int)) != cudaSuccess) return 1;
  cudaMemset(data, 0, 256 * sizeof(int));
  const bool parent = std::strcmp(which, "parent") == 0;
  for (int i = 0; i < count; ++i) {
    if (parent) {
      parent_kernel<<<1, 256>>>(data);
    } else {
      child_kernel<<<1, 256>>>(data);
    }
  }
  int host[256] = {};
  const cudaError_t copied = cudaMemcpy(host, data, sizeof host, cudaMemcpyDeviceToHost);
  cudaFree(data);
  if (copied != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", which, cudaGetErrorString(copied));
    return 1;
  }
  for (int value : host) {
    if (value != count) {
      std::fprintf(stderr, "%s: a value is %d after %d launches\n", which, value, count);
      return 1;
    }
  }
  return 0;
}
