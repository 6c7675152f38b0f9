#include "nvidia/cupti_loader.h"

#include <fmt/format.h>

#include <climits>
#include <cstdlib>
#include <memory>
#include <set>

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
    // Paths that do not exist are not tried, nor a second path to the same file (the toolkit's folders are links
    // to each other), so the message names only what could have loaded, once.
    // $OPENGPA_CUPTI_LIBRARY is always tried, so a wrong value is named in the message.
    const char* chosen = secure_getenv("OPENGPA_CUPTI_LIBRARY");
    std::vector<std::string> candidates;
    std::set<std::string> files;
    for (const std::string& candidate : CuptiCandidates()) {
      if (candidate.front() != '/' || (chosen != nullptr && candidate == chosen)) {
        candidates.push_back(candidate);
        continue;
      }
      char resolved[PATH_MAX];
      if (realpath(candidate.c_str(), resolved) != nullptr && files.insert(resolved).second) {
        candidates.push_back(candidate);
      }
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
  defaults.emplace_back(OPENGPA_CUPTI_BUILD_DIR "/libcupti.so.13");
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
