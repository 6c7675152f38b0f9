// Where OpenGPA's shared libraries are: <directory of the opengpa executable>/../lib (the build tree and
// an install both put them there), then each directory of LD_LIBRARY_PATH.
#ifndef OPENGPA_TOOLS_OPENGPA_LIBRARY_PATH_H_
#define OPENGPA_TOOLS_OPENGPA_LIBRARY_PATH_H_

#include <optional>
#include <string>

namespace opengpa::cli {

// <directory of this executable>/../lib, or "" when /proc/self/exe cannot be read.
std::string LibraryDirectoryBesideExecutable();

// The first readable `file_name` in those directories, as a path; nullopt and *error listing where it
// looked otherwise.
std::optional<std::string> FindOpenGpaLibrary(const std::string& file_name, std::string* error);

}  // namespace opengpa::cli

#endif  // OPENGPA_TOOLS_OPENGPA_LIBRARY_PATH_H_
