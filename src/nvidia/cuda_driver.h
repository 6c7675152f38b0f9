// The CUDA driver (libcuda) as OpenGPA reaches it: the one loader and the one table of entry points for the CUDA
// backend, the per-launch profiler (src/profiler: graphs, the L2 flush) and the monitor's PM sampling. It is loaded at
// run time (never linked), so libGPUPerfAPICUDA.so, the injection library and libOpenGPAMonitor.so all load, and report
// a clean status, on machines without an NVIDIA driver; once loaded it stays loaded for the life of the process, like
// the driver itself.
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

  // Entry points of newer drivers, or that one user needs: resolved when the driver has them (null otherwise).
  // Each group's flag says whether all of the group is there; its users check it.
  // Reading an instantiated graph's kernels (the per-launch profiler's graph_kernels.h).
  CUresult (*cuGraphGetNodes)(CUgraph, CUgraphNode*, size_t*) = nullptr;
  CUresult (*cuGraphGetEdges)(CUgraph, CUgraphNode*, CUgraphNode*, CUgraphEdgeData*, size_t*) = nullptr;  // _v2
  CUresult (*cuGraphNodeGetType)(CUgraphNode, CUgraphNodeType*) = nullptr;
  CUresult (*cuGraphChildGraphNodeGetGraph)(CUgraphNode, CUgraph*) = nullptr;
  CUresult (*cuGraphKernelNodeGetParams)(CUgraphNode, CUDA_KERNEL_NODE_PARAMS*) = nullptr;  // _v2
  CUresult (*cuFuncGetName)(const char**, CUfunction) = nullptr;
  CUresult (*cuKernelGetName)(const char**, CUkernel) = nullptr;
  bool has_graph_reading = false;
  // Replaying a graph's nodes one by one on a stream (graph_expansion.h).
  CUresult (*cuGraphKernelNodeGetAttribute)(CUgraphNode, CUkernelNodeAttrID, CUkernelNodeAttrValue*) = nullptr;
  CUresult (*cuGraphMemcpyNodeGetParams)(CUgraphNode, CUDA_MEMCPY3D*) = nullptr;
  CUresult (*cuGraphMemsetNodeGetParams)(CUgraphNode, CUDA_MEMSET_NODE_PARAMS*) = nullptr;
  CUresult (*cuGraphEventRecordNodeGetEvent)(CUgraphNode, CUevent*) = nullptr;
  CUresult (*cuGraphEventWaitNodeGetEvent)(CUgraphNode, CUevent*) = nullptr;
  CUresult (*cuGraphNodeSetEnabled)(CUgraphExec, CUgraphNode, unsigned int) = nullptr;
  CUresult (*cuGraphNodeGetEnabled)(CUgraphExec, CUgraphNode, unsigned int*) = nullptr;
  CUresult (*cuGraphExecGetFlags)(CUgraphExec, cuuint64_t*) = nullptr;
  CUresult (*cuFuncGetParamInfo)(CUfunction, size_t, size_t*, size_t*) = nullptr;
  CUresult (*cuKernelGetFunction)(CUfunction*, CUkernel) = nullptr;
  CUresult (*cuLaunchKernelEx)(const CUlaunchConfig*, CUfunction, void**, void**) = nullptr;
  CUresult (*cuMemcpy3DAsync)(const CUDA_MEMCPY3D*, CUstream) = nullptr;  // _v2
  CUresult (*cuMemsetD8Async)(CUdeviceptr, unsigned char, size_t, CUstream) = nullptr;
  CUresult (*cuMemsetD16Async)(CUdeviceptr, unsigned short, size_t, CUstream) = nullptr;
  CUresult (*cuMemsetD32Async)(CUdeviceptr, unsigned int, size_t, CUstream) = nullptr;
  CUresult (*cuMemsetD2D8Async)(CUdeviceptr, size_t, unsigned char, size_t, size_t, CUstream) = nullptr;
  CUresult (*cuMemsetD2D16Async)(CUdeviceptr, size_t, unsigned short, size_t, size_t, CUstream) = nullptr;
  CUresult (*cuMemsetD2D32Async)(CUdeviceptr, size_t, unsigned int, size_t, size_t, CUstream) = nullptr;
  CUresult (*cuStreamWaitEvent)(CUstream, CUevent, unsigned int) = nullptr;
  bool has_graph_replay = false;
  // The L2 flush kernel (l2_flush.h), and the context of its own it may run in.
  CUresult (*cuModuleLoadData)(CUmodule*, const void*) = nullptr;
  CUresult (*cuModuleUnload)(CUmodule) = nullptr;
  CUresult (*cuModuleGetFunction)(CUfunction*, CUmodule, const char*) = nullptr;
  CUresult (*cuMemAlloc)(CUdeviceptr*, size_t) = nullptr;                // _v2
  CUresult (*cuMemFree)(CUdeviceptr) = nullptr;                          // _v2
  CUresult (*cuMemsetD8)(CUdeviceptr, unsigned char, size_t) = nullptr;  // _v2
  CUresult (*cuLaunchKernel)(CUfunction, unsigned int, unsigned int, unsigned int, unsigned int, unsigned int,
                             unsigned int, unsigned int, CUstream, void**, void**) = nullptr;
  bool has_l2_flush = false;
  CUresult (*cuCtxCreate)(CUcontext*, unsigned int, CUdevice) = nullptr;  // _v2
  CUresult (*cuCtxDestroy)(CUcontext) = nullptr;                          // _v2
  CUresult (*cuStreamCreate)(CUstream*, unsigned int) = nullptr;
  CUresult (*cuEventSynchronize)(CUevent) = nullptr;
  bool has_own_context = false;  // with cuStreamWaitEvent
  // Each on its own.
  CUresult (*cuStreamIsCapturing)(CUstream, CUstreamCaptureStatus*) = nullptr;
  CUresult (*cuStreamSynchronize)(CUstream) = nullptr;

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

// The process's driver for the GPA library and the per-launch profiler: libcuda.so.1, loaded once; nullptr (with
// the reason logged on each call) when it is missing, lacks a required entry point or does not initialise.
const CudaDriver* LoadCudaDriver();

// LoadCudaDriver's table, or an empty one when the driver cannot be loaded: every entry point null, every group
// flag false (for code that checks the entry points it needs, such as the per-launch profiler's).
const CudaDriver& CudaDriverOrEmpty();

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
