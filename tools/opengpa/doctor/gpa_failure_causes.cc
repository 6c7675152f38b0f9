#include "gpa_failure_causes.h"

namespace opengpa::doctor {
namespace {

bool Mentions(const std::string& text, std::initializer_list<const char*> words) {
  for (const char* word : words) {
    if (text.find(word) != std::string::npos) return true;
  }
  return false;
}

std::string Joined(const std::vector<std::string>& lines, const char* separator) {
  std::string text;
  for (const std::string& line : lines) text += (text.empty() ? "" : separator) + line;
  return text;
}

}  // namespace

std::string ProfilingPermissionFix() {
  return "GPU performance counters are restricted to administrators (NVIDIA's ERR_NVGPUCTRPERM). As root, allow "
         "every user: put `options nvidia NVreg_RestrictProfilingToAdminUsers=0` in "
         "/etc/modprobe.d/nvidia-profiling.conf and reload the nvidia module (or reboot); or run as root. In a "
         "container, grant the capability CAP_SYS_ADMIN (docker run --cap-add=SYS_ADMIN). Without it, GPU times, "
         "Vulkan and OpenGL pipeline statistics and NVML (opengpa monitor) still work";
}

Cause ExplainLibraryNotLoaded(const std::string& file_name, const std::vector<std::string>& tried,
                              const std::string& load_errors, bool chosen_by_override) {
  const std::string message = file_name + " did not load; tried " + Joined(tried, ", ") + ":" + load_errors;
  if (Mentions(load_errors, {"libcupti"})) {
    return {"cupti_not_found", message,
            file_name +
                " needs CUPTI (libcupti.so) from the CUDA toolkit: install the toolkit, or add its CUPTI "
                "folder (<toolkit>/extras/CUPTI/lib64 or <toolkit>/lib64) to LD_LIBRARY_PATH"};
  }
  if (chosen_by_override) {
    return {"gpa_library_not_found", message,
            "--library-dir or $OPENGPA_LIBRARY_DIR names a folder without a loadable " + file_name +
                ": point it at the lib/ folder of an OpenGPA build or install, or unset it to use the opengpa "
                "executable's ../lib and the loader's path (LD_LIBRARY_PATH)"};
  }
  return {"gpa_library_not_found", message,
          "put " + file_name +
              " in the lib/ folder beside the opengpa executable's bin/ (as `cmake --install` "
              "does), name its folder with --library-dir or $OPENGPA_LIBRARY_DIR, or add it to LD_LIBRARY_PATH; "
              "rebuild with this API's OPENGPA_WITH_* option on if it was never built"};
}

Cause ExplainGpaFailure(const std::string& call, const std::string& status_text, const std::vector<std::string>& log) {
  const std::string said = Joined(log, "; ");
  const std::string message =
      call + " returned " + status_text + (said.empty() ? " (GPA logged nothing)" : "; GPA said: " + said);
  // The CUDA library loads without CUPTI and says so when a context needs it (src/nvidia/cupti_loader.cc).
  if (Mentions(said, {"CUPTI (libcupti.so"}) && Mentions(said, {"could not be loaded"})) {
    return {"cupti_not_found", message,
            "CUDA's counters need CUPTI (libcupti.so.13) from the CUDA toolkit: install the toolkit, add its CUPTI "
            "folder (<toolkit>/extras/CUPTI/lib64 or <toolkit>/lib64) to LD_LIBRARY_PATH, or name the library "
            "in OPENGPA_CUPTI_LIBRARY"};
  }
  if (Mentions(said,
               {"CUPTI_ERROR_INSUFFICIENT_PRIVILEGES", "NVreg_RestrictProfilingToAdminUsers", "ERR_NVGPUCTRPERM"})) {
    return {"profiling_not_permitted", message, ProfilingPermissionFix()};
  }
  if (Mentions(said, {"CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED", "already in use", "CUPTI_ERROR_IN_USE"})) {
    return {"counters_in_use", message,
            "another profiler holds the GPU's counters (ncu, nsys, DCGM profiling metrics, `opengpa monitor` with "
            "PM sampling): stop it and run the doctor again"};
  }
  if (Mentions(said, {"MIG_DEVICE_NOT_SUPPORTED", "VIRTUALIZED_DEVICE_NOT_SUPPORTED",
                      "CONFIDENTIAL_COMPUTING_NOT_SUPPORTED", "CMP_DEVICE_NOT_SUPPORTED"})) {
    return {"hardware_not_supported", message,
            "CUPTI does not profile this kind of GPU (a MIG slice, a vGPU, confidential computing or a CMP "
            "board): profile on a whole, bare-metal GPU; GPU times and NVML still work here"};
  }
  if (call == "GpaOpenContext") {
    return {"context_not_opened", message,
            "the driver refused what GPA needs to open a context; run `opengpa doctor -v --api <api>` for GPA's "
            "full log, and see docs/doctor.md for this API's requirements"};
  }
  return {"gpa_call_failed", message, "run `opengpa doctor -v --api <api>` for GPA's full log; docs/doctor.md"};
}

}  // namespace opengpa::doctor
