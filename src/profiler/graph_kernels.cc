#include "profiler/graph_kernels.h"

#include "nvidia/cuda_driver.h"

namespace opengpa::inject_cuda {
namespace {

// The driver's entry points: the one table of src/nvidia (cuda_driver.h), empty without a driver.
const nvidia::CudaDriver& Driver() { return nvidia::CudaDriverOrEmpty(); }

}  // namespace

std::vector<std::size_t> TopologicalOrder(std::size_t count,
                                          const std::vector<std::pair<std::size_t, std::size_t>>& edges) {
  std::vector<std::size_t> waiting(count, 0);
  std::vector<std::vector<std::size_t>> next(count);
  for (const auto& [from, to] : edges) {
    if (from >= count || to >= count) continue;
    next[from].push_back(to);
    ++waiting[to];
  }
  std::vector<std::size_t> order;
  std::vector<bool> placed(count, false);
  // Repeatedly the lowest-index node whose predecessors are all placed: O(n^2), graphs are small.
  while (order.size() < count) {
    std::size_t ready = count;
    for (std::size_t i = 0; i < count && ready == count; ++i) {
      if (!placed[i] && waiting[i] == 0) ready = i;
    }
    if (ready == count) break;  // a cycle
    placed[ready] = true;
    order.push_back(ready);
    for (std::size_t to : next[ready]) --waiting[to];
  }
  for (std::size_t i = 0; i < count; ++i) {
    if (!placed[i]) order.push_back(i);
  }
  return order;
}

bool StreamIsCapturing(CUstream stream) {
  const nvidia::CudaDriver& driver = Driver();
  CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
  return driver.cuStreamIsCapturing != nullptr && driver.cuStreamIsCapturing(stream, &status) == CUDA_SUCCESS &&
         status != CU_STREAM_CAPTURE_STATUS_NONE;
}

bool IsOtherGpuWork(CUgraphNodeType type) {
  switch (type) {
    case CU_GRAPH_NODE_TYPE_KERNEL:
    case CU_GRAPH_NODE_TYPE_EMPTY:
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
    case CU_GRAPH_NODE_TYPE_HOST: return false;
    default: return true;
  }
}

bool SynchronizeStream(CUstream stream) {
  const nvidia::CudaDriver& driver = Driver();
  return driver.cuStreamSynchronize != nullptr && driver.cuStreamSynchronize(stream) == CUDA_SUCCESS;
}

bool GraphNodesInOrder(CUgraph graph, std::vector<CUgraphNode>* ordered, std::string* error) {
  ordered->clear();
  const nvidia::CudaDriver& driver = Driver();
  if (!driver.has_graph_reading) {
    *error = "libcuda.so.1 lacks an entry point for reading CUDA graphs";
    return false;
  }
  std::size_t count = 0;
  if (driver.cuGraphGetNodes(graph, nullptr, &count) != CUDA_SUCCESS) {
    *error = "cuGraphGetNodes failed";
    return false;
  }
  std::vector<CUgraphNode> nodes(count);
  std::size_t edge_count = 0;
  if ((count > 0 && driver.cuGraphGetNodes(graph, nodes.data(), &count) != CUDA_SUCCESS) ||
      driver.cuGraphGetEdges(graph, nullptr, nullptr, nullptr, &edge_count) != CUDA_SUCCESS) {
    *error = "cuGraphGetNodes/cuGraphGetEdges failed";
    return false;
  }
  std::vector<CUgraphNode> from(edge_count);
  std::vector<CUgraphNode> to(edge_count);
  if (edge_count > 0 && driver.cuGraphGetEdges(graph, from.data(), to.data(), nullptr, &edge_count) != CUDA_SUCCESS) {
    *error = "cuGraphGetEdges failed";
    return false;
  }
  auto index_of = [&nodes](CUgraphNode node) {
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      if (nodes[i] == node) return i;
    }
    return nodes.size();
  };
  std::vector<std::pair<std::size_t, std::size_t>> edges;
  for (std::size_t e = 0; e < edge_count; ++e) edges.emplace_back(index_of(from[e]), index_of(to[e]));
  for (std::size_t i : TopologicalOrder(nodes.size(), edges)) ordered->push_back(nodes[i]);
  return true;
}

namespace {

// Child graphs nested deeper than this are left as nodes (a graph holding itself is impossible, but a
// malformed answer must not recurse forever).
constexpr int kMaxChildGraphDepth = 16;

bool AppendFlattened(CUgraph graph, int depth, std::vector<CUgraphNode>* ordered, std::vector<ChildGraphSpan>* children,
                     std::string* error) {
  std::vector<CUgraphNode> nodes;
  if (!GraphNodesInOrder(graph, &nodes, error)) return false;
  const nvidia::CudaDriver& driver = Driver();
  for (CUgraphNode node : nodes) {
    CUgraphNodeType type = CU_GRAPH_NODE_TYPE_EMPTY;
    CUgraph child = nullptr;
    if (depth < kMaxChildGraphDepth && driver.cuGraphNodeGetType(node, &type) == CUDA_SUCCESS &&
        type == CU_GRAPH_NODE_TYPE_GRAPH && driver.cuGraphChildGraphNodeGetGraph(node, &child) == CUDA_SUCCESS &&
        child != nullptr) {
      ChildGraphSpan span{node, ordered->size(), 0};
      if (!AppendFlattened(child, depth + 1, ordered, children, error)) return false;
      span.count = ordered->size() - span.first;
      if (children != nullptr) children->push_back(span);
      continue;
    }
    ordered->push_back(node);
  }
  return true;
}

}  // namespace

bool GraphNodesFlattened(CUgraph graph, std::vector<CUgraphNode>* ordered, std::vector<ChildGraphSpan>* children,
                         std::string* error) {
  ordered->clear();
  if (children != nullptr) children->clear();
  return AppendFlattened(graph, 0, ordered, children, error);
}

bool GraphKernelLaunches(CUgraph graph, std::vector<KernelLaunch>* kernels, std::size_t* other_work_nodes,
                         std::string* error) {
  kernels->clear();
  *other_work_nodes = 0;
  const nvidia::CudaDriver& driver = Driver();
  std::vector<CUgraphNode> nodes;
  if (!GraphNodesFlattened(graph, &nodes, nullptr, error)) return false;
  for (CUgraphNode node : nodes) {
    CUgraphNodeType type;
    if (driver.cuGraphNodeGetType(node, &type) != CUDA_SUCCESS) {
      ++*other_work_nodes;  // unknown: not taken for a kernel-free node
      continue;
    }
    if (type != CU_GRAPH_NODE_TYPE_KERNEL) {
      *other_work_nodes += IsOtherGpuWork(type) ? 1 : 0;
      continue;
    }
    CUDA_KERNEL_NODE_PARAMS params{};
    KernelLaunch launch;
    const char* name = nullptr;
    if (driver.cuGraphKernelNodeGetParams(node, &params) == CUDA_SUCCESS) {
      if (params.func != nullptr) {
        driver.cuFuncGetName(&name, params.func);
      } else if (params.kern != nullptr) {
        driver.cuKernelGetName(&name, params.kern);
      }
      launch.grid = {params.gridDimX, params.gridDimY, params.gridDimZ};
      launch.block = {params.blockDimX, params.blockDimY, params.blockDimZ};
      launch.dimensions_known = true;
    }
    launch.name = Demangle(name);
    kernels->push_back(std::move(launch));
  }
  return true;
}

}  // namespace opengpa::inject_cuda
