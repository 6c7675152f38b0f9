// opengpa_vk_sample: profiles a small Vulkan frame with OpenGPA's libGPUPerfAPIVK.so, the way GPA's sample
// applications do, and checks the counters against what the workload is known to do.
//
// It opens the fastest Vulkan device present (discrete GPU, then integrated, then CPU, e.g. Mesa's lavapipe),
// records draws and a compute dispatch between GPA samples, prints one row per counter and one column per
// sample, and with --csv FILE writes one CSV row per sample.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "client/gpa_library_search.h"
#include "client/loaded_gpa_library.h"
#include "counter_table.h"
#include "gpu_objects.h"
#include "gpu_performance_api/gpu_perf_api_vk.h"
#include "gpu_performance_api/opengpa_ext.h"  // kGpaHwGenerationSoftware
#include "opengpa/opengpa.hpp"
#include "platform/type_strings.h"
#include "vulkan_device.h"

namespace opengpa::vkwork {
namespace {

constexpr char kUsage[] =
    "usage: opengpa_vk_sample [--csv FILE] [--counters NAME,...] [--device NAME] [--gpa-lib PATH] [--list-devices]\n"
    "  Profiles draws and a compute dispatch on the fastest Vulkan device with libGPUPerfAPIVK.so and\n"
    "  prints every counter per sample, checked against the workload's known vertex/pixel/thread counts.\n"
    "  --csv FILE      also write the results as CSV (one row per sample)\n"
    "  --counters NAME,...  enable only these counters (default: every counter), e.g. to time a sample with\n"
    "                  fewer sampler passes or without pipeline statistics\n"
    "  --device NAME   use the Vulkan device whose name contains NAME (same as OPENGPA_VK_DEVICE)\n"
    "  --gpa-lib PATH  load this libGPUPerfAPIVK.so (or the one in this folder) instead of searching\n"
    "                  beside the program\n"
    "  --list-devices  list the Vulkan devices and exit\n";

struct Options {
  std::string csv;
  std::vector<std::string> counters;  // empty: every counter
  std::string gpa_lib;
  bool list_devices = false;
};

bool ParseOptions(int argc, char** argv, Options* options) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&](std::string* out) {
      if (i + 1 >= argc) return false;
      *out = argv[++i];
      return true;
    };
    if (arg == "--csv") {
      if (!value(&options->csv)) return false;
    } else if (arg == "--counters") {
      std::string list;
      if (!value(&list)) return false;
      for (std::size_t start = 0; start <= list.size();) {
        const std::size_t comma = std::min(list.find(',', start), list.size());
        if (comma > start) options->counters.push_back(list.substr(start, comma - start));
        start = comma + 1;
      }
      if (options->counters.empty()) return false;
    } else if (arg == "--gpa-lib") {
      if (!value(&options->gpa_lib)) return false;
    } else if (arg == "--device") {
      std::string name;
      if (!value(&name)) return false;
      setenv("OPENGPA_VK_DEVICE", name.c_str(), 1);
    } else if (arg == "--list-devices") {
      options->list_devices = true;
    } else {
      return false;
    }
  }
  return true;
}

void LogToStderr(GpaLoggingType type, const char* message) {
  std::fprintf(stderr, "[GPA %s] %s\n", type == kGpaLoggingError ? "error" : "info", message);
}

// What one sample does, and the counter values that follow from it.
struct SampleSpec {
  GpaUInt32 id;
  std::string label;
  std::map<std::string, double> expected;
};

struct Frame {
  std::unique_ptr<RenderTarget> target;
  std::unique_ptr<GraphicsPipeline> grid;
  std::unique_ptr<GraphicsPipeline> grid_with_gs;  // null without geometry shaders
  std::unique_ptr<GraphicsPipeline> fullscreen;
  std::unique_ptr<CountingCompute> compute;
  std::vector<SampleSpec> samples;

