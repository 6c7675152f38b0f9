// What a CUDA graph launch becomes in `opengpa profile` (graph_sampling.h): the sample of its one kernel
// node when that is all the graph runs, else one sample of the whole launch named after its kernel nodes.
#include "profiler/graph_sampling.h"

#include <gtest/gtest.h>

namespace opengpa::inject_cuda {
namespace {

KernelLaunch Node(const std::string& name, std::uint64_t grid, std::uint64_t block) {
  KernelLaunch node;
  node.name = name;
  node.grid = {grid, 1, 1};
  node.block = {block, 1, 1};
  node.dimensions_known = true;
  return node;
}

// A graph of these kernel nodes and `other` nodes with other GPU work, its nodes read at instantiation.
GraphDescription Described(std::uint32_t id, std::vector<KernelLaunch> kernels, std::size_t other) {
  GraphDescription graph;
  graph.id = id;
  graph.kernels = std::move(kernels);
  graph.other_work_nodes = other;
  return graph;
}

TEST(GraphSamplingTest, AGraphOfOneKernelAndNothingElseIsThatKernelsSample) {
  const GraphDescription graph = Described(7, {Node("gemm(float*)", 132, 256)}, 0);
  const KernelLaunch sample = GraphLaunchSample(graph);
  EXPECT_EQ(sample.name, "gemm(float*)");
  EXPECT_EQ(sample.grid[0], 132u);
  EXPECT_EQ(sample.block[0], 256u);
  EXPECT_EQ(sample.graph, 7u);
  EXPECT_EQ(sample.graph_node, 0u);
}

TEST(GraphSamplingTest, AGraphWithOtherWorkIsOneSampleOfTheWholeLaunchNamedAfterItsKernels) {
  const GraphDescription graph = Described(3, {Node("a()", 1, 32), Node("b()", 2, 64), Node("c()", 3, 96)}, 2);
  const KernelLaunch sample = GraphLaunchSample(graph);
  EXPECT_EQ(sample.name, "CUDA graph: 3 kernel nodes (a(); b(); c()) + 2 other nodes");
  EXPECT_EQ(sample.grid, (std::array<std::uint64_t, 3>{0, 0, 0}));  // no one kernel's shape
  EXPECT_EQ(sample.block, (std::array<std::uint64_t, 3>{0, 0, 0}));
  EXPECT_EQ(sample.graph, 3u);
  EXPECT_FALSE(sample.graph_node.has_value());
  // One kernel beside a memset is not that kernel alone: its counters would hold the memset's too.
  EXPECT_EQ(GraphLaunchSample(Described(4, {Node("a()", 1, 32)}, 1)).name,
            "CUDA graph: 1 kernel node (a()) + 1 other node");
}

TEST(GraphSamplingTest, ALongGraphNamesItsFirstFourKernels) {
  GraphDescription graph = Described(1, {}, 0);
  for (const char* name : {"k0()", "k1()", "k2()", "k3()", "k4()", "k5()"}) graph.kernels.push_back(Node(name, 1, 1));
  EXPECT_EQ(GraphLaunchSample(graph).name, "CUDA graph: 6 kernel nodes (k0(); k1(); k2(); k3(); ...)");
}

TEST(GraphSamplingTest, TheFilterIsAskedAboutEveryKernelNodeInOrderAndAnyChoiceSamplesTheLaunch) {
  const GraphDescription graph = Described(1, {Node("a()", 1, 1), Node("b()", 1, 1), Node("c()", 1, 1)}, 0);
  std::vector<std::string> asked;
  EXPECT_TRUE(ChooseGraphLaunch(graph, [&asked](const std::string& name) {
    asked.push_back(name);
    return name == "b()";
  }));
  EXPECT_EQ(asked, (std::vector<std::string>{"a()", "b()", "c()"}));  // --launch-count counts every node
  EXPECT_FALSE(ChooseGraphLaunch(graph, [](const std::string&) { return false; }));
  EXPECT_FALSE(
      ChooseGraphLaunch(Described(1, {}, 2), [](const std::string&) { return true; }));  // no kernel: no sample
}

TEST(GraphSamplingTest, AGraphInstantiatedBeforeProfilingIsAWholeGraphSampleSayingSoAndOneLaunch) {
  GraphDescription graph;
  graph.id = 9;
  graph.nodes_known = false;
  const KernelLaunch sample = GraphLaunchSample(graph);
  EXPECT_EQ(sample.name, "CUDA graph: nodes not known (instantiated before profiling began)");
  EXPECT_EQ(sample.graph, 9u);
  EXPECT_EQ(GraphLaunchCount(graph), 1u);
  std::vector<std::string> asked;
  EXPECT_TRUE(ChooseGraphLaunch(graph, [&asked](const std::string& name) {
    asked.push_back(name);
    return true;
  }));
  EXPECT_EQ(asked, std::vector<std::string>{sample.name});  // --kernel-name can pick it by that name
  EXPECT_EQ(GraphLaunchCount(Described(1, {Node("a()", 1, 1), Node("b()", 1, 1)}, 1)),
            2u);  // one index per kernel node
}

TEST(GraphSamplingTest, SassInstrumentedMetricsAreTheOnesNotCountedInsideGraphs) {
  EXPECT_FALSE(CountedInsideGraphs("smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"));
  EXPECT_FALSE(CountedInsideGraphs("sm__sass_inst_executed_op_global_ld.sum"));
  EXPECT_TRUE(CountedInsideGraphs("smsp__inst_executed.sum"));
  EXPECT_TRUE(CountedInsideGraphs("sm__ops_path_tensor_src_bf16_dst_fp32.sum"));  // 2*M*N*K in a graph on the H100
  EXPECT_TRUE(CountedInsideGraphs("dram__bytes_read.sum"));
}

}  // namespace
}  // namespace opengpa::inject_cuda
