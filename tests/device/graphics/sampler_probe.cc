// A probe of PerfWorks' GPU periodic sampler under graphics work on an NVIDIA GPU, through OpenGPA's own
// PerfWorks layer (src/nvidia/perfworks_*): what engine triggers recorded in a Vulkan command buffer delimit
// (inside a render pass, after draws, after dispatches with and without a barrier or a bottom-of-pipe
// timestamp), whether the sampler's sample times and Vulkan timestamps share a clock, and what CPU triggers
// after glFinish delimit on an EGL context. Each line prints the counter beside the work's own truth.
// The answers decided how the Vulkan and OpenGL backends delimit samples (docs/graphics-counters.md).
#include <vulkan/vulkan.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "gl_workloads.h"
#include "gpu_objects.h"
#include "headless_gl.h"
#include "nvidia/perfworks_graphics_device.h"
#include "nvidia/perfworks_metrics.h"
#include "nvidia/perfworks_sampler.h"
#include "vulkan_device.h"

namespace pw = opengpa::nvidia::perfworks;
using opengpa::vkwork::VulkanDevice;

namespace {

constexpr std::uint32_t kSize = 1024;  // render target is kSize x kSize

struct Probe {
  const pw::PerfWorksLibrary* library = nullptr;
  std::unique_ptr<pw::ChipMetrics> metrics;
  std::size_t device = 0;
};

// Samples `metrics` over what `record` puts between triggers; prints every sample.
void RunSampled(Probe& probe, const char* title, const std::vector<std::string>& metrics,
                const std::vector<std::uint32_t>& triggers, const std::function<void(pw::PeriodicSampler&)>& work) {
  std::printf("== %s\n", title);
  std::vector<pw::PassConfig> passes;
  if (probe.metrics->PlanPasses(metrics, &passes) != kGpaStatusOk) {
    std::printf("   plan failed\n");
    return;
  }
  std::printf("   %zu metric(s) in %zu pass(es)\n", metrics.size(), passes.size());
  for (const pw::PassConfig& pass : passes) {
    std::unique_ptr<pw::PeriodicSampler> sampler;
    if (pw::PeriodicSampler::Begin(*probe.library, probe.device, triggers, 0, {pass}, 4096, &sampler) != kGpaStatusOk) {
      std::printf("   begin failed\n");
      return;
    }
    if (sampler->Start(pass) != kGpaStatusOk) return;
    work(*sampler);
    pw::DecodedSamples decoded;
    if (sampler->Stop(&decoded) != kGpaStatusOk) return;
    std::printf("   samples %zu dropped %zu merged %zu overflow %d\n", decoded.samples, decoded.dropped, decoded.merged,
                decoded.overflow);
    probe.metrics->UseDeviceOf(decoded.counter_data);
    std::vector<std::string> names;
    for (std::size_t m : pass.metrics) names.push_back(metrics[m]);
    for (std::size_t s = 0; s < decoded.samples; ++s) {
      std::vector<double> values;
      if (probe.metrics->Evaluate(names, decoded.counter_data, s, &values) != kGpaStatusOk) continue;
      std::printf("   [%2zu] t=%llu..%llu (%llu ns)", s, static_cast<unsigned long long>(decoded.start_ns[s]),
                  static_cast<unsigned long long>(decoded.end_ns[s]),
                  static_cast<unsigned long long>(decoded.end_ns[s] - decoded.start_ns[s]));
      for (std::size_t i = 0; i < names.size(); ++i) std::printf(" %s=%.0f", names[i].c_str(), values[i]);
      std::printf("\n");
    }
  }
}

void FullBarrier(VkCommandBuffer cb) {
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_MEMORY_WRITE_BIT,
                          VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT};
  vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 1, &barrier, 0,
                       nullptr, 0, nullptr);
}

struct Buffer {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
};