  static constexpr std::uint32_t kWidth = 1280, kHeight = 720;
  static constexpr std::uint32_t kGridTriangles = 4096, kGsTriangles = 1024;
  static constexpr std::uint32_t kGroups[3] = {256, 8, 1}, kLocalSize = 64, kIterations = 4096;
};

bool BuildFrame(VulkanDevice& device, Frame* frame, std::string* error) {
  frame->target = RenderTarget::Create(device, Frame::kWidth, Frame::kHeight, error);
  if (!frame->target) return false;
  frame->grid = GraphicsPipeline::Create(device, *frame->target, Geometry::kGridTriangles, error);
  if (!frame->grid) return false;
  frame->fullscreen = GraphicsPipeline::Create(device, *frame->target, Geometry::kFullScreenTriangle, error);
  if (!frame->fullscreen) return false;
  if (device.has_geometry_shader()) {
    frame->grid_with_gs = GraphicsPipeline::Create(device, *frame->target, Geometry::kGridTrianglesWithGs, error);
    if (!frame->grid_with_gs) return false;
  }
  frame->compute = CountingCompute::Create(device, Frame::kLocalSize, error);
  if (!frame->compute) return false;

  const double grid_vertices = 3.0 * Frame::kGridTriangles;
  frame->samples.push_back({0,
                            "grid",
                            {{"IAVerticesIn", grid_vertices},
                             {"IAPrimitivesIn", Frame::kGridTriangles},
                             {"VSVerticesIn", grid_vertices},
                             {"PrimitivesIn", Frame::kGridTriangles},
                             {"ClipperPrimsOut", Frame::kGridTriangles}}});
  frame->samples.push_back({1,
                            "fullscreen",
                            {{"IAVerticesIn", 3},
                             {"IAPrimitivesIn", 1},
                             {"VSVerticesIn", 3},
                             {"ClipperPrimsOut", 1},
                             {"PSPixelsIn", double(Frame::kWidth) * Frame::kHeight}}});
  if (frame->grid_with_gs) {
    frame->samples.push_back({2,
                              "grid+GS",
                              {{"IAPrimitivesIn", Frame::kGsTriangles},
                               {"GSPrimsIn", Frame::kGsTriangles},
                               {"GSPrimsOut", Frame::kGsTriangles}}});
  }
  const double threads = double(Frame::kGroups[0]) * Frame::kGroups[1] * Frame::kGroups[2] * Frame::kLocalSize;
  frame->samples.push_back({3, "compute", {{"CSThreads", threads}, {"VSVerticesIn", 0}, {"PSPixelsIn", 0}}});
  return true;
}

// Records the frame for one pass, every workload in its own GPA sample. Throws opengpa::Error when GPA refuses.
void RecordPass(opengpa::Session& session, GpaUInt32 pass, const Frame& frame, VkCommandBuffer command_buffer) {
  VkCommandBufferBeginInfo begin{};
  begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  vkBeginCommandBuffer(command_buffer, &begin);
  opengpa::CommandList list(session, pass, command_buffer, kGpaCommandListPrimary);
  auto sample = [&](GpaUInt32 id, auto&& work) {
    list.BeginSample(id);
    work();
    list.EndSample();
  };
  const float orange[4] = {1.0f, 0.5f, 0.1f, 1.0f}, blue[4] = {0.2f, 0.4f, 1.0f, 1.0f};
  frame.target->Begin(command_buffer, VK_SUBPASS_CONTENTS_INLINE);
  sample(1, [&] { frame.fullscreen->Draw(command_buffer, 3, 1, blue); });
  sample(0, [&] { frame.grid->Draw(command_buffer, 3 * Frame::kGridTriangles, 1, orange); });
  if (frame.grid_with_gs) {
    sample(2, [&] { frame.grid_with_gs->Draw(command_buffer, 3 * Frame::kGsTriangles, 1, blue); });
  }
  frame.target->End(command_buffer);
  sample(3, [&] {
    frame.compute->Dispatch(command_buffer, Frame::kGroups[0], Frame::kGroups[1], Frame::kGroups[2],
                            Frame::kIterations);
  });
  frame.compute->RecordHostReadBarrier(command_buffer);
  list.End();
  vkEndCommandBuffer(command_buffer);
}

