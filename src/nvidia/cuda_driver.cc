#include "nvidia/cuda_driver.h"

#include <memory>

#include "platform/dynamic_library.h"
#include "platform/logging.h"

namespace opengpa::nvidia {
namespace {

struct LoadedDriver {
  std::unique_ptr<DynamicLibrary> library;
  CudaDriver driver;
  bool ok = false;
  std::string error;
};

template <typename Fn>
bool Resolve(const DynamicLibrary& library, const char* symbol, Fn* out, std::string* error) {
  if (library.Resolve(symbol, out)) return true;
  *error = std::string("libcuda.so.1 has no ") + symbol;
  return false;
}

LoadedDriver Load() {
  LoadedDriver loaded;
  // Kept loaded for the life of the process, like the driver itself.
  std::string reason;
  loaded.library = DynamicLibrary::Open({"libcuda.so.1"}, &reason, DynamicLibrary::Unload::kNever);
  if (loaded.library == nullptr) {
    loaded.error = "cannot load the CUDA driver libcuda.so.1: " + reason;
    return loaded;
  }
  const DynamicLibrary& library = *loaded.library;
  CudaDriver& d = loaded.driver;
  std::string& e = loaded.error;
  loaded.ok = Resolve(library, "cuInit", &d.cuInit, &e) && Resolve(library, "cuGetErrorName", &d.cuGetErrorName, &e) &&
              Resolve(library, "cuCtxPushCurrent_v2", &d.cuCtxPushCurrent, &e) &&
              Resolve(library, "cuCtxPopCurrent_v2", &d.cuCtxPopCurrent, &e) &&
              Resolve(library, "cuCtxGetDevice", &d.cuCtxGetDevice, &e) &&
              Resolve(library, "cuDeviceGetName", &d.cuDeviceGetName, &e) &&
              Resolve(library, "cuDeviceGetAttribute", &d.cuDeviceGetAttribute, &e) &&
              Resolve(library, "cuDeviceGetPCIBusId", &d.cuDeviceGetPCIBusId, &e) &&
              Resolve(library, "cuEventCreate", &d.cuEventCreate, &e) &&
              Resolve(library, "cuEventRecord", &d.cuEventRecord, &e) &&
              Resolve(library, "cuEventQuery", &d.cuEventQuery, &e) &&
              Resolve(library, "cuEventDestroy_v2", &d.cuEventDestroy, &e);
  if (loaded.ok) {
    if (const CUresult result = d.cuInit(0); result != CUDA_SUCCESS) {
      loaded.ok = false;
      loaded.error = "cuInit failed: " + d.ErrorName(result);
    }
  }
  return loaded;
}

}  // namespace

std::string CudaDriver::ErrorName(CUresult result) const {
  const char* name = nullptr;
  if (cuGetErrorName == nullptr || cuGetErrorName(result, &name) != CUDA_SUCCESS || name == nullptr) {
    return "CUresult " + std::to_string(static_cast<int>(result));
  }
  return name;
}

GpaStatus CudaDriver::Failure(GpaStatus status, CUresult result, std::string_view call, std::string_view detail) const {
  if (detail.empty()) return LogError(status, "{} failed: {}", call, ErrorName(result));
  return LogError(status, "{} failed: {} ({})", call, ErrorName(result), detail);
}

const CudaDriver* LoadCudaDriver() {
  static const LoadedDriver loaded = Load();
  if (!loaded.ok) {
    LogError(kGpaStatusErrorDriverNotSupported, "{}", loaded.error);
    return nullptr;
  }
  return &loaded.driver;
}

ScopedCurrentContext::ScopedCurrentContext(const CudaDriver& driver, CUcontext context)
    : driver_(driver), result_(driver.cuCtxPushCurrent(context)) {}

ScopedCurrentContext::~ScopedCurrentContext() {
  if (result_ == CUDA_SUCCESS) {
    CUcontext popped = nullptr;
    driver_.cuCtxPopCurrent(&popped);
  }
}

}  // namespace opengpa::nvidia
