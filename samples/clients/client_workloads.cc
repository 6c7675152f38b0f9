// The GPA client programs' application side; see client_workloads.h. Vulkan and OpenGL reuse the samples'
// workload libraries; what each sample must read follows from the sizes in client_workloads.h, as in
// tests/vulkan and tests/opengl.
#include "client_workloads.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "gpu_performance_api/gpu_perf_api.h"
#include "gpu_performance_api/opengpa_ext.h"

#ifdef OPENGPA_CLIENT_WITH_VULKAN
#include "gpu_objects.h"
#include "vulkan_device.h"
#endif
#ifdef OPENGPA_CLIENT_WITH_OPENGL
#include "gl_workloads.h"
#include "headless_gl.h"
#endif
#ifdef OPENGPA_CLIENT_WITH_OPENCL
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#endif
#include "gpu_performance_api/gpu_perf_api_cuda.h"

namespace {

using Values = std::map<std::string, double>;

// One exact expectation: counter `name` of a sample must read `value`.
struct Exact {
  const char* name;
  double value;
};

constexpr float kColor[4] = {0.2f, 0.6f, 1.0f, 1.0f};

#ifdef OPENGPA_CLIENT_WITH_OPENCL
constexpr const char* kKernelSource = R"(
__kernel void square(__global const float* in, __global float* out) {
  size_t i = get_global_id(0);
  out[i] = in[i] * in[i];
}
)";
#endif

}  // namespace

// kGpaApiCuda's number: the macro is a GpaApiType prvalue, which C++ may not load as the enum.
constexpr int kCuda = OPENGPA_ENUM_EXTENSION_BASE + 0;

struct ClientWorkload {
  int api = kGpaApiNoSupport;  // the API's number: kGpaApiCuda (0x100) is outside GpaApiType's range in C++
  double previous_end = -1;    // OpenCL: ExecutionEnd of the previous sample, to check the order of samples

#ifdef OPENGPA_CLIENT_WITH_VULKAN
  std::unique_ptr<opengpa::vkwork::VulkanDevice> vk_device;
  std::unique_ptr<opengpa::vkwork::RenderTarget> vk_target;
  std::unique_ptr<opengpa::vkwork::GraphicsPipeline> vk_grid;
  std::unique_ptr<opengpa::vkwork::GraphicsPipeline> vk_full_screen;
  GpaVkContextOpenInfo vk_open_info{};
#endif
#ifdef OPENGPA_CLIENT_WITH_OPENGL
  std::unique_ptr<opengpa::glwork::HeadlessGl> gl;
  std::unique_ptr<opengpa::glwork::GlWorkloads> gl_work;
#endif
#ifdef OPENGPA_CLIENT_WITH_OPENCL
  cl_context cl = nullptr;
  cl_command_queue cl_queue = nullptr;
  cl_program cl_program_ = nullptr;
  cl_kernel cl_kernel_ = nullptr;
  cl_mem cl_in = nullptr;
  cl_mem cl_out = nullptr;
  std::vector<float> cl_input;
#endif
  GpaCudaContextOpenInfo cuda_info = GPA_CUDA_CONTEXT_OPEN_INFO_INIT;

  ~ClientWorkload() {
#ifdef OPENGPA_CLIENT_WITH_OPENCL
    if (cl_kernel_) clReleaseKernel(cl_kernel_);
    if (cl_program_) clReleaseProgram(cl_program_);
    if (cl_in) clReleaseMemObject(cl_in);
    if (cl_out) clReleaseMemObject(cl_out);
    if (cl_queue) clReleaseCommandQueue(cl_queue);
    if (cl) clReleaseContext(cl);
#endif
#ifdef OPENGPA_CLIENT_WITH_OPENGL
    gl_work.reset();  // its GL objects go while the context is current
    gl.reset();
#endif
#ifdef OPENGPA_CLIENT_WITH_VULKAN
    vk_full_screen.reset();
    vk_grid.reset();
    vk_target.reset();
    vk_device.reset();
#endif
  }

  bool Create(int type, std::string* error);
  std::vector<Exact> Expected(GpaUInt32 sample_id) const;
};

