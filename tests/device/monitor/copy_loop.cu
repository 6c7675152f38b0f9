// Ground truth for the monitor on several GPUs: copies a buffer on one GPU with a plain copy kernel, as many times
// as asked or for as long as asked, and prints what it moved and when, as one JSON line:
//   {"gpu": ORDINAL, "uuid": "GPU-...", "bytes_read": N, "bytes_written": N, "launches": N,
//    "begin_ns": T, "end_ns": T}     (CLOCK_REALTIME: the first launch is made after begin, the last ends before end)
// Each launch reads and writes the buffer once: 512 MiB each way, 10x the H100's 50 MB L2, so DRAM sees every byte.
//   copy_loop --device N (--seconds S | --launches K) [--mib M]
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

__global__ void CopyKernel(const float4* __restrict__ in, float4* __restrict__ out, size_t count) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    out[i] = in[i];
  }
}

static long long RealtimeNs() {
  timespec now{};
  clock_gettime(CLOCK_REALTIME, &now);
  return static_cast<long long>(now.tv_sec) * 1000000000LL + now.tv_nsec;
}

#define CHECK(call)                                                                         \
  do {                                                                                      \
    cudaError_t error = (call);                                                             \
    if (error != cudaSuccess) {                                                             \
      std::fprintf(stderr, "copy_loop: %s failed: %s\n", #call, cudaGetErrorString(error)); \
      return 1;                                                                             \
    }                                                                                       \
  } while (0)

int main(int argc, char** argv) {
  int device = 0;
  double seconds = 0;
  long long launches_wanted = 0;
  size_t mib = 512;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--device"))
      device = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--seconds"))
      seconds = std::atof(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--launches"))
      launches_wanted = std::atoll(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--mib"))
      mib = std::strtoull(argv[i + 1], nullptr, 10);
  }
  if ((seconds <= 0) == (launches_wanted <= 0)) {
    std::fprintf(stderr, "usage: copy_loop --device N (--seconds S | --launches K) [--mib M]\n");
    return 2;
  }
  CHECK(cudaSetDevice(device));
  cudaDeviceProp properties{};
  CHECK(cudaGetDeviceProperties(&properties, device));
  const size_t bytes = mib << 20;
  const size_t count = bytes / sizeof(float4);
  float4* in = nullptr;
  float4* out = nullptr;
  CHECK(cudaMalloc(&in, bytes));
  CHECK(cudaMalloc(&out, bytes));
  CHECK(cudaMemset(in, 1, bytes));
  CHECK(cudaMemset(out, 0, bytes));
  CHECK(cudaDeviceSynchronize());
  const int blocks = properties.multiProcessorCount * 8;
  const long long begin = RealtimeNs();
  const auto start = std::chrono::steady_clock::now();
  long long launches = 0;
  // Launch in groups of 16 and look at the clock between groups: the queue never holds much more than the time asked.
  while (launches_wanted > 0
             ? launches < launches_wanted
             : std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < seconds) {
    const long long group = launches_wanted > 0 ? std::min(16LL, launches_wanted - launches) : 16;
    for (long long g = 0; g < group; ++g) CopyKernel<<<blocks, 256>>>(in, out, count);
    CHECK(cudaGetLastError());
    launches += group;
    CHECK(cudaDeviceSynchronize());
  }
  const long long end = RealtimeNs();
  char uuid[64];
  const unsigned char* b = reinterpret_cast<const unsigned char*>(properties.uuid.bytes);
  std::snprintf(uuid, sizeof uuid, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0],
                b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
  std::printf(
      "{\"gpu\": %d, \"uuid\": \"%s\", \"bytes_read\": %lld, \"bytes_written\": %lld, \"launches\": %lld, "
      "\"begin_ns\": %lld, \"end_ns\": %lld}\n",
      device, uuid, static_cast<long long>(bytes) * launches, static_cast<long long>(bytes) * launches, launches, begin,
      end);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
