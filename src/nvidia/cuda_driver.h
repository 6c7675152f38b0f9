// The CUDA driver (libcuda) as OpenGPA reaches it: one loader for the CUDA backend, the CLI's CUDA injection
// and the monitor's PM sampling. It is loaded at run time (never linked), so libGPUPerfAPICUDA.so, the
// injection library and libOpenGPAMonitor.so all load, and report a clean status, on machines without an
// NVIDIA driver; once loaded it stays loaded for the life of the process, like the driver itself.
#ifndef OPENGPA_NVIDIA_CUDA_DRIVER_H_
#define OPENGPA_NVIDIA_CUDA_DRIVER_H_

#include <cuda.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "gpu_performance_api/gpu_perf_api_types.h"
#include "platform/dynamic_library.h"

namespace opengpa::nvidia {

// Every driver entry point OpenGPA calls (the _v2 ones under their plain names).
struct CudaDriver {
  CUresult (*cuInit)(unsigned int) = nullptr;
  CUresult (*cuGetErrorName)(CUresult, const char**) = nullptr;
  CUresult (*cuGetErrorString)(CUresult, const char**) = nullptr;
  CUresult (*cuDeviceGetCount)(int*) = nullptr;
  CUresult (*cuDeviceGet)(CUdevice*, int) = nullptr;
  CUresult (*cuDeviceGetName)(char*, int, CUdevice) = nullptr;
  CUresult (*cuDeviceGetUuid)(CUuuid*, CUdevice) = nullptr;  // cuDeviceGetUuid_v2
  CUresult (*cuDeviceGetAttribute)(int*, CUdevice_attribute, CUdevice) = nullptr;
  CUresult (*cuDeviceGetPCIBusId)(char*, int, CUdevice) = nullptr;
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext*, CUdevice) = nullptr;
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice) = nullptr;  // cuDevicePrimaryCtxRelease_v2
  CUresult (*cuDevicePrimaryCtxGetState)(CUdevice, unsigned int*, int*) = nullptr;
  CUresult (*cuCtxSetCurrent)(CUcontext) = nullptr;
  CUresult (*cuCtxGetCurrent)(CUcontext*) = nullptr;
  CUresult (*cuCtxPushCurrent)(CUcontext) = nullptr;  // cuCtxPushCurrent_v2
  CUresult (*cuCtxPopCurrent)(CUcontext*) = nullptr;  // cuCtxPopCurrent_v2
  CUresult (*cuCtxGetDevice)(CUdevice*) = nullptr;
  CUresult (*cuCtxSynchronize)() = nullptr;  // a streaming session's end waits for the work it spans
  CUresult (*cuEventCreate)(CUevent*, unsigned int) = nullptr;
  CUresult (*cuEventRecord)(CUevent, CUstream) = nullptr;
  CUresult (*cuEventQuery)(CUevent) = nullptr;
  CUresult (*cuEventDestroy)(CUevent) = nullptr;  // cuEventDestroy_v2

  // "CUDA_ERROR_INVALID_CONTEXT" for a result.
  std::string ErrorName(CUresult result) const;
  // The driver's sentence and the number: "invalid device context (201)".
  std::string Describe(CUresult result) const;
  // Logs "<call> failed: <name> (<detail>)" and returns `status`.
  GpaStatus Failure(GpaStatus status, CUresult result, std::string_view call, std::string_view detail = {}) const;
};

// A loaded libcuda with every entry point of CudaDriver resolved and cuInit(0) done.
class CudaDriverLibrary {
 public:
  // Tries each candidate in order. On failure returns nullptr and sets *status and *error:
  // kGpaStatusErrorLibLoadFailed  "cannot load the CUDA driver <candidates>: <dlerror of each>"
  // kGpaStatusErrorDriverNotSupported  "<library> does not export <entry point>" or "cuInit failed: <name>"
  static std::unique_ptr<CudaDriverLibrary> Load(const std::vector<std::string>& candidates, GpaStatus* status,
                                                 std::string* error);

  struct PrivateKey {  // only Load constructs one
   private:
    PrivateKey() = default;
    friend class CudaDriverLibrary;
  };
  CudaDriverLibrary(PrivateKey, std::unique_ptr<DynamicLibrary> library, const CudaDriver& driver)
      : library_(std::move(library)), driver_(driver) {}
  CudaDriverLibrary(const CudaDriverLibrary&) = delete;
  CudaDriverLibrary& operator=(const CudaDriverLibrary&) = delete;

  const CudaDriver& Api() const { return driver_; }
  const std::string& Path() const { return library_->Name(); }
  std::string Describe(CUresult result) const { return driver_.Describe(result); }

 private:
  std::unique_ptr<DynamicLibrary> library_;
  CudaDriver driver_;
};

// $OPENGPA_CUDA_LIBRARY when set (an explicit path for unusual installs), then libcuda.so.1.
std::vector<std::string> DefaultCudaDriverCandidates();

// The process's driver for the GPA library and the CLI's injection: libcuda.so.1, loaded once; nullptr (with
// the reason logged on each call) when it is missing, lacks an entry point or does not initialise.
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