bool ClientWorkload::Create(int type, std::string* error) {
  api = type;
  switch (type) {
#ifdef OPENGPA_CLIENT_WITH_VULKAN
    case kGpaApiVulkan: {
      using namespace opengpa::vkwork;
      vk_device = VulkanDevice::Create(DevicePreference::kSoftware, error);
      if (!vk_device) return false;
      vk_target = RenderTarget::Create(*vk_device, kClientWidth, kClientHeight, error);
      if (!vk_target) return false;
      vk_grid = GraphicsPipeline::Create(*vk_device, *vk_target, Geometry::kGridTriangles, error);
      vk_full_screen =
          vk_grid ? GraphicsPipeline::Create(*vk_device, *vk_target, Geometry::kFullScreenTriangle, error) : nullptr;
      vk_open_info = vk_device->OpenInfo();
      return vk_full_screen != nullptr;
    }
#endif
#ifdef OPENGPA_CLIENT_WITH_OPENGL
    case kGpaApiOpengl:
      gl = opengpa::glwork::HeadlessGl::Create(kClientWidth, kClientHeight, error);
      if (!gl) return false;
      gl_work = std::make_unique<opengpa::glwork::GlWorkloads>();
      return gl_work->Build(error);
#endif
#ifdef OPENGPA_CLIENT_WITH_OPENCL
    case kGpaApiOpencl: {
      cl_platform_id platform = nullptr;
      cl_device_id device = nullptr;
      cl_int status = clGetPlatformIDs(1, &platform, nullptr);
      if (status == CL_SUCCESS) status = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr);
      if (status == CL_SUCCESS) cl = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &status);
      if (status == CL_SUCCESS) cl_queue = clCreateCommandQueue(cl, device, CL_QUEUE_PROFILING_ENABLE, &status);
      const char* source = kKernelSource;
      if (status == CL_SUCCESS) cl_program_ = clCreateProgramWithSource(cl, 1, &source, nullptr, &status);
      if (status == CL_SUCCESS) status = clBuildProgram(cl_program_, 1, &device, "", nullptr, nullptr);
      if (status == CL_SUCCESS) cl_kernel_ = clCreateKernel(cl_program_, "square", &status);
      cl_input.resize(2 * kClientWorkItems);
      for (std::size_t i = 0; i < cl_input.size(); ++i) cl_input[i] = static_cast<float>(i % 1000) * 0.5f;
      const std::size_t bytes = cl_input.size() * sizeof(float);
      if (status == CL_SUCCESS) {
        cl_in = clCreateBuffer(cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, cl_input.data(), &status);
      }
      if (status == CL_SUCCESS) cl_out = clCreateBuffer(cl, CL_MEM_WRITE_ONLY, bytes, nullptr, &status);
      if (status == CL_SUCCESS) status = clSetKernelArg(cl_kernel_, 0, sizeof cl_in, &cl_in);
      if (status == CL_SUCCESS) status = clSetKernelArg(cl_kernel_, 1, sizeof cl_out, &cl_out);
      if (status != CL_SUCCESS) *error = "OpenCL setup failed with status " + std::to_string(status);
      return status == CL_SUCCESS;
    }
#endif
    case kCuda:
      // No GPU needed: an offline context for the chip lists its counters and counts passes.
      cuda_info.chip_name = "GH100";
      return true;
    default: *error = "this client was built without API " + std::to_string(static_cast<int>(type)); return false;
  }
}

std::vector<Exact> ClientWorkload::Expected(GpaUInt32 sample_id) const {
  const double n = kClientTriangles;
  const double pixels = double(kClientWidth) * kClientHeight;
  switch (static_cast<int>(api)) {
    case kGpaApiVulkan:
      if (sample_id == 0) {
        return {{"IAVerticesIn", 3 * n}, {"IAPrimitivesIn", n},  {"VSVerticesIn", 3 * n}, {"VSVertexReuse", 0},
                {"PrimitivesIn", n},     {"ClipperPrimsOut", n}, {"CSThreads", 0}};
      }
      // Sides that are multiples of 4: no shading block straddles an edge, every pixel is shaded once.
      return {{"IAVerticesIn", 3}, {"PrimitivesIn", 1}, {"ClipperPrimsOut", 1}, {"PSPixelsIn", pixels}};
    case kGpaApiOpengl:
      if (sample_id == 0) {
        return {{"IAVerticesIn", 3 * n}, {"IAPrimitivesIn", n},  {"VSVerticesIn", 3 * n},
                {"PrimitivesIn", n},     {"ClipperPrimsOut", n}, {"CSThreads", 0}};
      }
      return {{"IAPrimitivesIn", 1}, {"SamplesPassed", pixels}};
    default: return {};
  }
}

