// What a frame costs with the Vulkan backend's hardware counters on, against the same frame with timestamps only and
// without GPA: a render pass of 64 sampled grid draws and 8 sampled dispatches, recorded and submitted once per
// frame (one GPA pass = one frame), timed on the host from submission to the fence and on the GPU by timestamps of
// the frame's own. Prints a table (median of the frames of each mode). Run on an NVIDIA GPU by
// tests/device/graphics/run.sh with OPENGPA_GRAPHICS_BENCH=1; results in docs/validation.md.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "client/gpa_library_search.h"
#include "client/loaded_gpa_library.h"
#include "gpu_objects.h"
#include "vulkan_device.h"

namespace {

using namespace opengpa::vkwork;

constexpr int kFrames = 30;
// The frame: `draws` sampled grid draws of `vertices` each and `dispatches` sampled dispatches of `groups` x 64
// threads; `many` (the default): many small samples, the worst case; `few`: a few large ones, like
// opengpa_vk_sample's frame.
int kDraws = 64;
int kDispatches = 8;
std::uint32_t kVertices = 3000;
std::uint32_t kGroups = 512;
const float kColor[4] = {0.3f, 0.5f, 0.7f, 1.0f};

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values.empty() ? 0.0 : values[values.size() / 2];
}

struct Frame {
  const GpaFunctionTable* gpa = nullptr;
  VulkanDevice* device = nullptr;
  RenderTarget* target = nullptr;
  GraphicsPipeline* grid = nullptr;
  CountingCompute* compute = nullptr;
  VkQueryPool frame_times = VK_NULL_HANDLE;

  // Records one frame (sampled when `list` is not null), submits it and waits; returns host and GPU microseconds.
  void Run(GpaCommandListId list_session, GpaSessionId session, GpaUInt32 pass, double* host_us, double* gpu_us) {
    VkCommandBuffer cb = device->AllocateCommandBuffer(VK_COMMAND_BUFFER_LEVEL_PRIMARY);
    VkCommandBufferBeginInfo begin{};
    begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
    vkBeginCommandBuffer(cb, &begin);
    vkCmdResetQueryPool(cb, frame_times, 0, 2);
    vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, frame_times, 0);
    GpaCommandListId list = list_session;
    if (session != nullptr) gpa->GpaBeginCommandList(session, pass, cb, kGpaCommandListPrimary, &list);
    GpaUInt32 sample = 0;
    target->Begin(cb, VK_SUBPASS_CONTENTS_INLINE);
    for (int i = 0; i < kDraws; ++i) {
      if (session != nullptr) gpa->GpaBeginSample(sample, list);
      grid->Draw(cb, kVertices, 1, kColor);
      if (session != nullptr) gpa->GpaEndSample(list);
      ++sample;
    }
    target->End(cb);
    for (int i = 0; i < kDispatches; ++i) {
      if (session != nullptr) gpa->GpaBeginSample(sample, list);
      compute->Dispatch(cb, kGroups, 1, 1, 200);
      if (session != nullptr) gpa->GpaEndSample(list);
      ++sample;
    }
    if (session != nullptr) gpa->GpaEndCommandList(list);
    vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, frame_times, 1);
    vkEndCommandBuffer(cb);
    *host_us = device->SubmitAndWait({cb}) / 1000.0;
    std::uint64_t t[2] = {0, 0};
    vkGetQueryPoolResults(device->device(), frame_times, 0, 2, sizeof(t), t, 8,
                          VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
    *gpu_us = static_cast<double>(t[1] - t[0]) * device->properties().limits.timestampPeriod / 1000.0;
  }
};

