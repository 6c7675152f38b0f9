// CUDA Graphs node by node: how `opengpa profile` makes each kernel node of a graph launch a sample of its
// own, as ncu's default (--graph-profiling node) does.
//
// CUPTI's range profiler cannot split a graph launch (graph_sampling.h: no range per node, a pass of auto
// ranges holding a graph launch fails to stop). So when an executable graph is created, its nodes are read
// from the graph it was instantiated from (kernel: function, grid, block, shared memory, the values of its
// arguments, cluster and cooperative attributes; memcpy and memset: their parameters; event record and
// wait: the event) and the executable graph's kernel, memcpy and memset nodes are disabled
// (cuGraphNodeSetEnabled: a disabled node runs as an empty node). At each launch the injection first
// enqueues the nodes' work itself, on the launch's stream, in one topological order of the graph: each
// kernel node is then an ordinary kernel launch, an auto range with all its counters (SASS-instrumented
// ones included), named after its kernel; the graph launch that follows runs only its empty shell. The
// graph's dependencies are kept (one stream, a topological order), its concurrency is not: profiled
// kernels run one at a time under any kernel profiler.
//
// A child-graph node's nodes are read in its place (graph_kernels.h: GraphNodesFlattened) and disabled one by
// one like the graph's own (the executable graph knows them as the nodes of the graph the child-graph node
// embeds), so a kernel inside a child graph is a sample of its own too.
//
// Graphs left whole (one sample per launch, graph_sampling.h): those with a node of another type (host,
// conditional, memory allocation, external semaphore, batch memory operation), those
// instantiated for device launch, and every graph in a profile taken from inside a running program
// (Python's in-process sessions end while the program goes on, and a disabled node could not always be
// enabled again: PyTorch destroys a graph right after instantiating it, and with it the node handles).
//
// While the executable graph lives, the program's own changes to it are followed: new kernel, memcpy, memset,
// event or child-graph parameters (cuGraphExec*NodeSetParams, cuGraphExecEvent*NodeSetEvent) replace the copy
// here, a node the program disables or
// enables is run or not accordingly (and stays disabled in the executable graph), and after cuGraphExecUpdate
// the nodes' parameters are read again from the graph it updated from (an update keeps the nodes disabled).
#ifndef OPENGPA_PROFILER_GRAPH_EXPANSION_H_
#define OPENGPA_PROFILER_GRAPH_EXPANSION_H_

#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "profiler/graph_kernels.h"
#include "profiler/kernel_launch.h"

namespace opengpa::inject_cuda {

class GraphExpansion {
 public:
  struct Node {
    CUgraphNode handle = nullptr;  // in the graph the executable graph was instantiated (or updated) from
    CUgraphNodeType type = CU_GRAPH_NODE_TYPE_EMPTY;
    bool enabled = true;  // as the program wants it (cuGraphNodeSetEnabled of its own)
    // Kernel nodes.
    KernelLaunch launch;  // name, grid, block (stream left to the launch)
    std::size_t kernel_ordinal = 0;
    CUfunction function = nullptr;
    unsigned int shared_memory = 0;
    std::vector<std::vector<unsigned char>> arguments;  // each argument's bytes
    CUlaunchAttributeValue cluster{};                   // clusterDim; used when larger than 1x1x1
    bool cooperative = false;
    // Memcpy, memset, event record and event wait nodes.
    CUDA_MEMCPY3D copy{};
    CUDA_MEMSET_NODE_PARAMS set{};
    CUevent event = nullptr;
  };

  // Reads `graph`'s nodes and disables the work nodes of `exec`, its executable graph. nullptr and *why_not
  // when the graph is left whole; then `exec` is as it was.
  static std::unique_ptr<GraphExpansion> Create(CUgraph graph, CUgraphExec exec, std::string* why_not);
  ~GraphExpansion() = default;

  const std::vector<Node>& nodes() const { return nodes_; }
  std::size_t kernel_nodes() const { return kernel_nodes_; }
  std::uint32_t id() const { return id_; }
  void set_id(std::uint32_t id) { id_ = id; }

  // Enqueues the work of `node` on `stream` (a disabled node: nothing). Call with the graph's context current.
  static bool Enqueue(const Node& node, CUstream stream, std::string* error);

  // The program changed the executable graph: its callback's parameters, at the API's exit, on success.
  // False and *error when the change cannot be followed: the graph is then enabled again where possible
  // (Restore) and the caller leaves it whole from then on.
  bool OnKernelParams(CUgraphNode node, const CUDA_KERNEL_NODE_PARAMS& params, std::string* error);
  bool OnMemcpyParams(CUgraphNode node, const CUDA_MEMCPY3D& params, std::string* error);
  bool OnMemsetParams(CUgraphNode node, const CUDA_MEMSET_NODE_PARAMS& params, std::string* error);
  bool OnNodeParams(CUgraphNode node, const CUgraphNodeParams& params, std::string* error);
  bool OnEvent(CUgraphNode node, CUgraphNodeType type, CUevent event, std::string* error);
  // cuGraphExecChildGraphNodeSetParams: the child graph's nodes take `child`'s parameters, by position.
  bool OnChildGraph(CUgraphNode node, CUgraph child, std::string* error);
  bool OnSetEnabled(CUgraphNode node, bool enabled, std::string* error);
  // After cuGraphExecUpdate(exec, graph): the nodes' parameters read again from `graph`, paired by topological
  // position (the executable graph's nodes, still disabled, keep their instantiation's handles).
  bool OnUpdate(CUgraph graph, std::string* error);
  // Whether `node` is one of the nodes followed here.
  bool Holds(CUgraphNode node) const;
  // `graph` is being destroyed: if it is the one the nodes were read from, their handles die with it, and
  // Restore is no longer possible (nor needed: the program can no longer name them either).
  void OnGraphDestroyed(CUgraph graph) {
    if (graph == graph_) nodes_alive_ = false;
  }
  bool nodes_alive() const { return nodes_alive_; }

  // Enables the executable graph's nodes again (its nodes' graph must still exist), for a graph no longer
  // expanded. False when the driver refuses.
  bool Restore();

 private:
  GraphExpansion() = default;
  Node* Find(CUgraphNode node);

  CUgraphExec exec_ = nullptr;
  CUgraph graph_ = nullptr;  // the graph nodes_ were read from
  bool nodes_alive_ = true;
  std::vector<Node> nodes_;               // a topological order, child graphs' nodes in their places
  std::vector<ChildGraphSpan> children_;  // where each child graph's nodes lie in nodes_
  std::size_t kernel_nodes_ = 0;
  std::uint32_t id_ = 0;
};

// Whether the driver API callback `cbid` changes an executable graph in a way GraphExpansion follows.
bool IsGraphExecChange(CUpti_CallbackId cbid);

}  // namespace opengpa::inject_cuda

#endif  // OPENGPA_PROFILER_GRAPH_EXPANSION_H_
