// CUDA bootstrap: the primary context of a device through the driver API (libcuda.so.1, dlopen'ed so
// the CLI runs where no NVIDIA driver exists), or, with --chip, an offline context that needs no GPU.
#include <string>

#include "api_context.h"
#include "gpu_performance_api/gpu_perf_api_cuda.h"
#include "platform/dynamic_library.h"

namespace opengpa::cli {
namespace {

// The few driver-API entry points used, declared here so cuda.h is not needed to build the CLI.
using CudaResult = int;
using CudaDevice = int;
using CuInit = CudaResult (*)(unsigned int);
using CuDeviceGetCount = CudaResult (*)(int*);
using CuDeviceGet = CudaResult (*)(CudaDevice*, int);
using CuDeviceGetName = CudaResult (*)(char*, int, CudaDevice);
using CuDevicePrimaryCtxRetain = CudaResult (*)(CUcontext*, CudaDevice);
using CuDevicePrimaryCtxRelease = CudaResult (*)(CudaDevice);
using CuCtxSetCurrent = CudaResult (*)(CUcontext);

class OfflineCudaContext : public ApiContext {
 public:
  explicit OfflineCudaContext(std::string chip) : chip_(std::move(chip)) {
    open_info_ = GPA_CUDA_CONTEXT_OPEN_INFO_INIT;
    open_info_.chip_name = chip_.c_str();
  }
  void* OpenContextArgument() override { return &open_info_; }
  std::string Description() const override { return "offline CUDA context for chip " + chip_ + " (no GPU)"; }

 private:
  std::string chip_;
  GpaCudaContextOpenInfo open_info_;
};

class LiveCudaContext : public ApiContext {
 public:
  explicit LiveCudaContext(std::unique_ptr<DynamicLibrary> driver) : driver_(std::move(driver)) {
    open_info_ = GPA_CUDA_CONTEXT_OPEN_INFO_INIT;
  }
  ~LiveCudaContext() override {
    if (open_info_.context) release_(device_);
  }

  bool Create(int requested, std::string* error) {
    auto init = driver_->Get<CuInit>("cuInit");
    auto get_count = driver_->Get<CuDeviceGetCount>("cuDeviceGetCount");
    auto get_device = driver_->Get<CuDeviceGet>("cuDeviceGet");
    auto get_name = driver_->Get<CuDeviceGetName>("cuDeviceGetName");
    auto retain = driver_->Get<CuDevicePrimaryCtxRetain>("cuDevicePrimaryCtxRetain");
    auto set_current = driver_->Get<CuCtxSetCurrent>("cuCtxSetCurrent");
    release_ = driver_->Get<CuDevicePrimaryCtxRelease>("cuDevicePrimaryCtxRelease_v2");
    if (!init || !get_count || !get_device || !get_name || !retain || !set_current || !release_) {
      *error = "libcuda.so.1 lacks a driver entry point opengpa needs";
      return false;
    }
    if (CudaResult result = init(0); result != 0) {
      *error = "cuInit failed with CUresult " + std::to_string(result) +
               " (no usable NVIDIA GPU? use --chip GH100 to list a chip's counters offline)";
      return false;
    }
    int count = 0;
    get_count(&count);
    const int index = requested < 0 ? 0 : requested;
    if (index >= count) {
      *error = "--device " + std::to_string(index) + " is out of range: this machine has " + std::to_string(count) +
               " CUDA device(s)";
      return false;
    }
    if (CudaResult result = get_device(&device_, index); result != 0) {
      *error = "cuDeviceGet(" + std::to_string(index) + ") failed with CUresult " + std::to_string(result);
      return false;
    }
    char name[256] = {};
    get_name(name, sizeof name, device_);
    CUcontext context = nullptr;
    if (CudaResult result = retain(&context, device_); result != 0) {
      *error = "cuDevicePrimaryCtxRetain failed with CUresult " + std::to_string(result);
      return false;
    }
    open_info_.context = context;
    set_current(context);
    description_ = "CUDA device " + std::to_string(index) + " of " + std::to_string(count) + ": " + name;
    return true;
  }

  void* OpenContextArgument() override { return &open_info_; }
  std::string Description() const override { return description_; }

 private:
  std::unique_ptr<DynamicLibrary> driver_;
  CuDevicePrimaryCtxRelease release_ = nullptr;
  CudaDevice device_ = 0;
  GpaCudaContextOpenInfo open_info_;
  std::string description_;
};

}  // namespace

std::unique_ptr<ApiContext> CreateCudaApiContext(const ContextRequest& request, std::string* error) {
  if (!request.chip.empty()) return std::make_unique<OfflineCudaContext>(request.chip);
  auto driver = DynamicLibrary::Open({"libcuda.so.1", "libcuda.so"}, error);
  if (!driver) {
    *error = "no NVIDIA driver (" + *error + "); use --chip GH100 to list a chip's counters offline";
    return nullptr;
  }
  auto context = std::make_unique<LiveCudaContext>(std::move(driver));
  if (!context->Create(request.device, error)) return nullptr;
  return context;
}

}  // namespace opengpa::cli
