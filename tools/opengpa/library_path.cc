#include "library_path.h"

#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <vector>

#include "platform/this_process.h"

// Where the libraries are relative to the executable's folder: "../lib" in the build tree, the install's
// relative libdir in an install (cmake/OpenGPAInstall.cmake).
#ifndef OPENGPA_BIN_TO_LIB
#define OPENGPA_BIN_TO_LIB "../lib"
#endif

namespace opengpa::cli {

std::string LibraryDirectoryBesideExecutable() {
  const std::string executable = ExecutablePath();
  const std::size_t slash = executable.rfind('/');
  if (slash == std::string::npos) return {};
  std::string directory = executable.substr(0, slash) + "/" OPENGPA_BIN_TO_LIB;
  char resolved[PATH_MAX];
  if (realpath(directory.c_str(), resolved)) return resolved;
  return directory;
}

std::optional<std::string> FindOpenGpaLibrary(const std::string& file_name, std::string* error) {
  std::vector<std::string> directories;
  if (std::string beside = LibraryDirectoryBesideExecutable(); !beside.empty()) directories.push_back(beside);
  if (const char* path = getenv("LD_LIBRARY_PATH")) {
    std::string all(path);
    std::size_t start = 0;
    while (start <= all.size()) {
      const std::size_t colon = std::min(all.find(':', start), all.size());
      if (colon > start) directories.push_back(all.substr(start, colon - start));
      start = colon + 1;
    }
  }
  std::string looked;
  for (const auto& directory : directories) {
    std::string candidate = directory;
    candidate.append("/").append(file_name);
    if (access(candidate.c_str(), R_OK) == 0) {
      char resolved[PATH_MAX];
      return realpath(candidate.c_str(), resolved) ? std::string(resolved) : candidate;
    }
    looked += (looked.empty() ? "" : ", ") + directory;
  }
  *error = file_name + " not found (looked in " + (looked.empty() ? std::string("nothing") : looked) + ")";
  return std::nullopt;
}

}  // namespace opengpa::cli
