// libcupti, loaded when it is first needed rather than by the dynamic loader. The libraries built over CUPTI
// (libGPUPerfAPICUDA.so, libGPUPerfAPICounters.so, libOpenGPAProfile.so) call CUPTI's functions by name as if
// linked; cupti_on_demand.cc defines those names and forwards each call to the library loaded here. So none of
// them has libcupti as a NEEDED entry: the counter library serves Vulkan, OpenGL and OpenCL on machines with no
// CUDA at all, and only the CUDA parts fail, saying that CUPTI is missing.
#ifndef OPENGPA_NVIDIA_CUPTI_LOADER_H_
#define OPENGPA_NVIDIA_CUPTI_LOADER_H_

#include <string>
#include <vector>

namespace opengpa {
class DynamicLibrary;
}

namespace opengpa::nvidia {

// Where libcupti is looked for: $OPENGPA_CUPTI_LIBRARY when set, then libcupti.so.13 by soname (the loader's
// path, LD_LIBRARY_PATH, the calling library's RUNPATH), then the folder CUPTI was found in at build time and
// the toolkit's usual folders.
std::vector<std::string> CuptiCandidates();

// The loaded libcupti, or nullptr when no candidate loads; then *why (when given) says what was tried and why
// it failed (for the caller's log line). The first call loads; later calls return the same answer.
const DynamicLibrary* LoadedCupti(std::string* why = nullptr);

// True when CUPTI was asked for and could not be loaded: a failed CUPTI call then means "CUPTI is missing".
bool CuptiIsMissing();

}  // namespace opengpa::nvidia

#endif  // OPENGPA_NVIDIA_CUPTI_LOADER_H_
