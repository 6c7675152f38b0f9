#include "profiler/kernel_launch.h"

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cxxabi.h>

#include <cstdlib>
#include <memory>

namespace opengpa::inject_cuda {
namespace {

void SetDimensions(KernelLaunch* launch, std::uint64_t gx, std::uint64_t gy, std::uint64_t gz, std::uint64_t bx,
                   std::uint64_t by, std::uint64_t bz) {
  launch->grid = {gx, gy, gz};
  launch->block = {bx, by, bz};
  launch->dimensions_known = true;
}

void SetStream(KernelLaunch* launch, const CUpti_CallbackData& data, CUstream stream, bool per_thread) {
  std::uint32_t id = 0;
  if (cuptiGetStreamIdEx(data.context, stream, per_thread ? 1 : 0, &id) == CUPTI_SUCCESS) launch->stream_id = id;
  // The _ptsz entry points take 0 for the calling thread's default stream.
  launch->stream = per_thread && stream == nullptr ? CU_STREAM_PER_THREAD : stream;
  launch->stream_known = true;
}

}  // namespace

bool IsKernelLaunch(CUpti_CallbackDomain domain, CUpti_CallbackId cbid) {
  if (domain == CUPTI_CB_DOMAIN_DRIVER_API) {
    switch (cbid) {
      case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
      case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
      case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
      case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz:
      case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
      case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz: return true;
      default: return false;
    }
  }
  if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) {
    switch (cbid) {
      case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000:
      case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000:
      case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060:
      case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060:
      case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000:
      case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000:
      case CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000:
      case CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000: return true;
      default: return false;
    }
  }
  return false;
}

KernelLaunch DescribeLaunch(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const CUpti_CallbackData& data) {
  KernelLaunch launch;
  launch.name = Demangle(data.symbolName);
  const void* params = data.functionParams;
  if (params == nullptr) return launch;
  if (domain == CUPTI_CB_DOMAIN_DRIVER_API) {
    switch (cbid) {
      case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
      case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz: {
        const auto* p = static_cast<const cuLaunchKernel_params*>(params);
        SetDimensions(&launch, p->gridDimX, p->gridDimY, p->gridDimZ, p->blockDimX, p->blockDimY, p->blockDimZ);
        SetStream(&launch, data, p->hStream, cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz);
        break;
      }
      case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
      case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz: {
        const auto* p = static_cast<const cuLaunchCooperativeKernel_params*>(params);
        SetDimensions(&launch, p->gridDimX, p->gridDimY, p->gridDimZ, p->blockDimX, p->blockDimY, p->blockDimZ);
        SetStream(&launch, data, p->hStream, cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz);
        break;
      }
      case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
      case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz: {
        const auto* p = static_cast<const cuLaunchKernelEx_params*>(params);
        if (p->config) {
          const CUlaunchConfig& c = *p->config;
          SetDimensions(&launch, c.gridDimX, c.gridDimY, c.gridDimZ, c.blockDimX, c.blockDimY, c.blockDimZ);
          SetStream(&launch, data, c.hStream, cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz);
        }
        break;
      }
      default: break;
    }
    return launch;
  }
  switch (cbid) {
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000: {
      const auto* p = static_cast<const cudaLaunchKernel_v7000_params*>(params);
      SetDimensions(&launch, p->gridDim.x, p->gridDim.y, p->gridDim.z, p->blockDim.x, p->blockDim.y, p->blockDim.z);
      SetStream(&launch, data, p->stream, cbid == CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000);
      break;
    }
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000: {
      const auto* p = static_cast<const cudaLaunchCooperativeKernel_v9000_params*>(params);
      SetDimensions(&launch, p->gridDim.x, p->gridDim.y, p->gridDim.z, p->blockDim.x, p->blockDim.y, p->blockDim.z);
      SetStream(&launch, data, p->stream, cbid == CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000);
      break;
    }
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060: {
      const auto* p = static_cast<const cudaLaunchKernelExC_v11060_params*>(params);
      if (p->config) {
        const cudaLaunchConfig_t& c = *p->config;
        SetDimensions(&launch, c.gridDim.x, c.gridDim.y, c.gridDim.z, c.blockDim.x, c.blockDim.y, c.blockDim.z);
        SetStream(&launch, data, c.stream, cbid == CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060);
      }
      break;
    }
    default: break;  // __cudaLaunchKernel: parameters not published; the nested driver callback supplies them
  }
  return launch;
}

std::string Demangle(const char* symbol) {
  if (symbol == nullptr || *symbol == '\0') return "<unnamed kernel>";
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> demangled(abi::__cxa_demangle(symbol, nullptr, nullptr, &status), std::free);
  return status == 0 && demangled ? std::string(demangled.get()) : std::string(symbol);
}

}  // namespace opengpa::inject_cuda
