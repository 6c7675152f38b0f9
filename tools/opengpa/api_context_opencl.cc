// OpenCL bootstrap: a context and a command queue with profiling enabled on the best device (a GPU
// before anything else), across every platform the ICD loader lists. libOpenCL is dlopen'ed.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <string>
#include <vector>

#include "api_context.h"
#include "platform/dynamic_library.h"

namespace opengpa::cli {
namespace {

using GetPlatformIds = cl_int (*)(cl_uint, cl_platform_id*, cl_uint*);
using GetDeviceIds = cl_int (*)(cl_platform_id, cl_device_type, cl_uint, cl_device_id*, cl_uint*);
using GetDeviceInfo = cl_int (*)(cl_device_id, cl_device_info, size_t, void*, size_t*);
using CreateContext = cl_context (*)(const cl_context_properties*, cl_uint, const cl_device_id*,
                                     void (*)(const char*, const void*, size_t, void*), void*, cl_int*);
using CreateCommandQueue = cl_command_queue (*)(cl_context, cl_device_id, cl_command_queue_properties, cl_int*);
using ReleaseContext = cl_int (*)(cl_context);
using ReleaseCommandQueue = cl_int (*)(cl_command_queue);

std::string DeviceString(GetDeviceInfo info, cl_device_id device, cl_device_info what) {
  size_t size = 0;
  if (info(device, what, 0, nullptr, &size) != CL_SUCCESS || size == 0) return {};
  std::string text(size, '\0');
  info(device, what, size, text.data(), nullptr);
  while (!text.empty() && text.back() == '\0') text.pop_back();
  return text;
}

class OpenClApiContext : public ApiContext {
 public:
  explicit OpenClApiContext(std::unique_ptr<DynamicLibrary> opencl) : opencl_(std::move(opencl)) {}
  ~OpenClApiContext() override {
    if (queue_) release_queue_(queue_);
    if (context_) release_context_(context_);
  }

  bool Create(int requested, std::string* error) {
    auto get_platforms = opencl_->Get<GetPlatformIds>("clGetPlatformIDs");
    auto get_devices = opencl_->Get<GetDeviceIds>("clGetDeviceIDs");
    auto device_info = opencl_->Get<GetDeviceInfo>("clGetDeviceInfo");
    auto create_context = opencl_->Get<CreateContext>("clCreateContext");
    auto create_queue = opencl_->Get<CreateCommandQueue>("clCreateCommandQueue");
    release_context_ = opencl_->Get<ReleaseContext>("clReleaseContext");
    release_queue_ = opencl_->Get<ReleaseCommandQueue>("clReleaseCommandQueue");
    if (!get_platforms || !get_devices || !device_info || !create_context || !create_queue || !release_context_ ||
        !release_queue_) {
      *error = "libOpenCL lacks an OpenCL 1.2 entry point";
      return false;
    }
    cl_uint platform_count = 0;
    if (get_platforms(0, nullptr, &platform_count) != CL_SUCCESS || platform_count == 0) {
      *error = "no OpenCL platform (install pocl-opencl-icd for a CPU driver)";
      return false;
    }
    std::vector<cl_platform_id> platforms(platform_count);
    get_platforms(platform_count, platforms.data(), nullptr);
    std::vector<cl_device_id> devices;
    for (cl_platform_id platform : platforms) {
      cl_uint count = 0;
      if (get_devices(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &count) != CL_SUCCESS || count == 0) continue;
      std::vector<cl_device_id> found(count);
      get_devices(platform, CL_DEVICE_TYPE_ALL, count, found.data(), nullptr);
      devices.insert(devices.end(), found.begin(), found.end());
    }
    if (devices.empty()) {
      *error = "no OpenCL device on any platform";
      return false;
    }
    std::size_t chosen = 0;
    if (requested >= 0) {
      if (static_cast<std::size_t>(requested) >= devices.size()) {
        *error = "--device " + std::to_string(requested) + " is out of range: the OpenCL platforms list " +
                 std::to_string(devices.size()) + " device(s)";
        return false;
      }
      chosen = static_cast<std::size_t>(requested);
    } else {
      for (std::size_t i = 0; i < devices.size(); ++i) {
        cl_device_type type = 0;
        device_info(devices[i], CL_DEVICE_TYPE, sizeof type, &type, nullptr);
        if (type & CL_DEVICE_TYPE_GPU) {
          chosen = i;
          break;
        }
      }
    }
    cl_device_id device = devices[chosen];
    cl_int status = CL_SUCCESS;
    context_ = create_context(nullptr, 1, &device, nullptr, nullptr, &status);
    if (!context_) {
      *error = "clCreateContext failed with " + std::to_string(status);
      return false;
    }
    queue_ = create_queue(context_, device, CL_QUEUE_PROFILING_ENABLE, &status);
    if (!queue_) {
      *error = "clCreateCommandQueue(CL_QUEUE_PROFILING_ENABLE) failed with " + std::to_string(status);
      return false;
    }
    description_ = "OpenCL device " + std::to_string(chosen) + " of " + std::to_string(devices.size()) + ": " +
                   DeviceString(device_info, device, CL_DEVICE_NAME) + " (" +
                   DeviceString(device_info, device, CL_DEVICE_VERSION) + ")";
    return true;
  }

  // GPA's documentation for OpenCL: GpaOpenContext takes the command queue.
  void* OpenContextArgument() override { return queue_; }
  std::string Description() const override { return description_; }

 private:
  std::unique_ptr<DynamicLibrary> opencl_;
  ReleaseContext release_context_ = nullptr;
  ReleaseCommandQueue release_queue_ = nullptr;
  cl_context context_ = nullptr;
  cl_command_queue queue_ = nullptr;
  std::string description_;
};

}  // namespace

std::unique_ptr<ApiContext> CreateOpenClApiContext(const ContextRequest& request, std::string* error) {
  auto opencl = DynamicLibrary::Open({"libOpenCL.so.1", "libOpenCL.so"}, error);
  if (!opencl) {
    *error = "cannot load the OpenCL ICD loader: " + *error;
    return nullptr;
  }
  auto context = std::make_unique<OpenClApiContext>(std::move(opencl));
  if (!context->Create(request.device, error)) return nullptr;
  return context;
}

}  // namespace opengpa::cli
