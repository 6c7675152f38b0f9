// When a driver takes the value of a timestamp written before a dispatch: the experiment behind issue 28's
// "lavapipe reads GPUTime 4000x shorter on the core path than through the layer" (docs/graphics-counters.md).
// One command buffer: top-of-pipe timestamp, bottom-of-pipe timestamp, a long dispatch, bottom-of-pipe timestamp;
// then the same with a pipeline barrier between the "before" timestamps and the dispatch. Prints the three gaps
// and the host's time from submission to the fence. A driver that takes a bottom-of-pipe timestamp's value when the
// work before it is done reads "before -> after" close to the dispatch's host time; one that takes it later (at its
// next flush) reads it near 0 and "top -> bottom before" near the dispatch's time.
#include <cstdio>
#include <string>

#include "gpu_objects.h"
#include "vulkan_device.h"

namespace {

using namespace opengpa::vkwork;

struct Gaps {
  double top_to_bottom_before_us = 0;
  double bottom_before_to_after_us = 0;
  double host_us = 0;
};

// How the "before" timestamps are followed: nothing, a pipeline barrier, or a pipeline-statistics query begun
// around the dispatch (as the core path's samples count statistics).
enum class Between { kNothing, kBarrier, kStatisticsQuery, kAfterRenderPass };

// A render pass of full-screen draws recorded before the timestamps (kAfterRenderPass): a software rasterizer bins
// draws while it walks the command buffer and rasterizes them at its next flush.
struct Scene {
  const RenderTarget* target = nullptr;
  const GraphicsPipeline* fullscreen = nullptr;
};

Gaps Measure(VulkanDevice& device, const CountingCompute& compute, const Scene& scene, VkQueryPool pool,
             VkQueryPool statistics, Between between) {
  VkCommandBuffer cb = device.AllocateCommandBuffer(VK_COMMAND_BUFFER_LEVEL_PRIMARY);
  VkCommandBufferBeginInfo begin{};
  begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  vkBeginCommandBuffer(cb, &begin);
  vkCmdResetQueryPool(cb, pool, 0, 3);
  if (between == Between::kAfterRenderPass) {
    const float color[4] = {0.2f, 0.4f, 1.0f, 1.0f};
    scene.target->Begin(cb, VK_SUBPASS_CONTENTS_INLINE);
    for (int i = 0; i < 200; ++i) scene.fullscreen->Draw(cb, 3, 1, color);
    scene.target->End(cb);
  }
  vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, pool, 0);
  vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, 1);
  if (between == Between::kStatisticsQuery) vkCmdResetQueryPool(cb, statistics, 0, 1);
  if (between == Between::kBarrier) {
    VkMemoryBarrier all{};
    all.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
    all.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT;
    all.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 1, &all, 0,
                         nullptr, 0, nullptr);
  }
  if (between == Between::kStatisticsQuery) vkCmdBeginQuery(cb, statistics, 0, 0);
  compute.Dispatch(cb, 256, 1, 1, between == Between::kAfterRenderPass ? 10 : 20000);
  if (between == Between::kStatisticsQuery) vkCmdEndQuery(cb, statistics, 0);
  vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, 2);
  vkEndCommandBuffer(cb);
  Gaps gaps;
  gaps.host_us = device.SubmitAndWait({cb}) / 1000.0;
  std::uint64_t t[3] = {0, 0, 0};
  vkGetQueryPoolResults(device.device(), pool, 0, 3, sizeof(t), t, 8,
                        VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
  const double period = device.properties().limits.timestampPeriod / 1000.0;
  gaps.top_to_bottom_before_us = static_cast<double>(t[1] - t[0]) * period;
  gaps.bottom_before_to_after_us = static_cast<double>(t[2] - t[1]) * period;
  return gaps;
}

}  // namespace

int main() {
  std::string error;
  auto device = VulkanDevice::Create(DevicePreference::kFastest, &error);
  if (!device) return std::printf("no Vulkan device: %s\n", error.c_str()), 1;
  auto compute = CountingCompute::Create(*device, 64, &error);
  auto target = compute ? RenderTarget::Create(*device, 1024, 768, &error, true) : nullptr;
  auto fullscreen =
      target ? GraphicsPipeline::Create(*device, *target, Geometry::kFullScreenTriangle, &error) : nullptr;
  if (!fullscreen) return std::printf("workload: %s\n", error.c_str()), 1;
  const Scene scene{target.get(), fullscreen.get()};
  VkQueryPoolCreateInfo pool_info{};
  pool_info.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
  pool_info.queryType = VK_QUERY_TYPE_TIMESTAMP;
  pool_info.queryCount = 3;
  VkQueryPool pool = VK_NULL_HANDLE;
  vkCreateQueryPool(device->device(), &pool_info, nullptr, &pool);
  VkQueryPoolCreateInfo statistics_info{};
  statistics_info.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
  statistics_info.queryType = VK_QUERY_TYPE_PIPELINE_STATISTICS;
  statistics_info.queryCount = 1;
  statistics_info.pipelineStatistics = VK_QUERY_PIPELINE_STATISTIC_COMPUTE_SHADER_INVOCATIONS_BIT;
  VkQueryPool statistics = VK_NULL_HANDLE;
  vkCreateQueryPool(device->device(), &statistics_info, nullptr, &statistics);
  std::printf("%s: a dispatch of 256 x 64 threads x 20000 iterations (10 after the draws) between timestamps\n",
              device->properties().deviceName);
  std::printf("%-44s %16s %16s %12s\n", "", "top->bottom(us)", "before->after", "host (us)");
  const struct {
    Between between;
    const char* name;
  } modes[] = {{Between::kNothing, "timestamps, dispatch, timestamp"},
               {Between::kBarrier, "... a barrier after the 'before' stamps"},
               {Between::kStatisticsQuery, "... a statistics query around the dispatch"},
               {Between::kAfterRenderPass, "200 full-screen draws, then a short dispatch"}};
  for (int run = 0; run < 3; ++run) {
    for (const auto& mode : modes) {
      const Gaps gaps = Measure(*device, *compute, scene, pool, statistics, mode.between);
      std::printf("%-44s %16.1f %16.1f %12.1f\n", mode.name, gaps.top_to_bottom_before_us,
                  gaps.bottom_before_to_after_us, gaps.host_us);
    }
  }
  vkDestroyQueryPool(device->device(), statistics, nullptr);
  vkDestroyQueryPool(device->device(), pool, nullptr);
  return 0;
}
