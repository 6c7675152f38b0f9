#include "profiler/graph_sampling.h"

namespace opengpa::inject_cuda {
namespace {

constexpr std::size_t kNamedNodes = 4;  // kernel names a whole-graph sample lists before "..."

std::string Plural(std::size_t count, const char* noun) {
  return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

}  // namespace

std::size_t GraphLaunchCount(const GraphDescription& graph) { return graph.nodes_known ? graph.kernels.size() : 1; }

KernelLaunch GraphLaunchSample(const GraphDescription& graph) {
  KernelLaunch sample;
  sample.graph = graph.id;
  sample.dimensions_known = true;  // grid and block 0 unless the sample is one kernel node
  if (!graph.nodes_known) {
    sample.name = "CUDA graph: nodes not known (instantiated before profiling began)";
    return sample;
  }
  if (graph.kernels.size() == 1 && graph.other_work_nodes == 0) {
    const KernelLaunch& node = graph.kernels.front();
    sample.name = node.name;
    sample.grid = node.grid;
    sample.block = node.block;
    sample.dimensions_known = node.dimensions_known;
    sample.graph_node = 0;
    return sample;
  }
  std::string names;
  for (std::size_t i = 0; i < graph.kernels.size() && i < kNamedNodes; ++i) {
    names += (i == 0 ? "" : "; ") + graph.kernels[i].name;
  }
  if (graph.kernels.size() > kNamedNodes) names += "; ...";
  sample.name = "CUDA graph: " + Plural(graph.kernels.size(), "kernel node") + " (" + names + ")";
  if (graph.other_work_nodes > 0) sample.name += " + " + Plural(graph.other_work_nodes, "other node");
  return sample;
}

bool ChooseGraphLaunch(const GraphDescription& graph, const std::function<bool(const std::string&)>& choose) {
  if (!graph.nodes_known) return choose(GraphLaunchSample(graph).name);
  bool chosen = false;
  for (const KernelLaunch& node : graph.kernels) chosen = choose(node.name) || chosen;
  return chosen;
}

bool CountedInsideGraphs(std::string_view metric) { return metric.find("__sass_") == std::string_view::npos; }

}  // namespace opengpa::inject_cuda
