// The collective rule of `opengpa profile` (src/profiler/collective_kernels.h): which kernels wait for peers, which
// replay gives them a pass of their own, which metrics that pass measures and what the run says about it.
#include "profiler/collective_kernels.h"

#include <gtest/gtest.h>

namespace opengpa::profiling {
namespace {

TEST(CollectiveKernelsTest, NcclKernelsOfEveryNamingAreCollectivesAndOtherKernelsAreNot) {
  CollectiveKernels collectives;
  std::string error;
  ASSERT_TRUE(CollectiveKernels::Create("", &collectives, &error)) << error;
  // NCCL 2.19 and later, its debug build, and 2.18 and earlier.
  EXPECT_TRUE(collectives.Matches("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)"));
  EXPECT_TRUE(collectives.Matches("ncclDevKernelDebug_Broadcast_RING_LL(ncclDevKernelArgsStorage<4096ul>)"));
  EXPECT_TRUE(collectives.Matches("ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)"));
  EXPECT_TRUE(collectives.Matches("ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)"));
  EXPECT_FALSE(
      collectives.Matches("void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>>"));
  EXPECT_FALSE(collectives.Matches("my_ncclKernel_copy(float*)")) << "NCCL's names start with nccl";
  EXPECT_FALSE(collectives.Matches("void vllm::cross_device_reduce_1stage<float, 2>(float*)"));
}

TEST(CollectiveKernelsTest, TheUsersExpressionAddsKernelsBesideNcclsAndABadOneIsNamed) {
  CollectiveKernels collectives;
  std::string error;
  ASSERT_TRUE(CollectiveKernels::Create("cross_device_reduce|barrier_kernel", &collectives, &error)) << error;
  EXPECT_TRUE(collectives.Matches("void vllm::cross_device_reduce_1stage<float, 2>(float*)"));
  EXPECT_TRUE(collectives.Matches("void c10d::symmetric_memory::barrier_kernel(unsigned int**)"));
  EXPECT_TRUE(collectives.Matches("ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)"));
  EXPECT_FALSE(collectives.Matches("gemm_kernel"));
  EXPECT_FALSE(CollectiveKernels::Create("reduce(", &collectives, &error));
  EXPECT_NE(error.find("--collective-kernel 'reduce('"), std::string::npos) << error;
}

TEST(CollectiveKernelsTest, OnlyKernelReplayGivesCollectivesAPassOfTheirOwn) {
  EXPECT_TRUE(CollectivesNeedOwnPass(ReplayMode::kKernel));
  // none and application replay run each launch once in a run.
  EXPECT_FALSE(CollectivesNeedOwnPass(ReplayMode::kNone));
  EXPECT_FALSE(CollectivesNeedOwnPass(ReplayMode::kApplication));
}

TEST(CollectiveKernelsTest, TheOwnPassMeasuresTheGroupThatHoldsTheDuration) {
  const std::vector<std::vector<std::string>> groups = {{"dram__bytes_read.sum", "lts__t_sectors.sum"},
                                                        {"sm__inst_executed.sum", "gpu__time_duration.sum"}};
  EXPECT_EQ(CollectivePassGroup(groups, "gpu__time_duration.sum"), 1u);
  EXPECT_EQ(CollectivePassGroup(groups, "gpu__cycles_elapsed.max"), 0u) << "no group holds it: the first";
}

TEST(CollectiveKernelsTest, TheNoteNamesTheKernelTheMeasuredMetricsAndThoseLeftEmpty) {
  const std::string note =
      CollectivePassNote("ncclDevKernel_AllReduce_Sum_f32_RING_LL", {"gpu__time_duration.sum", "sm__inst_executed.sum"},
                         {"dram__bytes_read.sum"});
  EXPECT_NE(note.find("ncclDevKernel_AllReduce_Sum_f32_RING_LL"), std::string::npos) << note;
  EXPECT_NE(note.find("without replay"), std::string::npos) << note;
  EXPECT_NE(note.find("measured gpu__time_duration.sum, sm__inst_executed.sum"), std::string::npos) << note;
  EXPECT_NE(note.find("left empty (they need other passes): dram__bytes_read.sum"), std::string::npos) << note;
  EXPECT_EQ(CollectivePassNote("k", {"a"}, {}).find("left empty"), std::string::npos);
}

}  // namespace
}  // namespace opengpa::profiling
