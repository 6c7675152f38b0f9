// Kernels on two streams in each of two CUDA contexts (cuCtxCreate), for `opengpa profile` (issue 12): each
// launch must be a sample of its own stream and context, with its exact FFMA count. Launch j (0..3) of
// context k (0, 1) on stream s (0, 1) runs ffma with 100 * (1 + 4k + 2s + (j & 1)) iterations, so every sample
// says by its count which context and stream it belongs to. The two streams of a context are not
// synchronized with each other between launches. Usage: streams_contexts
#include <cuda.h>

#include "known_kernels.cuh"

#define CHECK_CU(call)                                                             \
  do {                                                                             \
    CUresult result_ = (call);                                                     \
    if (result_ != CUDA_SUCCESS) {                                                 \
      std::fprintf(stderr, "%s failed: %d (line %d)\n", #call, result_, __LINE__); \
      return 1;                                                                    \
    }                                                                              \
  } while (0)

constexpr int kBlocks = 264, kThreads = 256;

int main() {
  CHECK_CU(cuInit(0));
  CUdevice device;
  CHECK_CU(cuDeviceGet(&device, 0));
  CUcontext contexts[2];
  for (int k = 0; k < 2; ++k) {
    CUctxCreateParams params{};
    CHECK_CU(cuCtxCreate(&contexts[k], &params, 0, device));
  }
  for (int k = 0; k < 2; ++k) {
    CHECK_CU(cuCtxSetCurrent(contexts[k]));  // the runtime adopts the current context
    float* out;
    CHECK(cudaMalloc(&out, 2 * kBlocks * kThreads * sizeof(float)));
    cudaStream_t streams[2];
    for (auto& stream : streams) CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    for (int j = 0; j < 4; ++j) {
      for (int s = 0; s < 2; ++s) {
        const int iterations = 100 * (1 + 4 * k + 2 * s + (j & 1));
        known_ffma<<<kBlocks, kThreads, 0, streams[s]>>>(out + s * kBlocks * kThreads, iterations);
        CHECK(cudaGetLastError());
      }
    }
    for (auto& stream : streams) CHECK(cudaStreamSynchronize(stream));
  }
  for (int k = 0; k < 2; ++k) CHECK_CU(cuCtxDestroy(contexts[k]));
  std::printf("streams_contexts: 2 contexts x 2 streams x 4 launches of %d threads\n", kBlocks * kThreads);
  return 0;
}
