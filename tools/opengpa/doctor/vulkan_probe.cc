// opengpa-doctor-vk: libGPUPerfAPIVK.so against the Vulkan workloads of samples/vulkan/workload on the fastest
// Vulkan device (OPENGPA_VK_DEVICE chooses another). Samples of one session:
//   0  a CountingCompute dispatch: CSThreads = groups x local size, exactly; the shader's own count agrees;
//      GPUTime > 0 and at most the host's wall time of the submission
//   1  the grid of M small triangles (not --quick): VSVerticesIn = 3M, exactly (a non-indexed draw reuses none)
//   2  the full-screen triangle on a 256 x 192 target (not --quick): PSPixelsIn = 256 x 192, exactly (each pixel
//      shaded once; lavapipe's 4 x 4 blocks divide the target, catalogs/vulkan.json)
#include <vulkan/vulkan.h>

#include <algorithm>
#include <string>

#include "gpa_sampling.h"
#include "gpu_objects.h"
#include "loaded_modules.h"
#include "probe_main.h"
#include "vulkan_device.h"

namespace opengpa::doctor {
namespace {

using vkwork::CountingCompute;
using vkwork::GraphicsPipeline;
using vkwork::RenderTarget;
using vkwork::VulkanDevice;

constexpr std::uint32_t kGroupsX = 16, kGroupsY = 8, kLocalSize = 64;
constexpr std::uint32_t kIterations = 2000;  // enough work for a timestamp pair to tell apart
constexpr std::uint32_t kTriangles = 1000;
constexpr std::uint32_t kWidth = 256, kHeight = 192;
constexpr float kColor[4] = {0.2f, 0.6f, 0.9f, 1.0f};

std::string VersionText(std::uint32_t version) {
  return std::to_string(VK_API_VERSION_MAJOR(version)) + "." + std::to_string(VK_API_VERSION_MINOR(version)) + "." +
         std::to_string(VK_API_VERSION_PATCH(version));
}

nlohmann::json DescribeDriver(const VulkanDevice& device) {
  VkPhysicalDeviceDriverProperties driver{};
  driver.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES;
  VkPhysicalDeviceProperties2 properties{};
  properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
  properties.pNext = &driver;
  vkGetPhysicalDeviceProperties2(device.physical_device(), &properties);
  return {{"device", device.properties().deviceName},
          {"device_type", vkwork::DeviceTypeName(device.properties().deviceType)},
          {"api_version", VersionText(device.properties().apiVersion)},
          {"name", driver.driverName},
          {"version", driver.driverInfo},
          {"libraries", LoadedModules({"libvulkan", "libGLX_nvidia", "libnvidia-", "libvulkan_", "libGPUPerfAPI"})}};
}

void RunVulkanProbe(const ProbeOptions& options, ProbeReport& report) {
  std::string error;
  const auto devices = VulkanDevice::ListDevices(&error);
  if (devices.empty()) {
    report.MarkAbsent(error.empty() ? "the Vulkan loader reports no device (no driver ICD installed)"
                                    : "no Vulkan driver: " + error);
    return;
  }
  // GPA first: GpaInitialize must precede the device it will sample.
  auto gpa = ProbeGpaLibrary::Load(kGpaApiVulkan, options.search, &report);
  if (!gpa) return;
  auto device = VulkanDevice::Create(vkwork::DevicePreference::kFastest, &error);
  if (!device) {
    report.AddCause({"device_not_created", "the Vulkan device could not be created: " + error,
                     "GPA needs pipelineStatisticsQuery, hostQueryReset and a graphics+compute queue "
                     "(gpu_perf_api_vk.h); check the driver with vulkaninfo, or pick another with OPENGPA_VK_DEVICE"});
    return;
  }
  report.SetDriver(DescribeDriver(*device));
  auto compute = CountingCompute::Create(*device, kLocalSize, &error);
  auto target = compute ? RenderTarget::Create(*device, kWidth, kHeight, &error) : nullptr;
  auto grid = target ? GraphicsPipeline::Create(*device, *target, vkwork::Geometry::kGridTriangles, &error) : nullptr;
  auto full =
      grid ? GraphicsPipeline::Create(*device, *target, vkwork::Geometry::kFullScreenTriangle, &error) : nullptr;
  if (!full) {
    report.AddCause({"workload_not_built", "the Vulkan workload could not be built: " + error,
                     "the driver refused a compute or graphics pipeline; check it with vulkaninfo"});
    return;
  }

  GpaVkContextOpenInfo open_info = device->OpenInfo();
  opengpa::Context context(gpa->Gpa(), &open_info);
  report.Driver()["gpa_device"] = context.DeviceName();
  std::vector<std::string> counters = {"CSThreads", "GPUTime"};
  if (!options.quick) counters.insert(counters.end(), {"VSVerticesIn", "PSPixelsIn"});
  if (const auto missing = MissingCounters(context, counters); !missing.empty()) {
    for (const auto& name : missing) {
      report.AddCause({"counter_not_offered", name + " is not offered on " + context.DeviceName(),
                       "the device lacks the query behind it (pipelineStatisticsQuery); `opengpa list --api vk` "
                       "shows what it offers"});
    }
    return;
  }
  const GpaUInt32 samples = options.quick ? 1 : 3;
  double longest_submit_ns = 0;
  std::uint32_t shader_count = 0;
  const auto values = CollectSamples(context, counters, samples, [&](opengpa::Session& session, GpaUInt32 pass) {
    VkCommandBuffer command_buffer = device->AllocateCommandBuffer(VK_COMMAND_BUFFER_LEVEL_PRIMARY);
    VkCommandBufferBeginInfo begin{};
    begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
    vkBeginCommandBuffer(command_buffer, &begin);
    opengpa::CommandList list(session, pass, command_buffer, kGpaCommandListPrimary);
    compute->ResetInvocations();
    list.BeginSample(0);
    compute->Dispatch(command_buffer, kGroupsX, kGroupsY, 1, kIterations);
    list.EndSample();
    compute->RecordHostReadBarrier(command_buffer);
    if (samples > 1) {
      target->Begin(command_buffer, VK_SUBPASS_CONTENTS_INLINE);
      list.BeginSample(1);
      grid->Draw(command_buffer, 3 * kTriangles, 1, kColor);
      list.EndSample();
      list.BeginSample(2);
      full->Draw(command_buffer, 3, 1, kColor);
      list.EndSample();
      target->End(command_buffer);
    }
    list.End();
    vkEndCommandBuffer(command_buffer);
    const double submit_ns = device->SubmitAndWait({command_buffer});
    if (submit_ns < 0) throw std::runtime_error("vkQueueSubmit or vkWaitForFences failed");
    longest_submit_ns = std::max(longest_submit_ns, submit_ns);
    shader_count = compute->Invocations();
  });

  const std::string dispatch = "dispatch " + std::to_string(kGroupsX) + "x" + std::to_string(kGroupsY) + "x1 of " +
                               std::to_string(kLocalSize) + " threads";
  const auto threads = static_cast<double>(kGroupsX * kGroupsY * kLocalSize);
  report.Compare({dispatch, "", "items", static_cast<double>(shader_count), threads, Tolerance::Exact(),
                  "invocations the shader counted itself (an atomic add each)"});
  report.Compare(
      {dispatch, "CSThreads", "items", values[0].at("CSThreads"), threads, Tolerance::Exact(), "groups x local size"});
  report.Compare({dispatch, "GPUTime", "nanoseconds", values[0].at("GPUTime"), longest_submit_ns,
                  Tolerance::PositiveAtMost(), "the host's wall time from vkQueueSubmit to the fence"});
  if (samples > 1) {
    report.Compare({"draw of " + std::to_string(kTriangles) + " triangles", "VSVerticesIn", "items",
                    values[1].at("VSVerticesIn"), 3.0 * kTriangles, Tolerance::Exact(),
                    "3 vertices per triangle of a non-indexed draw"});
    report.Compare({"full-screen triangle on " + std::to_string(kWidth) + "x" + std::to_string(kHeight), "PSPixelsIn",
                    "items", values[2].at("PSPixelsIn"), static_cast<double>(kWidth * kHeight), Tolerance::Exact(),
                    "one fragment per pixel of the target"});
  }
  report.ExplainFailedChecks(
      "the driver answered GPA's queries with nothing: a layer or capture tool between the application and the "
      "driver that drops queries (check VK_INSTANCE_LAYERS and VK_LOADER_LAYERS_ENABLE), a driver without working "
      "pipeline statistics or timestamps, or a stand-in libGPUPerfAPIVK.so; `opengpa doctor -v --api vk` shows "
      "which libraries were loaded");
}

}  // namespace
}  // namespace opengpa::doctor

int main(int argc, char** argv) { return opengpa::doctor::RunProbe(argc, argv, "vk", opengpa::doctor::RunVulkanProbe); }