// The enabled counters as table columns.
std::vector<CounterColumn> Columns(const opengpa::Session& session, int generation) {
  const opengpa::Context& context = session.context();
  std::vector<CounterColumn> columns;
  for (GpaUInt32 index : session.EnabledCounters()) {
    const opengpa::CounterInfo counter = context.Counter(index);
    // A software rasterizer (lavapipe) writes timestamps on the CPU thread that walks the command buffer,
    // while it bins draws there and rasterizes them later on other threads: its times are not per-draw.
    const bool software_time = generation == static_cast<int>(kGpaHwGenerationSoftware) &&
                               counter.usage == kGpaUsageTypeNanoseconds && counter.group == "Timing";
    columns.push_back({counter.name, counter.group, context.library().UsageTypeName(counter.usage),
                       counter.data_type == kGpaDataTypeFloat64, software_time});
  }
  return columns;
}

// Profiles the frame on `device` through GPA's function table, prints the table and the checks. Throws
// opengpa::Error when a GPA call fails.
int Profile(const Options& options, VulkanDevice& device, const GpaFunctionTable& table) {
  opengpa::Library gpa(&table);
  std::string error;
  Frame frame;
  if (!BuildFrame(device, &frame, &error)) {
    std::cerr << "opengpa_vk_sample: " << error << "\n";
    return 1;
  }

  GpaVkContextOpenInfo open_info = device.OpenInfo();
  opengpa::Context context(gpa, &open_info);
  const std::string device_name = context.DeviceName();
  const int generation = context.GenerationNumber();  // lavapipe's is kGpaHwGenerationSoftware, outside the enum
  std::cout << "GPA context: " << device_name << ", hardware generation " << opengpa::HwGenerationName(generation)
            << ", " << context.CounterCount() << " counters\n\n";

  opengpa::Session session(context);
  if (options.counters.empty()) {
    session.EnableAll();
  } else {
    for (const std::string& name : options.counters) session.Enable(name);
  }
  const GpaUInt32 passes = session.PassCount();
  session.Begin();
  double host_ns = 0;
  // Every pass replays the same frame: the same samples around the same work.
  for (GpaUInt32 pass = 0; pass < passes; ++pass) {
    VkCommandBuffer command_buffer = device.AllocateCommandBuffer(VK_COMMAND_BUFFER_LEVEL_PRIMARY);
    frame.compute->ResetInvocations();
    RecordPass(session, pass, frame, command_buffer);
    host_ns = device.SubmitAndWait({command_buffer});
    if (host_ns < 0) {
      std::cerr << "opengpa_vk_sample: submitting pass " << pass << " failed\n";
      return 1;
    }
  }
  session.End();

  const std::vector<CounterColumn> columns = Columns(session, generation);
  std::vector<SampleRow> rows;
  for (const SampleSpec& spec : frame.samples) {
    SampleRow row{spec.id, spec.label, {}};
    for (const opengpa::CounterValue& value : session.Result(spec.id)) row.values.push_back(opengpa::AsDouble(value));
    rows.push_back(std::move(row));
  }
  PrintCounterTable(std::cout, columns, rows);
  if (std::any_of(columns.begin(), columns.end(), [](const CounterColumn& c) { return c.not_meaningful; })) {
    std::cout << "\n* " << device_name
              << " is a software rasterizer: it timestamps commands on the CPU thread that walks the\n"
                 "  command buffer, while draws are binned there and rasterized later on other threads, so\n"
                 "  these times are not per-draw GPU durations (compare GPUTime with ExecutionDuration).\n"
                 "  The pipeline statistics (counts) are exact.\n";
  }
  std::cout << "\nHost time for the submission (submit to fence): " << host_ns / 1e6 << " ms over " << passes
            << " pass(es)\n\nChecks against the workload's known counts:\n";
  int mismatches = 0;
  for (std::size_t s = 0; s < rows.size(); ++s) {
    for (const auto& [counter, expected] : frame.samples[s].expected) {
      for (std::size_t i = 0; i < columns.size(); ++i) {
        if (columns[i].name != counter) continue;
        const bool match = rows[s].values[i] == expected;
        mismatches += !match;
        std::printf("  %-10s %-20s %12.0f  expected %12.0f  %s\n", rows[s].label.c_str(), counter.c_str(),
                    rows[s].values[i], expected, match ? "ok" : "DIFFERENT");
      }
    }
  }
  std::printf("  compute shader atomic counter: %u invocations\n", frame.compute->Invocations());
  std::cout << (mismatches == 0 ? "All counts match.\n"
                                : "Some counts differ from the ideal (drivers may count differently; see above).\n");
  if (!options.csv.empty()) {
    if (!WriteCounterCsv(options.csv, device_name, columns, rows)) {
      std::cerr << "opengpa_vk_sample: cannot write " << options.csv << "\n";
      return 1;
    }
    std::cout << "CSV written to " << options.csv << "\n";
  }
  return 0;
}