Buffer MakeBuffer(VulkanDevice& device, VkDeviceSize size, VkBufferUsageFlags usage, VkMemoryPropertyFlags flags) {
  Buffer b;
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = size;
  info.usage = usage;
  vkCreateBuffer(device.device(), &info, nullptr, &b.buffer);
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(device.device(), b.buffer, &req);
  VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  alloc.allocationSize = req.size;
  alloc.memoryTypeIndex = device.FindMemoryType(req.memoryTypeBits, flags);
  vkAllocateMemory(device.device(), &alloc, nullptr, &b.memory);
  vkBindBufferMemory(device.device(), b.buffer, b.memory, 0);
  return b;
}

int VulkanProbe() {
  std::string error;
  auto device = VulkanDevice::Create(opengpa::vkwork::DevicePreference::kFastest, &error);
  if (!device) {
    std::printf("no Vulkan device: %s\n", error.c_str());
    return 1;
  }
  std::printf("Vulkan device: %s\n", device->properties().deviceName);
  Probe probe;
  probe.library = pw::PerfWorksLibrary::Get(&error);
  if (!probe.library) {
    std::printf("PerfWorks: %s\n", error.c_str());
    return 1;
  }
  pw::VulkanDeviceHandles handles{device->instance(), device->physical_device(), device->device(),
                                  reinterpret_cast<void*>(&vkGetInstanceProcAddr),
                                  reinterpret_cast<void*>(&vkGetDeviceProcAddr)};
  if (!pw::VulkanDeviceIndex(*probe.library, handles, &probe.device, &error)) {
    std::printf("device index: %s\n", error.c_str());
    return 1;
  }
  pw::SamplerSupport support = pw::QuerySamplerSupport(*probe.library, probe.device);
  std::printf("PerfWorks device %zu: %s (%s), supported %d, triggers", probe.device, support.device_name.c_str(),
              support.chip.c_str(), support.supported);
  for (auto t : support.trigger_sources) std::printf(" %u", t);
  std::printf(", availability %zu bytes %s\n", support.availability.size(), support.why.c_str());
  probe.metrics = pw::ChipMetrics::Create(*probe.library, support.chip, support.availability, &error);
  if (!probe.metrics) {
    std::printf("metrics: %s\n", error.c_str());
    return 1;
  }

  auto target = opengpa::vkwork::RenderTarget::Create(*device, kSize, kSize, &error);
  auto full = opengpa::vkwork::GraphicsPipeline::Create(*device, *target,
                                                        opengpa::vkwork::Geometry::kFullScreenTriangle, &error);
  auto grid =
      opengpa::vkwork::GraphicsPipeline::Create(*device, *target, opengpa::vkwork::Geometry::kGridTriangles, &error);
  auto compute = opengpa::vkwork::CountingCompute::Create(*device, 64, &error);
  if (!target || !full || !grid || !compute) {
    std::printf("workload: %s\n", error.c_str());
    return 1;
  }
  const float color[4] = {0.2f, 0.4f, 0.6f, 1.0f};
  const std::vector<std::uint32_t> engine{pw::kTriggerEngine};
  auto trigger = [&](VkCommandBuffer cb) {
    pw::Status s = pw::InsertVulkanTrigger(*probe.library, probe.device, cb);
    if (s != pw::kSuccess) std::printf("   trigger failed: %s\n", pw::StatusName(s).c_str());
  };

  // Timestamps beside each trigger, to compare the sampler's clock with Vulkan's.
  VkQueryPoolCreateInfo qinfo{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  qinfo.queryType = VK_QUERY_TYPE_TIMESTAMP;
  qinfo.queryCount = 256;
  VkQueryPool pool;
  vkCreateQueryPool(device->device(), &qinfo, nullptr, &pool);
  std::uint32_t next_query = 0;
  auto stamp = [&](VkCommandBuffer cb) {
    vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, next_query++);
  };
  auto print_stamps = [&]() {
    std::vector<std::uint64_t> t(next_query);
    vkGetQueryPoolResults(device->device(), pool, 0, next_query, t.size() * 8, t.data(), 8,
                          VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
    std::printf("   vulkan timestamps (period %.3f ns):", device->properties().limits.timestampPeriod);
    for (auto v : t) std::printf(" %llu", static_cast<unsigned long long>(v));
    std::printf("\n");
  };

  VkCommandBufferUsageFlags usage = 0;
  auto run = [&](const std::function<void(VkCommandBuffer)>& record) {
    VkCommandBuffer cb = device->AllocateCommandBuffer(VK_COMMAND_BUFFER_LEVEL_PRIMARY);
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = usage;
    vkBeginCommandBuffer(cb, &begin);
    vkCmdResetQueryPool(cb, pool, 0, 256);
    next_query = 0;
    record(cb);
    vkEndCommandBuffer(cb);
    device->SubmitAndWait({cb});
  };

  const std::uint64_t pixels = std::uint64_t{kSize} * kSize;
  std::printf(
      "truth: full-screen %llu pixels; scissored quarter %llu; grid 10000 triangles = 30000 vertices; "
      "dispatch 4096 x 64 = 262144 threads, 8192 warps\n",
      static_cast<unsigned long long>(pixels), static_cast<unsigned long long>(pixels / 4));
  // 1. Pixel shading and compute, triggers inside and outside a render pass.
  RunSampled(probe,
             "A: PS and CS threads; triggers: rp{T full T quarter T grid T} dispatch T dispatch barrier T "
             "dispatch timestamp T",
             {"sm__threads_launched_shader_ps_killmask_off.sum", "sm__threads_launched_shader_cs.sum",
              "sm__warps_launched_shader_cs.sum", "gpu__time_duration.sum"},
             engine, [&](pw::PeriodicSampler&) {
               run([&](VkCommandBuffer cb) {
                 stamp(cb);
                 trigger(cb);
                 target->Begin(cb, VK_SUBPASS_CONTENTS_INLINE);
                 stamp(cb);
                 trigger(cb);
                 full->Draw(cb, 3, 1, color);
                 stamp(cb);
                 trigger(cb);
                 VkRect2D quarter{{0, 0}, {kSize / 2, kSize / 2}};
                 full->Draw(cb, 3, 1, color, UINT32_MAX, &quarter);
                 target->SetViewport(cb);
                 stamp(cb);
                 trigger(cb);
                 grid->Draw(cb, 30000, 1, color);
                 stamp(cb);
                 trigger(cb);
                 target->End(cb);
                 compute->Dispatch(cb, 4096, 1, 1, 2000);
                 trigger(cb);
                 compute->Dispatch(cb, 4096, 1, 1, 2000);
                 FullBarrier(cb);
                 trigger(cb);
                 compute->Dispatch(cb, 4096, 1, 1, 2000);
                 stamp(cb);
                 trigger(cb);
                 stamp(cb);
               });
               print_stamps();
             });
  // 2. Vertex shading: non-indexed, instanced.
  RunSampled(probe, "B: VS threads; rp{T grid 30000 T instanced 6x100 T grid 30000 + outside T}",
             {"sm__threads_launched_shader_vs.sum", "sm__warps_launched_shader_vs.sum", "gpu__time_duration.sum"},
             engine, [&](pw::PeriodicSampler&) {
               run([&](VkCommandBuffer cb) {
                 target->Begin(cb, VK_SUBPASS_CONTENTS_INLINE);
                 trigger(cb);
                 grid->Draw(cb, 30000, 1, color);
                 trigger(cb);
                 grid->Draw(cb, 6, 100, color);
                 trigger(cb);
                 grid->Draw(cb, 30000, 1, color, 5000);
                 trigger(cb);
                 target->End(cb);
               });
             });
  // 3. A 256 MiB buffer copy's DRAM bytes.
  const VkDeviceSize copy_bytes = 256ull << 20;
  Buffer src = MakeBuffer(*device, copy_bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                          VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  Buffer dst = MakeBuffer(*device, copy_bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  std::printf("truth: copy %llu bytes\n", static_cast<unsigned long long>(copy_bytes));
  RunSampled(probe, "C: DRAM bytes; fill T barrier T copy barrier T",
             {"dram__bytes_read.sum", "dram__bytes_write.sum", "gpu__time_duration.sum"}, engine,
             [&](pw::PeriodicSampler&) {
               run([&](VkCommandBuffer cb) {
                 vkCmdFillBuffer(cb, src.buffer, 0, VK_WHOLE_SIZE, 0x3f800000u);
                 trigger(cb);
                 FullBarrier(cb);
                 trigger(cb);
                 VkBufferCopy region{0, 0, copy_bytes};
                 vkCmdCopyBuffer(cb, src.buffer, dst.buffer, 1, &region);
                 FullBarrier(cb);
                 trigger(cb);
               });
             });
  // 5. Which commands around a trigger make it close the interval after the draws before it: GPA's pattern (a
  // top- and a bottom-of-pipe timestamp before the begin trigger, a bottom-of-pipe one before the end trigger), the
  // same without the top one, triggers before the timestamps, and a trigger on both sides of each timestamp.
  if (std::getenv("OPENGPA_PROBE_VARIANTS") != nullptr) {
    const char* variants[] = {"E1 GPA pattern: TOP BOTTOM T draw BOTTOM T", "E2 BOTTOM T draw BOTTOM T",
                              "E3 T TOP BOTTOM draw T BOTTOM", "E4 T TOP BOTTOM T draw T BOTTOM T"};
    for (int variant = 0; variant < 4; ++variant) {
      RunSampled(probe, variants[variant], {"sm__threads_launched_shader_vs.sum", "sm__threads_launched_shader_cs.sum"},
                 engine, [&](pw::PeriodicSampler&) {
                   run([&](VkCommandBuffer cb) {
                     auto top = [&] { vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, pool, next_query++); };
                     auto begin = [&] {
                       if (variant == 0) {
                         top();
                         stamp(cb);
                         trigger(cb);
                       }
                       if (variant == 1) {
                         stamp(cb);
                         trigger(cb);
                       }
                       if (variant == 2) {
                         trigger(cb);
                         top();
                         stamp(cb);
                       }
                       if (variant == 3) {
                         trigger(cb);
                         top();
                         stamp(cb);
                         trigger(cb);
                       }
                     };
                     auto end = [&] {
                       if (variant == 0 || variant == 1) {
                         stamp(cb);
                         trigger(cb);
                       }
                       if (variant == 2) {
                         trigger(cb);
                         stamp(cb);
                       }
                       if (variant == 3) {
                         trigger(cb);
                         stamp(cb);
                         trigger(cb);
                       }
                     };
                     target->Begin(cb, VK_SUBPASS_CONTENTS_INLINE);
                     begin();
                     grid->Draw(cb, 30000, 1, color);
                     end();
                     begin();
                     grid->Draw(cb, 30000, 1, color, 5000);
                     end();
                     begin();
                     grid->Draw(cb, 6, 100, color);
                     end();
                     target->End(cb);
                     begin();
                     compute->Dispatch(cb, 4096, 1, 1, 2000);
                     end();
                     begin();
                     compute->Dispatch(cb, 1024, 1, 1, 2000);
                     end();
                   });
                 });
    }
  }
  // 6. The same pattern on a target with depth: full screen, the same again (depth-rejected), a grid, a scissored
  // full screen in a new render pass.
  {
    auto depth_target = opengpa::vkwork::RenderTarget::Create(*device, kSize, kSize, &error, true);
    auto depth_full = opengpa::vkwork::GraphicsPipeline::Create(*device, *depth_target,
                                                                opengpa::vkwork::Geometry::kFullScreenTriangle, &error);
    auto depth_grid = opengpa::vkwork::GraphicsPipeline::Create(*device, *depth_target,
                                                                opengpa::vkwork::Geometry::kGridTriangles, &error);
    for (int triggers_only = 0; triggers_only < 3; ++triggers_only) {
      usage = triggers_only == 2 ? VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT : 0;
      RunSampled(probe,
                 triggers_only == 1   ? "E6 depth target, triggers only"
                 : triggers_only == 2 ? "E7 depth target, GPA pattern, one-time submit"
                                      : "E5 depth target, GPA pattern",
                 {"sm__threads_launched_shader_vs.sum", "sm__threads_launched_shader_ps_killmask_off.sum"}, engine,
                 [&](pw::PeriodicSampler&) {
                   run([&](VkCommandBuffer cb) {
                     auto top = [&] { vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, pool, next_query++); };
                     auto begin = [&] {
                       if (triggers_only != 1) {
                         top();
                         stamp(cb);
                       }
                       trigger(cb);
                     };
                     auto end = [&] {
                       if (triggers_only != 1) stamp(cb);
                       trigger(cb);
                     };
                     const VkRect2D part{{10, 20}, {100, 60}};
                     depth_target->Begin(cb, VK_SUBPASS_CONTENTS_INLINE);
                     begin();
                     depth_full->Draw(cb, 3, 1, color);
                     end();
                     begin();
                     depth_full->Draw(cb, 3, 1, color);
                     end();
                     begin();
                     depth_grid->Draw(cb, 30000, 1, color, 5000);
                     end();
                     depth_target->End(cb);
                     depth_target->Begin(cb, VK_SUBPASS_CONTENTS_INLINE);
                     begin();
                     depth_full->Draw(cb, 3, 1, color, UINT32_MAX, &part);
                     end();
                     depth_target->End(cb);
                     stamp(cb);
                   });
                 });
    }
    usage = 0;
    // E8: the GPA Vulkan test's own workload on a 512 x 384 depth target, in GPA's pattern.
    auto small_target = opengpa::vkwork::RenderTarget::Create(*device, 512, 384, &error, true);
    auto small_grid = opengpa::vkwork::GraphicsPipeline::Create(*device, *small_target,
                                                                opengpa::vkwork::Geometry::kGridTriangles, &error);
    RunSampled(probe, "E8 512x384 depth target, GPA pattern: grid, grid (5000 outside), 6 x 100 instances",
               {"sm__threads_launched_shader_vs.sum"}, engine, [&](pw::PeriodicSampler&) {
                 run([&](VkCommandBuffer cb) {
                   auto top = [&] { vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, pool, next_query++); };
                   auto begin = [&] {
                     top();
                     stamp(cb);
                     trigger(cb);
                   };
                   auto end = [&] {
                     stamp(cb);
                     trigger(cb);
                   };
                   small_target->Begin(cb, VK_SUBPASS_CONTENTS_INLINE);
                   begin();
                   small_grid->Draw(cb, 30000, 1, color);
                   end();
                   begin();
                   small_grid->Draw(cb, 30000, 1, color, 5000);
                   end();
                   begin();
                   small_grid->Draw(cb, 6, 100, color);
                   end();
                   small_target->End(cb);
                   stamp(cb);
                 });
                 print_stamps();
               });
  }
  // 4. Which pixel counters exist and agree.
  RunSampled(probe, "D: PS counters; rp{T full T}",
             {"sm__threads_launched_shader_ps_killmask_off.sum", "tpc__quads_launched_shader_ps.sum",
              "sm__warps_launched_shader_ps.sum", "smsp__inst_executed_shader_ps.sum",
              "sm__cycles_active_shader_ps.sum", "gr__cycles_active.avg", "gr__cycles_elapsed.avg",
              "raster__cycles_active.avg", "lts__t_sector_hit_rate.pct", "l1tex__t_sector_hit_rate.pct"},
             engine, [&](pw::PeriodicSampler&) {
               run([&](VkCommandBuffer cb) {
                 target->Begin(cb, VK_SUBPASS_CONTENTS_INLINE);
                 trigger(cb);
                 full->Draw(cb, 3, 1, color);
                 trigger(cb);
                 target->End(cb);
               });
             });
  return 0;
}

