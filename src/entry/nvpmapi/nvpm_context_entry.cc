// CreateContextFrom*, DestroyContext: an NvPmApi context is a GPA v3 context of the API's library.
#include <cstdint>
#include <string>

#include "entry/nvpmapi/nvpm_entry.h"
#include "entry/nvpmapi/nvpm_state.h"
#include "gpu_performance_api/gpu_perf_api_cuda.h"

namespace opengpa::nvpm::entry {
namespace {

NVPMRESULT OpenContext(const char* function, Api api, void* open_info, NVPMContext* handle,
                       const char* gpa_library = nullptr) {
  if (handle == nullptr) return Fail(NVPM_ERROR_INVALID_PARAMETER, "{}: perfCtx is NULL", function);
  std::string why;
  GpaBackend* backend = gpa_library != nullptr ? LoadBackendFile(gpa_library, &why) : LoadBackend(api, &why);
  if (backend == nullptr) return Fail(NVPM_ERROR_CONTEXT_NOT_SUPPORTED, "{}: {}", function, why);
  auto context = std::make_unique<Context>();
  context->backend = backend;
  GpaStatus status = backend->gpa.GpaOpenContext(open_info, kGpaOpenContextDefaultBit, &context->gpa);
  if (status == kGpaStatusErrorContextAlreadyOpen) {
    return Fail(NVPM_ERROR_INVALID_PARAMETER, "{}: an NvPmApi or GPA context is already open on that {} context",
                function, ApiName(api));
  }
  if (status != kGpaStatusOk) {
    return Fail(NVPM_ERROR_CONTEXT_NOT_SUPPORTED, "{}: GpaOpenContext of the {} context failed: {} ({})", function,
                ApiName(api), GpaStatusText(*backend, status), LastMessage());
  }
  if (!BuildCatalog(*backend, context->gpa, &context->catalog, &why)) {
    backend->gpa.GpaCloseContext(context->gpa);
    return Fail(NVPM_ERROR_INTERNAL, "{}: {}", function, why);
  }
  context->handle = Nvpm().next_handle++;
  *handle = context->handle;
  Nvpm().contexts.emplace(context->handle, std::move(context));
  return NVPM_OK;
}

// NvPmApi passes the caller's OpenGL or CUDA context as a 64-bit integer (APIContextHandle): the caller's pointer,
// cast. Casting it back is the API's contract, so performance-no-int-to-ptr has nothing to offer here.
template <typename Pointer>
Pointer ContextPointer(APIContextHandle handle) {
  return reinterpret_cast<Pointer>(static_cast<std::uintptr_t>(handle));  // NOLINT(performance-no-int-to-ptr)
}

}  // namespace

// `gl_context`: the EGLContext or GLXContext current on the calling thread (as libGPUPerfAPIGL.so takes).
NVPMRESULT CreateContextFromOGLContext(APIContextHandle gl_context, NVPMContext* context) {
  return Guarded("CreateContextFromOGLContext", [&] {
    if (gl_context == 0) {
      return Fail(NVPM_ERROR_INVALID_PARAMETER, "CreateContextFromOGLContext: the OpenGL context is NULL");
    }
    return OpenContext("CreateContextFromOGLContext", Api::kOpenGl, ContextPointer<void*>(gl_context), context);
  });
}

NVPMRESULT CreateContextFromCudaContext(APIContextHandle cuda_context, NVPMContext* context) {
  return Guarded("CreateContextFromCudaContext", [&] {
    if (cuda_context == 0) {
      return Fail(NVPM_ERROR_INVALID_PARAMETER, "CreateContextFromCudaContext: the CUcontext is NULL");
    }
    GpaCudaContextOpenInfo info = GPA_CUDA_CONTEXT_OPEN_INFO_INIT;
    info.context = ContextPointer<CUcontext>(cuda_context);
    return OpenContext("CreateContextFromCudaContext", Api::kCuda, &info, context);
  });
}

// OpenGPA's extension (NvPmApi-OpenGPA.h): a context for a chip with no GPU, as NvPmApiQuery's --chip.
NVPMRESULT CreateContextFromChipName(const char* chip_name, NVPMContext* context) {
  return Guarded("OpenGpaNvPmCreateContextFromChipName", [&] {
    if (chip_name == nullptr || *chip_name == '\0') {
      return Fail(NVPM_ERROR_INVALID_PARAMETER, "OpenGpaNvPmCreateContextFromChipName: the chip name is empty");
    }
    GpaCudaContextOpenInfo info = GPA_CUDA_CONTEXT_OPEN_INFO_INIT;
    info.chip_name = chip_name;
    return OpenContext("OpenGpaNvPmCreateContextFromChipName", Api::kCuda, &info, context);
  });
}

// OpenGPA's extension: a context of any GPA v3 library (Vulkan, OpenCL, a test backend) on what its
// GpaOpenContext takes.
NVPMRESULT CreateContextFromGpaLibrary(const char* gpa_library, void* open_info, NVPMContext* context) {
  return Guarded("OpenGpaNvPmCreateContextFromGpaLibrary", [&] {
    if (gpa_library == nullptr || *gpa_library == '\0' || open_info == nullptr) {
      return Fail(NVPM_ERROR_INVALID_PARAMETER,
                  "OpenGpaNvPmCreateContextFromGpaLibrary: the library path or the "
                  "open info is NULL");
    }
    return OpenContext("OpenGpaNvPmCreateContextFromGpaLibrary", Api::kOther, open_info, context, gpa_library);
  });
}

NVPMRESULT DestroyContext(NVPMContext handle) {
  return WithContext("DestroyContext", handle, [&](Context& context) {
    AbandonExperiment(context);
    AbandonInterval(context);
    context.backend->gpa.GpaCloseContext(context.gpa);
    Nvpm().contexts.erase(handle);
    return NVPM_OK;
  });
}

}  // namespace opengpa::nvpm::entry
