// The order in which `opengpa profile` expects a CUDA graph launch to run its kernel nodes (one sample
// each, matched to CUPTI's ranges in that order): dependencies first, ties by the driver's node order.
#include "profiler/graph_kernels.h"

#include <gtest/gtest.h>

namespace opengpa::inject_cuda {
namespace {

using Order = std::vector<std::size_t>;

TEST(GraphKernelsTest, AChainRunsInItsEdgesOrderWhateverTheNodeListOrder) {
  // Listed 0,1,2 but linked 2 -> 0 -> 1.
  EXPECT_EQ(TopologicalOrder(3, {{2, 0}, {0, 1}}), (Order{2, 0, 1}));
}

TEST(GraphKernelsTest, ParallelBranchesAreTakenInNodeOrderAfterTheirCommonParent) {
  // 0 forks into 1 and 2, which join in 3.
  EXPECT_EQ(TopologicalOrder(4, {{0, 2}, {0, 1}, {1, 3}, {2, 3}}), (Order{0, 1, 2, 3}));
}

TEST(GraphKernelsTest, NodesWithoutEdgesKeepTheirOrderAndACycleNeverLosesANode) {
  EXPECT_EQ(TopologicalOrder(3, {}), (Order{0, 1, 2}));
  EXPECT_EQ(TopologicalOrder(3, {{1, 2}, {2, 1}}), (Order{0, 1, 2}));
  EXPECT_EQ(TopologicalOrder(2, {{0, 5}}), (Order{0, 1}));  // an edge to no listed node is ignored
}

TEST(GraphKernelsTest, AKernelWithoutANameIsNamedSo) {
  EXPECT_EQ(Demangle(nullptr), "<unnamed kernel>");
  EXPECT_EQ(Demangle("_Z9graph_addPKfS0_Pfi"), "graph_add(float const*, float const*, float*, int)");
}

}  // namespace
}  // namespace opengpa::inject_cuda
