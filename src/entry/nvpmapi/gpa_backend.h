// The GPA v3 libraries NvPmApi works through: libGPUPerfAPIGL.so for OpenGL contexts, libGPUPerfAPICUDA.so for
// CUDA contexts, loaded on first use from the folder libNvPmApi.Core.so itself was loaded from (then the
// dynamic loader's path) by the loader every OpenGPA client uses (src/client), initialized once, and kept until
// Shutdown. One process can measure both APIs:
// each library has its own core, catalog and backend, exactly as a GPA v3 client of it would see them.
#ifndef OPENGPA_ENTRY_NVPMAPI_GPA_BACKEND_H_
#define OPENGPA_ENTRY_NVPMAPI_GPA_BACKEND_H_

#include <memory>
#include <string>

#include "client/loaded_gpa_library.h"
#include "gpu_performance_api/gpu_perf_api.h"

namespace opengpa::nvpm {

// kOther: a GPA library named by path (OpenGpaNvPmCreateContextFromGpaLibrary: Vulkan, OpenCL, a test backend).
enum class Api { kOpenGl, kCuda, kOther };

const char* ApiName(Api api);

struct GpaBackend {
  Api api;
  std::unique_ptr<client::LoadedGpaLibrary> library;
  GpaFunctionTable gpa;  // library->Table()
  // False when the application had already initialized this GPA library itself (a GPA v3 client and an
  // NvPmApi client in one process share it): NvPmApi's Shutdown then leaves it initialized.
  bool initialized_here = true;
};

// The initialized library for `api`; nullptr and *why when it cannot be loaded or initialized.
GpaBackend* LoadBackend(Api api, std::string* why);
// The same for the GPA library at `path` (kOther).
GpaBackend* LoadBackendFile(const std::string& path, std::string* why);

// GpaDestroy and dlclose of every library loaded (NvPmApi's Shutdown).
void UnloadBackends();

// "GpaOpenContext failed: kGpaStatusErrorHardwareNotSupported" style text for a GPA status.
std::string GpaStatusText(const GpaBackend& backend, GpaStatus status);

}  // namespace opengpa::nvpm

#endif  // OPENGPA_ENTRY_NVPMAPI_GPA_BACKEND_H_
