// Ground truth for `opengpa profile --mode sampled`: copy kernels of known sizes, launched back to back on one
// stream with no synchronization between them (as a real program does), each reading a region of a 4 GiB
// buffer that no recent launch touched (so its reads come from DRAM, not from the 50 MiB L2). Each launch reads
// exactly its size: the DRAM read bytes each launch must be given. Prints one line per launch:
//   launch <index> <bytes read>
//   sampled_truth [ROUNDS]
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

__global__ void Copy(const float4* __restrict__ in, float4* __restrict__ out, size_t n) {
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < n; i += size_t{gridDim.x} * blockDim.x) {
    out[i] = in[i];
  }
}

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 20;
  const size_t area = size_t{4} << 30;
  char* source = nullptr;
  float4* sink = nullptr;
  if (cudaMalloc(&source, area) != cudaSuccess || cudaMalloc(&sink, size_t{1} << 30) != cudaSuccess) return 1;
  cudaMemset(source, 1, area);
  cudaDeviceSynchronize();
  // 256 KiB to 1 GiB: about 1 µs to 700 µs on an H100.
  const size_t sizes[] = {size_t{1} << 30, size_t{16} << 20,  size_t{256} << 20, size_t{4} << 20,   size_t{64} << 20,
                          size_t{1} << 20, size_t{128} << 20, size_t{32} << 20,  size_t{256} << 10, size_t{512} << 20};
  size_t offset = 0;
  int index = 0;
  for (int round = 0; round < rounds; ++round) {
    for (size_t bytes : sizes) {
      if (offset + bytes > area) offset = 0;
      const size_t n = bytes / sizeof(float4);
      const unsigned blocks = static_cast<unsigned>(std::min<size_t>((n + 511) / 512, 132 * 16));
      Copy<<<blocks, 512>>>(reinterpret_cast<const float4*>(source + offset), sink, n);
      std::printf("launch %d %zu\n", index++, bytes);
      offset += bytes;
    }
  }
  if (cudaDeviceSynchronize() != cudaSuccess) return 1;
  return 0;
}
