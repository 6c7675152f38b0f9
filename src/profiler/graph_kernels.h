// CUDA Graphs: the kernel nodes of an instantiated graph, in the order a launch of it runs them. The
// launch callback of cuGraphLaunch sees only the graph, so the nodes are read when CUPTI reports the
// executable graph's creation (CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATED), from the graph it was instantiated
// from. `opengpa profile` samples each graph launch as one range (graph_sampling.h) and counts it as one
// launch per kernel node, so the launch indexes of the kernels after it stay those of the kernels that ran.
//
// The order: nodes on parallel branches are placed in one topological order (ties by the order
// cuGraphGetNodes lists them); a child-graph node's nodes take its place, in their own topological order
// (a child graph runs as a unit between its node's dependencies). Parameters changed after instantiation
// are followed only where graphs are replayed node by node (graph_expansion.h).
#ifndef OPENGPA_PROFILER_GRAPH_KERNELS_H_
#define OPENGPA_PROFILER_GRAPH_KERNELS_H_

#include <cuda.h>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "profiler/kernel_launch.h"

namespace opengpa::inject_cuda {

// A topological order of `count` nodes joined by `edges` (from, to), ties broken by index; nodes of a
// cycle (never in a valid graph) come last, in index order.
std::vector<std::size_t> TopologicalOrder(std::size_t count,
                                          const std::vector<std::pair<std::size_t, std::size_t>>& edges);

// The nodes of `graph` in one topological order (TopologicalOrder over cuGraphGetNodes's order). False and
// *error when the driver cannot describe the graph.
bool GraphNodesInOrder(CUgraph graph, std::vector<CUgraphNode>* ordered, std::string* error);

// A child-graph node of a graph and where its nodes lie in GraphNodesFlattened's list.
struct ChildGraphSpan {
  CUgraphNode node = nullptr;  // the child-graph node
  std::size_t first = 0;       // its first node in the flattened list
  std::size_t count = 0;       // how many (those of child graphs inside it included)
};

// GraphNodesInOrder with every child-graph node replaced by the nodes of the graph it embeds
// (cuGraphChildGraphNodeGetGraph; those are the nodes an executable graph of it knows), recursively.
// `children` (may be null): each child-graph node's span, inner ones before the one holding them.
bool GraphNodesFlattened(CUgraph graph, std::vector<CUgraphNode>* ordered, std::vector<ChildGraphSpan>* children,
                         std::string* error);

// The kernel nodes of `graph` in launch order (those of its child graphs included), named and with grid and
// block (stream left to the launch), and how many of its other nodes may run GPU work (memset, memcpy,
// conditional, ...: every type but empty, event and host nodes). False and *error when the driver cannot
// describe the graph.
bool GraphKernelLaunches(CUgraph graph, std::vector<KernelLaunch>* kernels, std::size_t* other_work_nodes,
                         std::string* error);

// Whether a node of `type` may run work on the GPU besides kernels (memset, memcpy, child graph, ...).
bool IsOtherGpuWork(CUgraphNodeType type);

// Whether `stream` is capturing into a graph: a launch on it is recorded, not run, and makes no range.
bool StreamIsCapturing(CUstream stream);

// Waits for the work queued on `stream` (cuStreamSynchronize); false if the driver refuses.
bool SynchronizeStream(CUstream stream);

}  // namespace opengpa::inject_cuda

#endif  // OPENGPA_PROFILER_GRAPH_KERNELS_H_
