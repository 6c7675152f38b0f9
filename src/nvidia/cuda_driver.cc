#include "nvidia/cuda_driver.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "platform/logging.h"

namespace opengpa::nvidia {
namespace {

std::string ResolveAll(const DynamicLibrary& library, CudaDriver* d) {
  EntryPointResolver resolve(library);
  resolve("cuInit", &d->cuInit);
  resolve("cuGetErrorName", &d->cuGetErrorName);
  resolve("cuGetErrorString", &d->cuGetErrorString);
  resolve("cuDeviceGetCount", &d->cuDeviceGetCount);
  resolve("cuDeviceGet", &d->cuDeviceGet);
  resolve("cuDeviceGetName", &d->cuDeviceGetName);
  resolve("cuDeviceGetUuid_v2", &d->cuDeviceGetUuid);
  resolve("cuDeviceGetAttribute", &d->cuDeviceGetAttribute);
  resolve("cuDeviceGetPCIBusId", &d->cuDeviceGetPCIBusId);
  resolve("cuDevicePrimaryCtxRetain", &d->cuDevicePrimaryCtxRetain);
  resolve("cuDevicePrimaryCtxRelease_v2", &d->cuDevicePrimaryCtxRelease);
  resolve("cuDevicePrimaryCtxGetState", &d->cuDevicePrimaryCtxGetState);
  resolve("cuCtxSetCurrent", &d->cuCtxSetCurrent);
  resolve("cuCtxGetCurrent", &d->cuCtxGetCurrent);
  resolve("cuCtxPushCurrent_v2", &d->cuCtxPushCurrent);
  resolve("cuCtxPopCurrent_v2", &d->cuCtxPopCurrent);
  resolve("cuCtxGetDevice", &d->cuCtxGetDevice);
  resolve("cuCtxSynchronize", &d->cuCtxSynchronize);
  resolve("cuEventCreate", &d->cuEventCreate);
  resolve("cuEventRecord", &d->cuEventRecord);
  resolve("cuEventQuery", &d->cuEventQuery);
  resolve("cuEventDestroy_v2", &d->cuEventDestroy);
  return resolve.Missing();
}

void ResolveOptional(const DynamicLibrary& library, CudaDriver* d) {
  EntryPointResolver reading(library);
  reading("cuGraphGetNodes", &d->cuGraphGetNodes);
  reading("cuGraphGetEdges_v2", &d->cuGraphGetEdges);
  reading("cuGraphNodeGetType", &d->cuGraphNodeGetType);
  reading("cuGraphChildGraphNodeGetGraph", &d->cuGraphChildGraphNodeGetGraph);
  reading("cuGraphKernelNodeGetParams_v2", &d->cuGraphKernelNodeGetParams);
  reading("cuFuncGetName", &d->cuFuncGetName);
  reading("cuKernelGetName", &d->cuKernelGetName);
  d->has_graph_reading = reading.Complete();

  EntryPointResolver replay(library);
  replay("cuGraphNodeGetType", &d->cuGraphNodeGetType);
  replay("cuGraphKernelNodeGetParams_v2", &d->cuGraphKernelNodeGetParams);
  replay("cuGraphKernelNodeGetAttribute", &d->cuGraphKernelNodeGetAttribute);
  replay("cuGraphMemcpyNodeGetParams", &d->cuGraphMemcpyNodeGetParams);
  replay("cuGraphMemsetNodeGetParams", &d->cuGraphMemsetNodeGetParams);
  replay("cuGraphEventRecordNodeGetEvent", &d->cuGraphEventRecordNodeGetEvent);
  replay("cuGraphEventWaitNodeGetEvent", &d->cuGraphEventWaitNodeGetEvent);
  replay("cuGraphNodeSetEnabled", &d->cuGraphNodeSetEnabled);
  replay("cuGraphNodeGetEnabled", &d->cuGraphNodeGetEnabled);
  replay("cuGraphExecGetFlags", &d->cuGraphExecGetFlags);
  replay("cuFuncGetParamInfo", &d->cuFuncGetParamInfo);
  replay("cuKernelGetFunction", &d->cuKernelGetFunction);
  replay("cuFuncGetName", &d->cuFuncGetName);
  replay("cuLaunchKernelEx", &d->cuLaunchKernelEx);
  replay("cuMemcpy3DAsync_v2", &d->cuMemcpy3DAsync);
  replay("cuMemsetD8Async", &d->cuMemsetD8Async);
  replay("cuMemsetD16Async", &d->cuMemsetD16Async);
  replay("cuMemsetD32Async", &d->cuMemsetD32Async);
  replay("cuMemsetD2D8Async", &d->cuMemsetD2D8Async);
  replay("cuMemsetD2D16Async", &d->cuMemsetD2D16Async);
  replay("cuMemsetD2D32Async", &d->cuMemsetD2D32Async);
  replay("cuStreamWaitEvent", &d->cuStreamWaitEvent);
  d->has_graph_replay = replay.Complete();

  EntryPointResolver flush(library);
  flush("cuModuleLoadData", &d->cuModuleLoadData);
  flush("cuModuleUnload", &d->cuModuleUnload);
  flush("cuModuleGetFunction", &d->cuModuleGetFunction);
  flush("cuMemAlloc_v2", &d->cuMemAlloc);
  flush("cuMemFree_v2", &d->cuMemFree);
  flush("cuMemsetD8_v2", &d->cuMemsetD8);
  flush("cuLaunchKernel", &d->cuLaunchKernel);
  d->has_l2_flush = flush.Complete();

  EntryPointResolver own_context(library);
  own_context("cuCtxCreate_v2", &d->cuCtxCreate);
  own_context("cuCtxDestroy_v2", &d->cuCtxDestroy);
  own_context("cuStreamCreate", &d->cuStreamCreate);
  own_context("cuEventSynchronize", &d->cuEventSynchronize);
  own_context("cuStreamWaitEvent", &d->cuStreamWaitEvent);
  d->has_own_context = own_context.Complete();

  library.Resolve("cuStreamIsCapturing", &d->cuStreamIsCapturing);
  library.Resolve("cuStreamSynchronize", &d->cuStreamSynchronize);
}

}  // namespace

std::unique_ptr<CudaDriverLibrary> CudaDriverLibrary::Load(const std::vector<std::string>& candidates,
                                                           GpaStatus* status, std::string* error) {
  std::string reason;
  // Never unloaded: the driver keeps process-wide state (contexts, CUPTI's subscription) once initialised.
  std::unique_ptr<DynamicLibrary> library = DynamicLibrary::Open(candidates, &reason, DynamicLibrary::Unload::kNever);
  if (library == nullptr) {
    *status = kGpaStatusErrorLibLoadFailed;
    *error = fmt::format("cannot load the CUDA driver {}: {}", fmt::join(candidates, " or "), reason);
    return nullptr;
  }
  CudaDriver driver;
  if (const std::string missing = ResolveAll(*library, &driver); !missing.empty()) {
    *status = kGpaStatusErrorDriverNotSupported;
    *error = fmt::format("{} does not export {}", library->Name(), missing);
    return nullptr;
  }
  ResolveOptional(*library, &driver);
  if (const CUresult result = driver.cuInit(0); result != CUDA_SUCCESS) {
    *status = kGpaStatusErrorDriverNotSupported;
    *error = "cuInit failed: " + driver.ErrorName(result);
    return nullptr;
  }
  return std::make_unique<CudaDriverLibrary>(PrivateKey{}, std::move(library), driver);
}

std::vector<std::string> DefaultCudaDriverCandidates() {
  return LibraryCandidates({}, "OPENGPA_CUDA_LIBRARY", {"libcuda.so.1"});
}

std::string CudaDriver::ErrorName(CUresult result) const {
  const char* name = nullptr;
  if (cuGetErrorName == nullptr || cuGetErrorName(result, &name) != CUDA_SUCCESS || name == nullptr) {
    return "CUresult " + std::to_string(static_cast<int>(result));
  }
  return name;
}

std::string CudaDriver::Describe(CUresult result) const {
  const char* text = nullptr;
  if (cuGetErrorString == nullptr || cuGetErrorString(result, &text) != CUDA_SUCCESS || text == nullptr) {
    text = "unknown CUDA error";
  }
  return fmt::format("{} ({})", text, static_cast<int>(result));
}

GpaStatus CudaDriver::Failure(GpaStatus status, CUresult result, std::string_view call, std::string_view detail) const {
  if (detail.empty()) return LogError(status, "{} failed: {}", call, ErrorName(result));
  return LogError(status, "{} failed: {} ({})", call, ErrorName(result), detail);
}

const CudaDriver* LoadCudaDriver() {
  struct Loaded {
    std::unique_ptr<CudaDriverLibrary> library;
    std::string error;
  };
  // Never destroyed: exit handlers registered before this first call (the CUDA injection's, which decodes its
  // last batch at exit) run after static destructors of later-constructed objects, and must still find the
  // driver's entry points (a destroyed table crashed `opengpa profile`'s programs at exit on the H100).
  static const Loaded* const loaded = [] {
    auto* result = new Loaded();
    GpaStatus status = kGpaStatusOk;
    result->library = CudaDriverLibrary::Load({"libcuda.so.1"}, &status, &result->error);
    return result;
  }();
  if (loaded->library == nullptr) {
    LogError(kGpaStatusErrorDriverNotSupported, "{}", loaded->error);
    return nullptr;
  }
  return &loaded->library->Api();
}

const CudaDriver& CudaDriverOrEmpty() {
  static const CudaDriver empty;
  const CudaDriver* driver = LoadCudaDriver();
  return driver != nullptr ? *driver : empty;
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
