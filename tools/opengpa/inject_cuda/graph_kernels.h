// CUDA Graphs: the kernel nodes of an instantiated graph, in the order a launch of it runs them. The
// launch callback of cuGraphLaunch sees only the graph, so the nodes are read when CUPTI reports the
// executable graph's creation (CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATED), from the graph it was instantiated
// from. `opengpa profile` counts a graph launch as one launch per kernel node (launch indexes stay those
// of the kernels that ran) and names them; it does not sample them yet: on the H100 (CUDA 13.0, driver
// 580) a pass open across a stream capture and the graph's launch failed in cuptiRangeProfilerStop
// (CUPTI_ERROR_UNKNOWN), losing its batch, so batches end before captures and graph launches (docs/cli.md).
//
// The order: nodes on parallel branches are placed in one topological order (ties by the order
// cuGraphGetNodes lists them); kernel nodes inside child-graph nodes and parameters changed after
// instantiation (cuGraphExecKernelNodeSetParams) are not followed.
#ifndef OPENGPA_TOOLS_OPENGPA_INJECT_CUDA_GRAPH_KERNELS_H_
#define OPENGPA_TOOLS_OPENGPA_INJECT_CUDA_GRAPH_KERNELS_H_

#include <cuda.h>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "kernel_launch.h"

namespace opengpa::inject_cuda {

// A topological order of `count` nodes joined by `edges` (from, to), ties broken by index; nodes of a
// cycle (never in a valid graph) come last, in index order.
std::vector<std::size_t> TopologicalOrder(std::size_t count,
                                          const std::vector<std::pair<std::size_t, std::size_t>>& edges);

// The kernel nodes of `graph` in launch order, named and with grid and block (stream left to the launch).
// False and *error when the driver cannot describe the graph.
bool GraphKernelLaunches(CUgraph graph, std::vector<KernelLaunch>* kernels, std::string* error);

// Whether `stream` is capturing into a graph: a launch on it is recorded, not run, and makes no range.
bool StreamIsCapturing(CUstream stream);

}  // namespace opengpa::inject_cuda

#endif  // OPENGPA_TOOLS_OPENGPA_INJECT_CUDA_GRAPH_KERNELS_H_
