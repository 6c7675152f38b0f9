// A program that launches kernels through a CUDA graph, for `opengpa profile`'s graph support (issue 12):
// each of three kernels is launched once directly, then a graph of the same three launches (captured
// from a stream: graph_add -> graph_scale -> graph_fill, a chain) is launched GRAPHS times. Profiled, the
// samples are 3 + 3*GRAPHS, named in that order, and every graph node's instruction count equals the
// direct launch's of the same kernel (same grid, block and arguments).
// Usage: graph_launches [GRAPHS]
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                                                    \
  do {                                                                                                 \
    cudaError_t error_ = (call);                                                                       \
    if (error_ != cudaSuccess) {                                                                       \
      std::fprintf(stderr, "%s failed: %s (line %d)\n", #call, cudaGetErrorString(error_), __LINE__); \
      return 1;                                                                                        \
    }                                                                                                  \
  } while (0)

__global__ void graph_add(const float* a, const float* b, float* c, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

__global__ void graph_scale(float* a, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] *= 1.0001f;
}

__global__ void graph_fill(float* b, int n, float value) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) b[i] = value;
}

int main(int argc, char** argv) {
  const int graphs = argc > 1 ? std::atoi(argv[1]) : 20;
  const int n = 1 << 20;
  float *a = nullptr, *b = nullptr, *c = nullptr;
  CHECK(cudaMalloc(&a, n * sizeof(float)));
  CHECK(cudaMalloc(&b, n * sizeof(float)));
  CHECK(cudaMalloc(&c, n * sizeof(float)));
  cudaStream_t stream;
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  const dim3 grid((n + 255) / 256), block(256);
  auto enqueue = [&] {
    graph_add<<<grid, block, 0, stream>>>(a, b, c, n);
    graph_scale<<<grid, block, 0, stream>>>(a, n);
    graph_fill<<<grid, block, 0, stream>>>(b, n, 1.0f);
  };
  enqueue();  // direct launches: the reference counts
  CHECK(cudaStreamSynchronize(stream));
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  enqueue();
  CHECK(cudaStreamEndCapture(stream, &graph));
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  for (int i = 0; i < graphs; ++i) CHECK(cudaGraphLaunch(exec, stream));
  CHECK(cudaStreamSynchronize(stream));
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  std::printf("%d direct launches, %d graph launches of 3 kernel nodes\n", 3, graphs);
  return 0;
}
