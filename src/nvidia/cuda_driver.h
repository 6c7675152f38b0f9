// The few CUDA driver entry points the backend needs, loaded from libcuda.so.1 at run time so that
// libGPUPerfAPICUDA.so loads (and offline contexts work) on machines without an NVIDIA driver.
#ifndef OPENGPA_NVIDIA_CUDA_DRIVER_H_
#define OPENGPA_NVIDIA_CUDA_DRIVER_H_

#include <cuda.h>

#include <string>
#include <string_view>

#include "gpu_performance_api/gpu_perf_api_types.h"

namespace opengpa::nvidia {

struct CudaDriver {
  CUresult (*cuInit)(unsigned int) = nullptr;
  CUresult (*cuGetErrorName)(CUresult, const char**) = nullptr;
  CUresult (*cuCtxPushCurrent)(CUcontext) = nullptr;
  CUresult (*cuCtxPopCurrent)(CUcontext*) = nullptr;
  CUresult (*cuCtxGetDevice)(CUdevice*) = nullptr;
  CUresult (*cuDeviceGetName)(char*, int, CUdevice) = nullptr;
  CUresult (*cuDeviceGetAttribute)(int*, CUdevice_attribute, CUdevice) = nullptr;
  CUresult (*cuDeviceGetPCIBusId)(char*, int, CUdevice) = nullptr;
  CUresult (*cuEventCreate)(CUevent*, unsigned int) = nullptr;
  CUresult (*cuEventRecord)(CUevent, CUstream) = nullptr;
  CUresult (*cuEventQuery)(CUevent) = nullptr;
  CUresult (*cuEventDestroy)(CUevent) = nullptr;

  // "CUDA_ERROR_INVALID_CONTEXT" for a result.
  std::string ErrorName(CUresult result) const;
  // Logs "<call> failed: <name> (<detail>)" and returns `status`.
  GpaStatus Failure(GpaStatus status, CUresult result, std::string_view call, std::string_view detail = {}) const;
};

// The process's driver, loaded once; nullptr (with the reason logged on each call) when libcuda.so.1 is
// missing or lacks an entry point.
const CudaDriver* LoadCudaDriver();

// Makes `context` current on this thread for a scope (cuCtxPushCurrent / cuCtxPopCurrent).
class ScopedCurrentContext {
 public:
  ScopedCurrentContext(const CudaDriver& driver, CUcontext context);
  ~ScopedCurrentContext();
  ScopedCurrentContext(const ScopedCurrentContext&) = delete;
  ScopedCurrentContext& operator=(const ScopedCurrentContext&) = delete;

  CUresult result() const { return result_; }

 private:
  const CudaDriver& driver_;
  CUresult result_;
};

}  // namespace opengpa::nvidia

#endif  // OPENGPA_NVIDIA_CUDA_DRIVER_H_