// Median host and GPU time per frame for `counters` (empty name list: no GPA at all), and the median time the host
// spends per frame outside the frame's submission (GPA's session calls, reading results): while it does, the GPU is
// idle. `idle_us` > 0 makes each frame wait that long first (a control: timestamps only after the same idle time).
bool Measure(Frame& frame, GpaContextId context, const std::vector<std::string>* counters, double* host_us,
             double* gpu_us, GpaUInt32* passes, double* gap_us, double idle_us = 0) {
  std::vector<double> host, gpu, gap;
  *passes = 1;
  for (int f = 0; f < kFrames; ++f) {
    const auto iteration_start = std::chrono::steady_clock::now();
    double submitted_us = 0;
    if (idle_us > 0) std::this_thread::sleep_for(std::chrono::duration<double, std::micro>(idle_us));
    GpaSessionId session = nullptr;
    if (counters != nullptr) {
      frame.gpa->GpaCreateSession(context, kGpaSessionSampleTypeDiscreteCounter, &session);
      for (const std::string& name : *counters) {
        if (frame.gpa->GpaEnableCounterByName(session, name.c_str()) != kGpaStatusOk) {
          std::printf("cannot enable %s\n", name.c_str());
          return false;
        }
      }
      frame.gpa->GpaGetPassCount(session, passes);
      frame.gpa->GpaBeginSession(session);
    }
    for (GpaUInt32 pass = 0; pass < *passes; ++pass) {
      double h = 0, g = 0;
      frame.Run(nullptr, session, pass, &h, &g);
      submitted_us += h;
      if (f > 0) {  // the first frame of each mode warms caches and the driver
        host.push_back(h);
        gpu.push_back(g);
      }
    }
    if (session != nullptr) {
      frame.gpa->GpaEndSession(session);
      std::size_t size = 0;
      frame.gpa->GpaGetSampleResultSize(session, 0, &size);
      std::vector<GpaUInt64> result(size / sizeof(GpaUInt64) + 1);
      if (frame.gpa->GpaGetSampleResult(session, 0, size, result.data()) != kGpaStatusOk) {
        std::printf("reading results failed\n");
        return false;
      }
      frame.gpa->GpaDeleteSession(session);
    }
    const double iteration_us =
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - iteration_start).count();
    if (f > 0) gap.push_back((iteration_us - submitted_us) / *passes);
  }
  *host_us = Median(host);
  *gpu_us = Median(gpu);
  *gap_us = Median(gap);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::string(argv[1]) == "few") {
    kDraws = 4;
    kDispatches = 1;
    kVertices = 300000;
    kGroups = 8192;
  }
  std::string error;
  auto device = VulkanDevice::Create(DevicePreference::kFastest, &error);
  if (!device) return std::printf("no Vulkan device: %s\n", error.c_str()), 1;
  auto library = opengpa::client::LoadedGpaLibrary::Load(
      opengpa::client::GpaLibraryPaths("libGPUPerfAPIVK.so", "", opengpa::client::FoldersBesideExecutable()), &error);
  if (!library) return std::printf("no libGPUPerfAPIVK.so: %s\n", error.c_str()), 1;
  auto target = RenderTarget::Create(*device, 1024, 768, &error, true);
  auto grid = target ? GraphicsPipeline::Create(*device, *target, Geometry::kGridTriangles, &error) : nullptr;
  auto compute = CountingCompute::Create(*device, 64, &error);
  if (!grid || !compute) return std::printf("workload: %s\n", error.c_str()), 1;
  VkQueryPoolCreateInfo pool_info{};
  pool_info.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
  pool_info.queryType = VK_QUERY_TYPE_TIMESTAMP;
  pool_info.queryCount = 2;
  Frame frame;
  frame.gpa = &library->Table();
  frame.device = device.get();
  frame.target = target.get();
  frame.grid = grid.get();
  frame.compute = compute.get();
  vkCreateQueryPool(device->device(), &pool_info, nullptr, &frame.frame_times);
  frame.gpa->GpaRegisterLoggingCallback(kGpaLoggingErrorAndMessage, [](GpaLoggingType type, const char* message) {
    static int clock_lines = 0;
    if (type == kGpaLoggingError) std::printf("GPA error: %s\n", message);
    const bool worth_printing =
        std::strstr(message, "clocks") != nullptr || std::strstr(message, "processes") != nullptr;
    if (worth_printing && clock_lines++ < 2) std::printf("GPA: %s\n", message);
  });
  frame.gpa->GpaInitialize(kGpaInitializeDefaultBit);
  GpaContextId context = nullptr;
  GpaVkContextOpenInfo open_info = device->OpenInfo();
  if (frame.gpa->GpaOpenContext(&open_info, kGpaOpenContextDefaultBit, &context) != kGpaStatusOk) {
    return std::printf("GpaOpenContext failed\n"), 1;
  }
  const std::vector<std::string> timestamps = {"GPUTime"};
  const std::vector<std::string> hardware = {"GPUTime", "PSPixelsIn", "PSBusy", "FetchSize", "WriteSize", "GPUBusy"};
  struct Mode {
    const char* name;
    const std::vector<std::string>* counters;
  } modes[] = {
      {"no GPA", nullptr}, {"GPUTime (timestamps only)", &timestamps}, {"GPUTime + 5 hardware counters", &hardware}};
  std::printf("%s, %d frames per mode, %d sampled draws of %u vertices + %d sampled dispatches of %u x 64 per frame\n",
              device->properties().deviceName, kFrames, kDraws, kVertices, kDispatches, kGroups);
  std::printf("%-34s %7s %14s %14s %14s\n", "mode", "passes", "host us/frame", "GPU us/frame", "idle us/frame");
  double base_host = 0, base_gpu = 0, hardware_gap = 0;
  for (const Mode& mode : modes) {
    double host = 0, gpu = 0, gap = 0;
    GpaUInt32 passes = 0;
    if (!Measure(frame, context, mode.counters, &host, &gpu, &passes, &gap)) return 1;
    std::printf("%-34s %7u %14.1f %14.1f %14.1f", mode.name, passes, host, gpu, gap);
    if (mode.counters == &hardware) hardware_gap = gap;
    if (mode.counters == &timestamps) {
      base_host = host;
      base_gpu = gpu;
    }
    if (mode.counters == &hardware) {
      std::printf("   x%.2f host, x%.2f GPU vs timestamps only", host / base_host, gpu / base_gpu);
    }
    std::printf("\n");
  }
  // The control: timestamps only, each frame after the GPU was left idle as long as between the hardware frames. If
  // the GPU's own time per frame grows here too, what the hardware frames lose is the clock ramp after idling (the
  // GPU clocks down when idle), not the sampler.
  double host = 0, gpu = 0, gap = 0;
  GpaUInt32 passes = 0;
  if (!Measure(frame, context, &timestamps, &host, &gpu, &passes, &gap, hardware_gap)) return 1;
  std::printf("%-34s %7u %14.1f %14.1f %14.1f   x%.2f GPU vs timestamps only\n", "GPUTime after the same idle time",
              passes, host, gpu, gap, gpu / base_gpu);
  frame.gpa->GpaCloseContext(context);
  frame.gpa->GpaDestroy();
  vkDestroyQueryPool(device->device(), frame.frame_times, nullptr);
  return 0;
}
