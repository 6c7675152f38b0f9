// What ordering an L2 flush in a second context against a program's stream costs, without any profiler:
// N times a small kernel in the program's (primary) context, each preceded by a kernel reading twice the L2
// in the flush's own context, ordered by
//   alone   no flush (the small kernels only)
//   same    the flush kernel on the program's stream, in its context
//   events  cross-context event waits on the GPU (what `opengpa profile` calls gpu)
//   values  stream memory operations on portable host memory (cuStreamWrite/WaitValue32)
//   host    host waits for each stream in turn
// Prints one line per ordering: wall time per iteration in microseconds. Usage: context_switch_cost [N]
#include <cuda.h>
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define CHECK_RT(call)                                                                     \
  do {                                                                                     \
    cudaError_t e_ = (call);                                                               \
    if (e_ != cudaSuccess) {                                                               \
      std::fprintf(stderr, "%s: %s (line %d)\n", #call, cudaGetErrorString(e_), __LINE__); \
      std::exit(1);                                                                        \
    }                                                                                      \
  } while (0)
#define CHECK_DRV(call)                                                                           \
  do {                                                                                            \
    CUresult r_ = (call);                                                                         \
    if (r_ != CUDA_SUCCESS) {                                                                     \
      std::fprintf(stderr, "%s: CUresult %d (line %d)\n", #call, static_cast<int>(r_), __LINE__); \
      std::exit(1);                                                                               \
    }                                                                                             \
  } while (0)

__global__ void small(float* a, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = a[i] * 1.0001f + 1.0f;
}

__global__ void evict(const unsigned long long* buffer, size_t words, unsigned long long* sink) {
  unsigned long long x = 0;
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < words;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    x ^= __ldcg(buffer + i);
  }
  if (x == 1) *sink = x;
}

struct Flush {
  unsigned long long* buffer = nullptr;
  unsigned long long* sink = nullptr;
  size_t words = 0;
  int blocks = 0;
  void Launch(cudaStream_t stream) const { evict<<<blocks, 256, 0, stream>>>(buffer, words, sink); }
};

static Flush MakeFlush() {
  int l2 = 0, sms = 0;
  CHECK_RT(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
  CHECK_RT(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  Flush f;
  f.words = 2 * static_cast<size_t>(l2) / 8;
  f.blocks = sms * 4;
  CHECK_RT(cudaMalloc(&f.buffer, f.words * 8));
  CHECK_RT(cudaMemset(f.buffer, 0, f.words * 8));
  CHECK_RT(cudaMalloc(&f.sink, 8));
  return f;
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 2000;
  const int elements = 1 << 20;
  CHECK_RT(cudaSetDevice(0));
  CUcontext program = nullptr;
  CHECK_DRV(cuCtxGetCurrent(&program));
  if (program == nullptr) {
    CHECK_RT(cudaFree(nullptr));
    CHECK_DRV(cuCtxGetCurrent(&program));
  }
  float* a = nullptr;
  CHECK_RT(cudaMalloc(&a, elements * sizeof(float)));
  CHECK_RT(cudaMemset(a, 0, elements * sizeof(float)));
  cudaStream_t stream;
  CHECK_RT(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  const Flush same_flush = MakeFlush();
  cudaEvent_t program_done;
  CHECK_RT(cudaEventCreateWithFlags(&program_done, cudaEventDisableTiming));

  // The flush's own context; the runtime uses whichever context is current.
  CUdevice device = 0;
  CHECK_DRV(cuDeviceGet(&device, 0));
  CUcontext own = nullptr;
  CHECK_DRV(cuCtxCreate(&own, nullptr, 0, device));  // made current
  const Flush own_flush = MakeFlush();
  cudaStream_t own_stream;
  CHECK_RT(cudaStreamCreateWithFlags(&own_stream, cudaStreamNonBlocking));
  cudaEvent_t flush_done;
  CHECK_RT(cudaEventCreateWithFlags(&flush_done, cudaEventDisableTiming));
  CUcontext popped = nullptr;
  CHECK_DRV(cuCtxPopCurrent(&popped));
  unsigned int* semaphores = nullptr;
  CHECK_DRV(
      cuMemHostAlloc(reinterpret_cast<void**>(&semaphores), 8, CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP));
  semaphores[0] = semaphores[1] = 0;
  unsigned int sequence = 0;
  const auto program_sem = reinterpret_cast<CUdeviceptr>(&semaphores[0]);
  const auto flush_sem = reinterpret_cast<CUdeviceptr>(&semaphores[1]);

  const char* orderings[] = {"alone", "same", "events", "values", "host"};
  for (int round = 0; round < 2; ++round) {
    for (const char* ordering : orderings) {
      CHECK_RT(cudaDeviceSynchronize());
      const auto start = std::chrono::steady_clock::now();
      for (int i = 0; i < n; ++i) {
        if (!std::strcmp(ordering, "same")) {
          same_flush.Launch(stream);
        } else if (!std::strcmp(ordering, "events")) {
          CHECK_RT(cudaEventRecord(program_done, stream));
          CHECK_DRV(cuCtxPushCurrent(own));
          CHECK_RT(cudaStreamWaitEvent(own_stream, program_done, 0));
          own_flush.Launch(own_stream);
          CHECK_RT(cudaEventRecord(flush_done, own_stream));
          CHECK_DRV(cuCtxPopCurrent(&popped));
          CHECK_RT(cudaStreamWaitEvent(stream, flush_done, 0));
        } else if (!std::strcmp(ordering, "values")) {
          ++sequence;
          CHECK_DRV(cuStreamWriteValue32(stream, program_sem, sequence, CU_STREAM_WRITE_VALUE_DEFAULT));
          CHECK_DRV(cuCtxPushCurrent(own));
          CHECK_DRV(cuStreamWaitValue32(own_stream, program_sem, sequence, CU_STREAM_WAIT_VALUE_GEQ));
          own_flush.Launch(own_stream);
          CHECK_DRV(cuStreamWriteValue32(own_stream, flush_sem, sequence, CU_STREAM_WRITE_VALUE_DEFAULT));
          CHECK_DRV(cuCtxPopCurrent(&popped));
          CHECK_DRV(cuStreamWaitValue32(stream, flush_sem, sequence, CU_STREAM_WAIT_VALUE_GEQ));
        } else if (!std::strcmp(ordering, "host")) {
          CHECK_RT(cudaStreamSynchronize(stream));
          CHECK_DRV(cuCtxPushCurrent(own));
          own_flush.Launch(own_stream);
          CHECK_RT(cudaStreamSynchronize(own_stream));
          CHECK_DRV(cuCtxPopCurrent(&popped));
        }
        small<<<(elements + 255) / 256, 256, 0, stream>>>(a, elements);
      }
      CHECK_RT(cudaStreamSynchronize(stream));
      const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() / n;
      if (round == 1) std::printf("%-7s %9.1f us per iteration (%d iterations)\n", ordering, us, n);
    }
  }
  return 0;
}