extern "C" {

ClientWorkload* ClientWorkloadCreate(int api, char* error, size_t error_size) {
  auto workload = std::make_unique<ClientWorkload>();
  std::string reason;
  if (!workload->Create(api, &reason)) {
    std::snprintf(error, error_size, "%s", reason.c_str());
    return nullptr;
  }
  return workload.release();
}

ClientWorkload* ClientWorkloadCreateByName(const char* api_name, char* error, size_t error_size) {
  const std::string name = api_name != nullptr ? api_name : "";
  int api = kGpaApiNoSupport;
  if (name == "vulkan") api = kGpaApiVulkan;
  if (name == "opengl") api = kGpaApiOpengl;
  if (name == "opencl") api = kGpaApiOpencl;
  if (name == "cuda") api = kCuda;
  if (api == kGpaApiNoSupport) {
    std::snprintf(error, error_size, "no workload for API '%s'", name.c_str());
    return nullptr;
  }
  return ClientWorkloadCreate(api, error, error_size);
}

void ClientWorkloadDestroy(ClientWorkload* workload) { std::unique_ptr<ClientWorkload> owned(workload); }

void* ClientWorkloadGpaContext(ClientWorkload* workload) {
  switch (workload->api) {
#ifdef OPENGPA_CLIENT_WITH_VULKAN
    case kGpaApiVulkan: return &workload->vk_open_info;
#endif
#ifdef OPENGPA_CLIENT_WITH_OPENGL
    case kGpaApiOpengl: return workload->gl->context();
#endif
#ifdef OPENGPA_CLIENT_WITH_OPENCL
    case kGpaApiOpencl: return workload->cl_queue;
#endif
    case kCuda: return &workload->cuda_info;
    default: return nullptr;
  }
}

GpaOpenContextFlags ClientWorkloadOpenFlags(ClientWorkload*) { return kGpaOpenContextDefaultBit; }

int ClientWorkloadCanSample(ClientWorkload* workload) { return workload->api != kCuda; }

int ClientWorkloadWantsCounter(ClientWorkload* workload, const char*, const char* group) {
  if (workload->api != kCuda) return 1;
  // The default groups, which CUPTI schedules into one pass on GH100 (docs/cuda.md).
  for (const char* wanted : {"Timing", "General", "GlobalMemory", "MemoryCache"}) {
    if (std::strcmp(group, wanted) == 0) return 1;
  }
  return 0;
}

GpaUInt32 ClientWorkloadExpectedPasses(ClientWorkload*) { return 1; }

void* ClientWorkloadBeginCommandList(ClientWorkload* workload) {
#ifdef OPENGPA_CLIENT_WITH_VULKAN
  if (workload->api == kGpaApiVulkan) {
    VkCommandBuffer command_buffer = workload->vk_device->AllocateCommandBuffer(VK_COMMAND_BUFFER_LEVEL_PRIMARY);
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    vkBeginCommandBuffer(command_buffer, &begin);
    workload->vk_target->Begin(command_buffer, VK_SUBPASS_CONTENTS_INLINE);
    return command_buffer;
  }
#endif
  (void)workload;
  return GPA_NULL_COMMAND_LIST;
}

GpaCommandListType ClientWorkloadCommandListType(ClientWorkload* workload) {
  return workload->api == kGpaApiVulkan ? kGpaCommandListPrimary : kGpaCommandListNone;
}

void ClientWorkloadDoWork(ClientWorkload* workload, void* command_list, GpaUInt32 sample_id) {
  switch (workload->api) {
#ifdef OPENGPA_CLIENT_WITH_VULKAN
    case kGpaApiVulkan: {
      auto command_buffer = static_cast<VkCommandBuffer>(command_list);
      if (sample_id == 0) {
        workload->vk_grid->Draw(command_buffer, 3 * kClientTriangles, 1, kColor);
      } else {
        workload->vk_full_screen->Draw(command_buffer, 3, 1, kColor);
      }
      break;
    }
#endif
#ifdef OPENGPA_CLIENT_WITH_OPENGL
    case kGpaApiOpengl:
      if (sample_id == 0) {
        workload->gl_work->DrawSmallTriangles(kClientTriangles);
      } else {
        workload->gl_work->DrawFullScreenTriangle();
      }
      break;
#endif
#ifdef OPENGPA_CLIENT_WITH_OPENCL
    case kGpaApiOpencl: {
      const std::size_t items = (sample_id == 0 ? 1 : 2) * static_cast<std::size_t>(kClientWorkItems);
      clEnqueueNDRangeKernel(workload->cl_queue, workload->cl_kernel_, 1, nullptr, &items, nullptr, 0, nullptr,
                             nullptr);
      break;
    }
#endif
    default: break;
  }
  (void)command_list;
}

int ClientWorkloadSubmit(ClientWorkload* workload, void* command_list) {
  switch (workload->api) {
#ifdef OPENGPA_CLIENT_WITH_VULKAN
    case kGpaApiVulkan: {
      auto command_buffer = static_cast<VkCommandBuffer>(command_list);
      workload->vk_target->End(command_buffer);
      vkEndCommandBuffer(command_buffer);
      return workload->vk_device->SubmitAndWait({command_buffer}) >= 0;
    }
#endif
#ifdef OPENGPA_CLIENT_WITH_OPENGL
    case kGpaApiOpengl: glFinish(); return 1;
#endif
#ifdef OPENGPA_CLIENT_WITH_OPENCL
    case kGpaApiOpencl: {
      // The kernel really ran: every output is its input squared.
      std::vector<float> output(workload->cl_input.size());
      if (clEnqueueReadBuffer(workload->cl_queue, workload->cl_out, CL_TRUE, 0, output.size() * sizeof(float),
                              output.data(), 0, nullptr, nullptr) != CL_SUCCESS) {
        return 0;
      }
      for (std::size_t i = 0; i < output.size(); ++i) {
        if (output[i] != workload->cl_input[i] * workload->cl_input[i]) return 0;
      }
      return clFinish(workload->cl_queue) == CL_SUCCESS;
    }
#endif
    default: (void)command_list; return 1;
  }
}

int ClientWorkloadCheckSample(ClientWorkload* workload, GpaUInt32 sample_id, GpaUInt32 count, const char* const* names,
                              const double* values, char* message, size_t message_size) {
  Values read;
  for (GpaUInt32 i = 0; i < count; ++i) read[names[i]] = values[i];
  int checks = 0;
  for (const Exact& exact : workload->Expected(sample_id)) {
    const auto it = read.find(exact.name);
    if (it == read.end()) {
      std::snprintf(message, message_size, "sample %u: counter %s was not read", sample_id, exact.name);
      return -1;
    }
    if (it->second != exact.value) {
      std::snprintf(message, message_size, "sample %u: %s is %.17g, the work makes it %.17g", sample_id, exact.name,
                    it->second, exact.value);
      return -1;
    }
    ++checks;
  }
  if (workload->api == kGpaApiOpencl) {
    // Times of the same two markers: consistent with each other, and the samples in order.
    const double start = read["ExecutionStart"], end = read["ExecutionEnd"];
    const double duration = read["ExecutionDuration"], gpu_time = read["GPUTime"];
    const char* failed = nullptr;
    if (!(gpu_time > 0))
      failed = "GPUTime > 0";
    else if (!(start < end))
      failed = "ExecutionStart < ExecutionEnd";
    else if (duration != end - start)
      failed = "ExecutionDuration == ExecutionEnd - ExecutionStart";
    else if (gpu_time != duration)
      failed = "GPUTime == ExecutionDuration";
    else if (!(workload->previous_end <= start))
      failed = "the sample starts after the previous one ended";
    if (failed != nullptr) {
      std::snprintf(message, message_size,
                    "sample %u: %s does not hold (start %.17g, end %.17g, duration %.17g, "
                    "GPUTime %.17g)",
                    sample_id, failed, start, end, duration, gpu_time);
      return -1;
    }
    workload->previous_end = end;
    checks += 5;
  }
  return checks;
}

}  // extern "C"