int Run(const Options& options) {
  std::string error;
  const std::vector<PhysicalDeviceSummary> all = VulkanDevice::ListDevices(&error);
  std::cout << "Vulkan devices:\n";
  for (const PhysicalDeviceSummary& d : all) {
    std::cout << "  " << d.name << " (" << DeviceTypeName(d.type) << ", Vulkan " << VK_API_VERSION_MAJOR(d.api_version)
              << "." << VK_API_VERSION_MINOR(d.api_version) << ")\n";
  }
  if (all.empty()) {
    std::cerr << "opengpa_vk_sample: no Vulkan device found" << (error.empty() ? "" : ": " + error)
              << "\n  install a driver (Mesa's lavapipe: apt-get install mesa-vulkan-drivers) or set VK_DRIVER_FILES\n";
    return 1;
  }
  if (options.list_devices) return 0;

  std::unique_ptr<VulkanDevice> device = VulkanDevice::Create(DevicePreference::kFastest, &error);
  if (!device) {
    std::cerr << "opengpa_vk_sample: " << error << "\n";
    return 1;
  }
  std::cout << "Profiling on: " << device->properties().deviceName << "\n";

  std::unique_ptr<client::LoadedGpaLibrary> library = client::LoadedGpaLibrary::Load(
      client::GpaLibraryPaths("libGPUPerfAPIVK.so", options.gpa_lib, client::FoldersBesideExecutable()), &error);
  if (!library) {
    std::cerr << "opengpa_vk_sample: could not load a GPA library:" << error
              << "\n  build it (libGPUPerfAPIVK.so) or pass --gpa-lib PATH\n";
    return 1;
  }
  std::cout << "GPA library: " << library->Path() << "\n";
  library->Table().GpaRegisterLoggingCallback(kGpaLoggingError, LogToStderr);
  try {
    return Profile(options, *device, library->Table());
  } catch (const opengpa::Error& failure) {
    std::cerr << "opengpa_vk_sample: " << failure.what() << "\n";
    return 1;
  }
}

}  // namespace
}  // namespace opengpa::vkwork

int main(int argc, char** argv) {
  opengpa::vkwork::Options options;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) {
      std::cout << opengpa::vkwork::kUsage;
      return 0;
    }
  }
  if (!opengpa::vkwork::ParseOptions(argc, argv, &options)) {
    std::cerr << opengpa::vkwork::kUsage;
    return 2;
  }
  return opengpa::vkwork::Run(options);
}
