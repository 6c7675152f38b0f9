// Probe (no profiler): can the kernel nodes inside a child-graph node of an executable graph be disabled one by
// one with cuGraphNodeSetEnabled, as graph_expansion.h disables a graph's own kernel nodes? Builds
//   parent: mark(2) -> child graph [mark(0) -> mark(1)] -> mark(3)
// instantiates it, tries to disable each kernel node of the child graph (as the parent holds it, from
// cuGraphChildGraphNodeGetGraph, and as the program built it), launches, and prints which marks ran.
// Usage: child_graph_probe
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

#define CHECK(call)                                                                     \
  do {                                                                                  \
    CUresult r_ = (call);                                                               \
    if (r_ != CUDA_SUCCESS) {                                                           \
      const char* name_ = nullptr;                                                      \
      cuGetErrorName(r_, &name_);                                                       \
      std::fprintf(stderr, "%s: %s (line %d)\n", #call, name_ ? name_ : "?", __LINE__); \
      return 1;                                                                         \
    }                                                                                   \
  } while (0)

__global__ void mark(int* flags, int which) { flags[which] += 1; }

static CUresult AddMark(CUgraph graph, CUgraphNode* node, const CUgraphNode* after, size_t count, CUfunction function,
                        CUdeviceptr flags, int which) {
  void* arguments[] = {&flags, &which};
  CUDA_KERNEL_NODE_PARAMS params{};
  params.func = function;
  params.gridDimX = params.gridDimY = params.gridDimZ = 1;
  params.blockDimX = params.blockDimY = params.blockDimZ = 1;
  params.kernelParams = arguments;
  return cuGraphAddKernelNode(node, graph, after, count, &params);
}

static const char* Name(CUresult result) {
  const char* name = nullptr;
  cuGetErrorName(result, &name);
  return name ? name : "?";
}

int main() {
  CHECK(cuInit(0));
  CUdevice device;
  CHECK(cuDeviceGet(&device, 0));
  CUcontext context;
  CHECK(cuDevicePrimaryCtxRetain(&context, device));
  CHECK(cuCtxSetCurrent(context));
  cudaFunction_t runtime_function = nullptr;
  if (cudaGetFuncBySymbol(&runtime_function, reinterpret_cast<const void*>(&mark)) != cudaSuccess) return 1;
  CUfunction function = reinterpret_cast<CUfunction>(runtime_function);
  CUdeviceptr flags;
  CHECK(cuMemAlloc(&flags, 4 * sizeof(int)));
  CHECK(cuMemsetD32(flags, 0, 4));

  CUgraph child, parent;
  CHECK(cuGraphCreate(&child, 0));
  CUgraphNode c0, c1;
  CHECK(AddMark(child, &c0, nullptr, 0, function, flags, 0));
  CHECK(AddMark(child, &c1, &c0, 1, function, flags, 1));
  CHECK(cuGraphCreate(&parent, 0));
  CUgraphNode p2, child_node, p3;
  CHECK(AddMark(parent, &p2, nullptr, 0, function, flags, 2));
  CHECK(cuGraphAddChildGraphNode(&child_node, parent, &p2, 1, child));
  CHECK(AddMark(parent, &p3, &child_node, 1, function, flags, 3));
  CUgraphExec exec;
  CHECK(cuGraphInstantiate(&exec, parent, 0));

  CUgraph embedded;
  CHECK(cuGraphChildGraphNodeGetGraph(child_node, &embedded));
  size_t count = 0;
  CHECK(cuGraphGetNodes(embedded, nullptr, &count));
  std::vector<CUgraphNode> inner(count);
  CHECK(cuGraphGetNodes(embedded, inner.data(), &count));
  std::printf("child graph node holds %zu nodes (embedded graph %p, the program's %p)\n", count,
              static_cast<void*>(embedded), static_cast<void*>(child));
  for (size_t i = 0; i < count; ++i) {
    const CUresult disable = cuGraphNodeSetEnabled(exec, inner[i], 0);
    unsigned int enabled = 7;
    const CUresult get = cuGraphNodeGetEnabled(exec, inner[i], &enabled);
    std::printf("embedded node %zu: cuGraphNodeSetEnabled(0) -> %s; cuGraphNodeGetEnabled -> %s, %u\n", i,
                Name(disable), Name(get), enabled);
  }
  std::printf("the program's child-graph node c0: cuGraphNodeSetEnabled(0) -> %s\n",
              Name(cuGraphNodeSetEnabled(exec, c0, 0)));
  std::printf("the child-graph node itself: cuGraphNodeSetEnabled(0) -> %s\n",
              Name(cuGraphNodeSetEnabled(exec, child_node, 0)));
  std::printf("parent's own kernel node p2: cuGraphNodeSetEnabled(0) -> %s\n",
              Name(cuGraphNodeSetEnabled(exec, p2, 0)));
  CHECK(cuGraphLaunch(exec, nullptr));
  CHECK(cuCtxSynchronize());
  int host[4] = {};
  CHECK(cuMemcpyDtoH(host, flags, sizeof host));
  std::printf(
      "after one launch, marks ran: child 0 x%d, child 1 x%d, parent 2 x%d, parent 3 x%d "
      "(0 where the node was disabled)\n",
      host[0], host[1], host[2], host[3]);
  // Kernel parameters of an embedded node, read back (what an expansion would replay).
  CUDA_KERNEL_NODE_PARAMS read{};
  std::printf("cuGraphKernelNodeGetParams(embedded node 0) -> %s\n", Name(cuGraphKernelNodeGetParams(inner[0], &read)));
  return 0;
}
