// A CUDA graph with child graphs nested two deep, for `opengpa profile --graph-profiling node`
// (graph_expansion.h), which replays the nodes of child graphs too and must run each exactly once:
//   plain launches of ffma_accumulate with 1K, 2K, ... 6K iterations (the references, samples 0-5), then
//   graph P: ffma(1K) -> child graph C [ffma(2K) -> memset F -> child graph D [ffma(3K) -> memcpy to M]] ->
//   ffma(4K), launched 3 times, then cudaGraphExecChildGraphNodeSetParams of C's node from C2 [ffma(5K) ->
//   memset F -> child D2 [ffma(6K) -> memcpy to M]], launched once.
// Each kernel node adds its result to a buffer of its own, cleared before each launch (as are F and M): a node
// run twice or not at all changes the buffer, which the program compares with the plain launch of the same
// iterations; M must hold D's (or D2's) result and every byte of F must be 7. It prints one line per launch
// and a last "graph_children results: ok|WRONG".
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
float* outputs[7] = {};          // outputs[m]: the node of m x K iterations adds here (1..6)
float* references[7] = {};       // the plain launch of m x K iterations
float* mirror = nullptr;         // M: D's memcpy node copies D's buffer here
unsigned char* flags = nullptr;  // F: C's memset node sets every byte to 7
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

// The innermost graphs: ffma(m) -> memcpy of its buffer to M.
Built FfmaThenCopy(int multiple) {
  Built built;
  CHECK(cudaGraphCreate(&built.graph, 0));
  cudaGraphNode_t node = AddFfma(built.graph, multiple, nullptr, 0), copy;
  CHECK(cudaGraphAddMemcpyNode1D(&copy, built.graph, &node, 1, mirror, outputs[multiple], kElements * sizeof(float),
                                 cudaMemcpyDeviceToDevice));
  return built;
}

// ffma(first) -> child graph `child`; with `set_flags`, a memset of F between them.
Built FfmaThenChild(int first, cudaGraph_t child, bool set_flags) {
  Built built;
  CHECK(cudaGraphCreate(&built.graph, 0));
  cudaGraphNode_t node = AddFfma(built.graph, first, nullptr, 0);
  if (set_flags) {
    cudaMemsetParams set{};
    set.dst = flags;
    set.value = 7;
    set.elementSize = 1;
    set.width = kElements;
    set.height = 1;
    cudaGraphNode_t memset_node;
    CHECK(cudaGraphAddMemsetNode(&memset_node, built.graph, &node, 1, &set));
    node = memset_node;
  }
  CHECK(cudaGraphAddChildGraphNode(&built.child_node, built.graph, &node, 1, child));
  return built;
}

// The buffers of `multiples`' nodes equal their plain launches', M equals the innermost one's, F is all 7s.
void Check(const char* step, const std::vector<int>& multiples) {
  CHECK(cudaDeviceSynchronize());
  bool ok = true;
  std::vector<float> got(kElements), want(kElements);
  for (int multiple : multiples) {
    CHECK(cudaMemcpy(got.data(), outputs[multiple], kElements * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(want.data(), references[multiple], kElements * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < kElements && ok; ++i) ok = got[i] == want[i];
  }
  CHECK(cudaMemcpy(got.data(), mirror, kElements * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(want.data(), references[multiples[2]], kElements * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < kElements && ok; ++i) ok = got[i] == want[i];
  std::vector<unsigned char> bytes(kElements);
  CHECK(cudaMemcpy(bytes.data(), flags, kElements, cudaMemcpyDeviceToHost));
  for (int i = 0; i < kElements && ok; ++i) ok = bytes[i] == 7;
  all_ok = all_ok && ok;
  std::printf("%-48s %s\n", step, ok ? "ok" : "WRONG");
}

void Clear() {
  for (int m = 1; m <= 6; ++m) CHECK(cudaMemset(outputs[m], 0, kElements * sizeof(float)));
  CHECK(cudaMemset(mirror, 0, kElements * sizeof(float)));
  CHECK(cudaMemset(flags, 0, kElements));
}

}  // namespace

int main() {
  for (int m = 1; m <= 6; ++m) {
    CHECK(cudaMalloc(&outputs[m], kElements * sizeof(float)));
    CHECK(cudaMalloc(&references[m], kElements * sizeof(float)));
    CHECK(cudaMemset(references[m], 0, kElements * sizeof(float)));
  }
  CHECK(cudaMalloc(&mirror, kElements * sizeof(float)));
  CHECK(cudaMalloc(&flags, kElements));
  for (int m = 1; m <= 6; ++m) ffma_accumulate<<<kBlocks, kThreads>>>(references[m], m * kIterations);
  CHECK(cudaGetLastError());
  // Nodes of 5K and 6K write where C's 2K and D's 3K did (outputs[2], outputs[3]): the update keeps buffers.
  outputs[5] = outputs[2];
  outputs[6] = outputs[3];

  const Built d = FfmaThenCopy(3);
  const Built c = FfmaThenChild(2, d.graph, true);
  const Built p = FfmaThenChild(1, c.graph, false);
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
  const Built d2 = FfmaThenCopy(6);
  const Built c2 = FfmaThenChild(5, d2.graph, true);
  CHECK(cudaGraphExecChildGraphNodeSetParams(exec, p.child_node, c2.graph));
  Clear();
  CHECK(cudaGraphLaunch(exec, stream));
  Check("child graph set to C2: 1K 5K 6K 4K", {1, 5, 6, 4});
  std::printf("graph_children results: %s\n", all_ok ? "ok" : "WRONG");
  return all_ok ? 0 : 1;
}
