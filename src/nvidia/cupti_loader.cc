#include "nvidia/cupti_loader.h"

#include <fmt/format.h>

#include <unistd.h>

#include <memory>

#include "platform/dynamic_library.h"

namespace opengpa::nvidia {
namespace {

struct LoadAttempt {
  std::unique_ptr<DynamicLibrary> library;
  std::string why;  // set when library is null
};

const LoadAttempt& Attempt() {
  static const LoadAttempt* attempt = [] {
    auto* loaded = new LoadAttempt;  // never freed: CUPTI stays loaded for the life of the process
    // Paths that do not exist are not tried, so the message names only what could have loaded.
    std::vector<std::string> candidates;
    for (const std::string& candidate : CuptiCandidates()) {
      if (candidate.front() != '/' || access(candidate.c_str(), F_OK) == 0) candidates.push_back(candidate);
    }
    std::string error;
    // kNever: CUPTI registers itself with the CUDA driver and cannot be loaded a second time in one process.
    loaded->library = DynamicLibrary::Open(candidates, &error, DynamicLibrary::Unload::kNever);
    if (loaded->library == nullptr) {
      loaded->why = fmt::format(
          "CUPTI (libcupti.so.13, part of the CUDA toolkit) could not be loaded, so NVIDIA's CUDA counters are "
          "unavailable; install the toolkit's CUPTI, add its folder to LD_LIBRARY_PATH or name the library in "
          "OPENGPA_CUPTI_LIBRARY (searched the loader's path and the toolkit's usual folders: {})",
          error);
    }
    return loaded;
  }();
  return *attempt;
}

}  // namespace

std::vector<std::string> CuptiCandidates() {
  std::vector<std::string> defaults = {"libcupti.so.13"};
#ifdef OPENGPA_CUPTI_BUILD_DIR
  defaults.push_back(OPENGPA_CUPTI_BUILD_DIR "/libcupti.so.13");
#endif
  for (const char* toolkit : {"/usr/local/cuda", "/opt/cuda", "/usr/lib/cuda"}) {
    for (const char* folder :
         {"/extras/CUPTI/lib64", "/lib64", "/lib", "/targets/x86_64-linux/lib", "/targets/sbsa-linux/lib"}) {
      defaults.push_back(fmt::format("{}{}/libcupti.so.13", toolkit, folder));
    }
  }
  return LibraryCandidates({}, "OPENGPA_CUPTI_LIBRARY", defaults);
}

const DynamicLibrary* LoadedCupti(std::string* why) {
  const LoadAttempt& attempt = Attempt();
  if (why != nullptr) *why = attempt.why;
  return attempt.library.get();
}

bool CuptiIsMissing() { return LoadedCupti() == nullptr; }

}  // namespace opengpa::nvidia
