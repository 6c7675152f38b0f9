// A CUDA graph with child graphs nested two deep, for `opengpa profile --graph-profiling node`
// (graph_expansion.h), which replays the nodes of child graphs too and must run each exactly once:
//   plain launches of ffma_accumulate with 1K, 2K, ... 6K iterations (the references, samples 0-5), then
//   graph P: ffma(1K) -> child graph C [ffma(2K) -> child graph D [ffma(3K)]] -> ffma(4K), launched 3 times,
//   then cudaGraphExecChildGraphNodeSetParams of C's node from C2 [ffma(5K) -> child D2 [ffma(6K)]], launched.
// Each node adds its result to a buffer of its own, cleared before each launch: a node run twice or not at
// all changes the buffer, which the program compares with the plain launch of the same iterations. It prints
// one line per launch and a last "graph_children results: ok|WRONG".
// Expected node samples: 1K 2K 3K 4K three times, then 1K 5K 6K 4K, each equal to the plain launch's.
#include <cstdio>
#include <vector>

#include "known_kernels.cuh"

__global__ void ffma_accumulate(float* out, int iterations) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a = 1.0f + i * 1e-7f, b = 0.999f;
  for (int k = 0; k < iterations; ++k) a = fmaf(a, b, 1e-3f);
  out[i] += a;
}

namespace {

constexpr int kBlocks = 264, kThreads = 256, kIterations = 1000, kElements = kBlocks * kThreads;
float* outputs[7] = {};     // outputs[m]: the node of m x K iterations adds here (1..6)
float* references[7] = {};  // the plain launch of m x K iterations
bool all_ok = true;

// A graph built here and its child-graph node (if it has one).
struct Built {
  cudaGraph_t graph = nullptr;
  cudaGraphNode_t child_node = nullptr;
};

cudaGraphNode_t AddFfma(cudaGraph_t graph, int multiple, const cudaGraphNode_t* after, size_t count) {
  static int multiples[16];
  static float* buffers[16];
  static int next = 0;
  const int slot = next++ % 16;
  multiples[slot] = multiple * kIterations;
  buffers[slot] = outputs[multiple];
  void* args[] = {&buffers[slot], &multiples[slot]};
  cudaKernelNodeParams params{
      reinterpret_cast<void*>(ffma_accumulate), dim3(kBlocks), dim3(kThreads), 0, args, nullptr};
  cudaGraphNode_t node;
  CHECK(cudaGraphAddKernelNode(&node, graph, after, count, &params));
  return node;
}

// ffma(first) -> child graph `child` (if any).
Built FfmaThenChild(int first, cudaGraph_t child) {
  Built built;
  CHECK(cudaGraphCreate(&built.graph, 0));
  cudaGraphNode_t node = AddFfma(built.graph, first, nullptr, 0);
  if (child != nullptr) CHECK(cudaGraphAddChildGraphNode(&built.child_node, built.graph, &node, 1, child));
  return built;
}

void Check(const char* step, const std::vector<int>& multiples) {
  CHECK(cudaDeviceSynchronize());
  bool ok = true;
  std::vector<float> got(kElements), want(kElements);
  for (int multiple : multiples) {
    CHECK(cudaMemcpy(got.data(), outputs[multiple], kElements * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(want.data(), references[multiple], kElements * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < kElements && ok; ++i) ok = got[i] == want[i];
  }
  all_ok = all_ok && ok;
  std::printf("%-48s %s\n", step, ok ? "ok" : "WRONG");
}

void Clear() {
  for (int m = 1; m <= 6; ++m) CHECK(cudaMemset(outputs[m], 0, kElements * sizeof(float)));
}

}  // namespace

int main() {
  for (int m = 1; m <= 6; ++m) {
    CHECK(cudaMalloc(&outputs[m], kElements * sizeof(float)));
    CHECK(cudaMalloc(&references[m], kElements * sizeof(float)));
    CHECK(cudaMemset(references[m], 0, kElements * sizeof(float)));
  }
  for (int m = 1; m <= 6; ++m) ffma_accumulate<<<kBlocks, kThreads>>>(references[m], m * kIterations);
  CHECK(cudaGetLastError());
  // Nodes of 5K and 6K write where C's 2K and D's 3K did (outputs[2], outputs[3]): the update keeps buffers.
  outputs[5] = outputs[2];
  outputs[6] = outputs[3];

  const Built d = FfmaThenChild(3, nullptr);
  const Built c = FfmaThenChild(2, d.graph);
  const Built p = FfmaThenChild(1, c.graph);
  AddFfma(p.graph, 4, &p.child_node, 1);
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, p.graph, 0));
  cudaStream_t stream;
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  for (int launch = 1; launch <= 3; ++launch) {
    Clear();
    CHECK(cudaGraphLaunch(exec, stream));
    char step[64];
    std::snprintf(step, sizeof step, "launch %d: 1K 2K 3K 4K", launch);
    Check(step, {1, 2, 3, 4});
  }
  const Built d2 = FfmaThenChild(6, nullptr);
  const Built c2 = FfmaThenChild(5, d2.graph);
  CHECK(cudaGraphExecChildGraphNodeSetParams(exec, p.child_node, c2.graph));
  Clear();
  CHECK(cudaGraphLaunch(exec, stream));
  Check("child graph set to C2: 1K 5K 6K 4K", {1, 5, 6, 4});
  std::printf("graph_children results: %s\n", all_ok ? "ok" : "WRONG");
  return all_ok ? 0 : 1;
}
