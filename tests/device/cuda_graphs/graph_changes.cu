// A program that changes its executable CUDA graphs between launches, as real ones do, for
// `opengpa profile --graph-profiling node` (graph_expansion.h), which replays graph nodes itself and so must
// follow every change. Each launch adds a value to X with `add_value` nodes; the program checks X after each
// step against the sum it expects, and prints one line per step and a last "graph_changes results: ok|WRONG".
//   1. graph A: add(1) -> memset Y, instantiated, then A destroyed (PyTorch's way), launched
//   2. cudaGraphExecKernelNodeSetParams: add(10) instead                -> +10
//   3. cudaGraphNodeSetEnabled(node, 0), launched                      -> +0; enabled again, launched -> +10
//   4. cudaGraphExecUpdate from graph B (same shape, add(100))        -> +100
//   5. graph C: add(1000) -> add(2000), built and kept, launched twice        -> +6000
//   6. cudaGraphExecUpdate of C's executable graph from C2 (add 3000 -> add 4000), C kept  -> +7000
// Expected: kernel samples of the launches that ran a kernel node, named add_value, graph_node 0 or 1.
#include <cstdio>

#include "known_kernels.cuh"

__global__ void add_value(float* x, float value) { x[threadIdx.x] += value; }

namespace {

float* x = nullptr;
unsigned char* y = nullptr;
float expected = 0;
bool all_ok = true;

void Check(cudaStream_t stream, const char* step) {
  CHECK(cudaStreamSynchronize(stream));
  float host[32];
  CHECK(cudaMemcpy(host, x, sizeof(host), cudaMemcpyDeviceToHost));
  bool ok = true;
  for (float v : host) ok = ok && v == expected;
  all_ok = all_ok && ok;
  std::printf("%-40s X %g expected %g %s\n", step, host[0], expected, ok ? "ok" : "WRONG");
}

cudaGraph_t AddThenMemset(float value, cudaGraphNode_t* add_node) {
  cudaGraph_t graph;
  CHECK(cudaGraphCreate(&graph, 0));
  static float values[8];
  static float* xs[8];
  static int next = 0;
  const int slot = next++ % 8;
  values[slot] = value;
  xs[slot] = x;
  void* args[] = {&xs[slot], &values[slot]};
  cudaKernelNodeParams add{reinterpret_cast<void*>(add_value), dim3(1), dim3(32), 0, args, nullptr};
  CHECK(cudaGraphAddKernelNode(add_node, graph, nullptr, 0, &add));
  cudaMemsetParams memset{};
  memset.dst = y;
  memset.value = 7;
  memset.elementSize = 1;
  memset.width = 64;
  memset.height = 1;
  cudaGraphNode_t memset_node;
  CHECK(cudaGraphAddMemsetNode(&memset_node, graph, add_node, 1, &memset));
  return graph;
}

}  // namespace

int main() {
  CHECK(cudaMalloc(&x, 32 * sizeof(float)));
  CHECK(cudaMalloc(&y, 64));
  CHECK(cudaMemset(x, 0, 32 * sizeof(float)));
  cudaStream_t stream;
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));

  cudaGraphNode_t node_a;
  cudaGraph_t a = AddThenMemset(1, &node_a);
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, a, 0));
  // Kept for steps 2-3 (they name its node); destroyed before the update, as after PyTorch's instantiation.
  CHECK(cudaGraphLaunch(exec, stream));
  expected += 1;
  Check(stream, "1. launch (add 1)");

  float ten = 10;
  void* args[] = {&x, &ten};
  cudaKernelNodeParams changed{reinterpret_cast<void*>(add_value), dim3(1), dim3(32), 0, args, nullptr};
  CHECK(cudaGraphExecKernelNodeSetParams(exec, node_a, &changed));
  ten = -5;  // the parameters were copied at the call
  CHECK(cudaGraphLaunch(exec, stream));
  expected += 10;
  Check(stream, "2. new kernel parameters (add 10)");

  CHECK(cudaGraphNodeSetEnabled(exec, node_a, 0));
  CHECK(cudaGraphLaunch(exec, stream));
  Check(stream, "3a. add node disabled (add 0)");
  CHECK(cudaGraphNodeSetEnabled(exec, node_a, 1));
  CHECK(cudaGraphLaunch(exec, stream));
  expected += 10;
  Check(stream, "3b. enabled again (add 10)");

  CHECK(cudaGraphDestroy(a));
  cudaGraphNode_t node_b;
  cudaGraph_t b = AddThenMemset(100, &node_b);
  cudaGraphExecUpdateResultInfo info;
  CHECK(cudaGraphExecUpdate(exec, b, &info));
  CHECK(cudaGraphDestroy(b));
  CHECK(cudaGraphLaunch(exec, stream));
  expected += 100;
  Check(stream, "4. updated from graph B (add 100)");

  cudaGraph_t c;
  CHECK(cudaGraphCreate(&c, 0));
  static float v1000 = 1000, v2000 = 2000;
  void* args1[] = {&x, &v1000};
  void* args2[] = {&x, &v2000};
  cudaKernelNodeParams add1{reinterpret_cast<void*>(add_value), dim3(1), dim3(32), 0, args1, nullptr};
  cudaKernelNodeParams add2{reinterpret_cast<void*>(add_value), dim3(1), dim3(32), 0, args2, nullptr};
  cudaGraphNode_t n1, n2;
  CHECK(cudaGraphAddKernelNode(&n1, c, nullptr, 0, &add1));
  CHECK(cudaGraphAddKernelNode(&n2, c, &n1, 1, &add2));
  cudaGraphExec_t exec_c;
  CHECK(cudaGraphInstantiate(&exec_c, c, 0));
  for (int i = 0; i < 2; ++i) CHECK(cudaGraphLaunch(exec_c, stream));
  expected += 6000;
  Check(stream, "5. two-kernel graph twice (add 6000)");

  // 6. the same two-kernel shape updated from graph C2 (add 3000, add 4000) while C still exists.
  cudaGraph_t c2;
  CHECK(cudaGraphCreate(&c2, 0));
  static float v3000 = 3000, v4000 = 4000;
  void* args3[] = {&x, &v3000};
  void* args4[] = {&x, &v4000};
  cudaKernelNodeParams add3{reinterpret_cast<void*>(add_value), dim3(1), dim3(32), 0, args3, nullptr};
  cudaKernelNodeParams add4{reinterpret_cast<void*>(add_value), dim3(1), dim3(32), 0, args4, nullptr};
  cudaGraphNode_t n3, n4;
  CHECK(cudaGraphAddKernelNode(&n3, c2, nullptr, 0, &add3));
  CHECK(cudaGraphAddKernelNode(&n4, c2, &n3, 1, &add4));
  CHECK(cudaGraphExecUpdate(exec_c, c2, &info));
  CHECK(cudaGraphLaunch(exec_c, stream));
  expected += 7000;
  Check(stream, "6. updated from C2, C kept (add 7000)");

  CHECK(cudaGraphExecDestroy(exec_c));
  CHECK(cudaGraphDestroy(c));
  CHECK(cudaGraphDestroy(c2));
  CHECK(cudaGraphExecDestroy(exec));
  std::printf("graph_changes results: %s\n", all_ok ? "ok" : "WRONG");
  return all_ok ? 0 : 2;
}
