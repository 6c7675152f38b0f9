// What a CUDA graph launch becomes in `opengpa profile --graph-profiling graph` (and for the graphs node mode
// leaves whole, graph_expansion.h): one sample per launch, measured by a CUPTI user range pushed before
// cuGraphLaunch and popped after it (context_profiler.h).
//
// Why not one sample per kernel node: on the H100 (CUDA 13.0, driver 580; docs/validation.md) CUPTI's range
// profiler makes no range per node. With auto ranges a pass that holds a graph launch fails in
// cuptiRangeProfilerStop (CUPTI_ERROR_UNKNOWN), even when the graph was captured and instantiated before the
// pass began; with kernel replay a graph launch yields no range at all. A user range around the launch
// measures all of its nodes' work, kernels, memsets and memcpys alike. So:
//   - a graph whose one piece of GPU work is a single kernel node is that node's sample: its kernel's name,
//     grid and block, exact counters (a torch.cuda.CUDAGraph of one product, say);
//   - any other graph is one sample of the whole launch, named after its kernel nodes, with their totals
//     (and those of its memset/memcpy nodes); grid and block are 0, as no one kernel is meant.
// Each sample carries the executable graph's CUPTI id; the launch takes one launch index per kernel node.
// Each launch's user range is named after its position in the batch, as every user range is
// (ContextProfiler::OpenRange): CUPTI adds user ranges of one name together (on the H100 twelve launches
// pushed as "graph" decoded as one range holding all their work).
// SASS-instrumented metrics (smsp__sass_*: FFMA and other per-opcode counts) read 0 for graph launches on
// the H100, since CUPTI patches kernels at their own launch; graph samples leave them unavailable.
// A graph instantiated before profiling began (Python's profile around replays of a graph captured earlier)
// has nodes no one read: its launches are whole-graph samples saying so, one launch index each.
#ifndef OPENGPA_PROFILER_GRAPH_SAMPLING_H_
#define OPENGPA_PROFILER_GRAPH_SAMPLING_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "profiler/graph_expansion.h"
#include "profiler/kernel_launch.h"

namespace opengpa::inject_cuda {

struct GraphDescription {
  std::uint32_t id = 0;               // CUPTI's id of the executable graph
  std::vector<KernelLaunch> kernels;  // its kernel nodes in launch order (graph_kernels.h)
  std::size_t other_work_nodes = 0;   // memset, memcpy, conditional and other nodes with GPU work
  bool nodes_known = true;            // false: instantiated before profiling began, nodes never read
  // --graph-profiling node: the nodes replayed one by one (graph_expansion.h); null: the launch is one sample.
  std::shared_ptr<GraphExpansion> expansion;
};

// How many launch indexes a launch of `graph` takes: one per kernel node, one when the nodes are not known.
std::size_t GraphLaunchCount(const GraphDescription& graph);

// The sample a launch of `graph` is (name, grid, block, graph, graph_node); stream, context and NVTX ranges
// are the launch's, filled by the caller.
KernelLaunch GraphLaunchSample(const GraphDescription& graph);

// Whether a launch of `graph` is sampled: `choose` is asked about each kernel node in launch order (so that
// --launch-skip and --launch-count count nodes, as they count kernels), and any node chosen samples the
// launch; a graph of unknown nodes is asked about once, by its sample's name. A graph known to have no kernel
// node is never sampled.
bool ChooseGraphLaunch(const GraphDescription& graph, const std::function<bool(const std::string&)>& choose);

// Whether CUPTI counts `metric` inside a CUDA graph launch: not the SASS-instrumented ones (*__sass_*).
bool CountedInsideGraphs(std::string_view metric);

}  // namespace opengpa::inject_cuda

#endif  // OPENGPA_PROFILER_GRAPH_SAMPLING_H_