int GlProbe() {
  std::string error;
  auto gl = opengpa::glwork::HeadlessGl::Create(kSize, kSize, &error);
  if (!gl || !gl->MakeCurrent()) {
    std::printf("no GL context: %s\n", error.c_str());
    return 1;
  }
  std::printf("GL renderer: %s\n", gl->renderer().c_str());
  opengpa::glwork::GlWorkloads work;
  if (!work.Build(&error)) {
    std::printf("GL workloads: %s\n", error.c_str());
    return 1;
  }
  Probe probe;
  probe.library = pw::PerfWorksLibrary::Get(&error);
  if (!probe.library || !pw::CurrentEglDeviceIndex(*probe.library, &probe.device, &error)) {
    std::printf("EGL device index: %s\n", error.c_str());
    return 1;
  }
  pw::SamplerSupport support = pw::QuerySamplerSupport(*probe.library, probe.device);
  probe.metrics = pw::ChipMetrics::Create(*probe.library, support.chip, support.availability, &error);
  if (!probe.metrics) return 1;
  const std::vector<std::uint32_t> cpu{pw::kTriggerCpu};
  std::printf(
      "truth: full-screen %u pixels; 1000 small triangles = 3000 vertices; dispatch 64x64 groups of 32 = "
      "131072 threads\n",
      kSize * kSize);
  auto cpu_trigger = [](pw::PeriodicSampler& s) {
    glFinish();
    s.CpuTrigger();
  };
  RunSampled(probe, "G1: GL PS counters; T full T full(depth test on, same depth: rejected) T",
             {"sm__threads_launched_shader_ps_killmask_off.sum", "tpc__quads_launched_shader_ps.sum",
              "sm__warps_launched_shader_ps.sum", "smsp__inst_executed_shader_ps.sum", "sm__threads_launched.sum",
              "sm__warps_launched.sum", "smsp__inst_executed.sum", "sm__threads_launched_shader_cs.sum",
              "sm__threads_launched_shader_vs.sum", "raster__cycles_active.sum", "crop__cycles_active.sum",
              "zrop__cycles_active.sum", "tpc__cycles_active_shader_3d.sum", "gr__ctas_launched.sum"},
             cpu, [&](pw::PeriodicSampler& s) {
               cpu_trigger(s);
               work.DrawFullScreenTriangle();
               cpu_trigger(s);
               glClear(GL_DEPTH_BUFFER_BIT);
               glEnable(GL_DEPTH_TEST);
               glDepthFunc(GL_LESS);
               work.DrawFullScreenTriangle();
               work.DrawFullScreenTriangle();
               glDisable(GL_DEPTH_TEST);
               cpu_trigger(s);
             });
  RunSampled(probe, "G3: GL PS counters of a fragment shader that loops; T heavy full T",
             {"sm__threads_launched_shader_ps_killmask_off.sum", "sm__warps_launched_shader_ps.sum",
              "smsp__inst_executed_shader_ps.sum", "sm__threads_launched.sum"},
             cpu, [&](pw::PeriodicSampler& s) {
               cpu_trigger(s);
               work.DrawHeavyFullScreenTriangle(64);
               cpu_trigger(s);
             });
  RunSampled(probe, "G2: GL VS and CS; T triangles T dispatch T",
             {"sm__threads_launched_shader_vs.sum", "sm__threads_launched_shader_cs.sum"}, cpu,
             [&](pw::PeriodicSampler& s) {
               cpu_trigger(s);
               work.DrawSmallTriangles(1000);
               cpu_trigger(s);
               work.Dispatch(64, 64, 1);
               cpu_trigger(s);
             });
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string which = argc > 1 ? argv[1] : "all";
  int status = 0;
  if (which == "all" || which == "vk") status |= VulkanProbe();
  if (which == "all" || which == "gl") status |= GlProbe();
  return status;
}
