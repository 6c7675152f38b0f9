// Where OpenGPA's own clients look for a libGPUPerfAPI<X>.so: the file or folder the user named, else beside
// the program and in the lib/ folders of the build tree and an install, then the dynamic loader's search path.
#ifndef OPENGPA_CLIENT_GPA_LIBRARY_SEARCH_H_
#define OPENGPA_CLIENT_GPA_LIBRARY_SEARCH_H_

#include <string>
#include <vector>

#include "gpu_performance_api/gpu_perf_api_types.h"
#include "gpu_performance_api/opengpa_ext.h"  // kGpaApiCuda

namespace opengpa::client {

// A GPA API as OpenGPA's own C++ programs (the CLI, the samples) hold it: a GpaApiType's number, or
// opengpa_ext.h's kGpaApiCuda (0x100). C++ may not hold 0x100 in a GpaApiType, whose range ends below it (a
// load of it is undefined; UBSan's enum check reports it), so they keep the number.
using ApiNumber = int;
// opengpa_ext.h's kGpaApiCuda as a number. kGpaApiCuda itself is a GpaApiType prvalue: bound to a reference (a
// std::pair's constructor, a std::map initializer) it is materialized and loaded as the enum, which UBSan reports.
inline constexpr ApiNumber kApiCuda = OPENGPA_ENUM_EXTENSION_BASE + 0;

// libGPUPerfAPIVK.so, libGPUPerfAPIGL.so, libGPUPerfAPICL.so, libGPUPerfAPICUDA.so; "libGPUPerfAPI?.so" for an
// API OpenGPA has no library for.
std::string GpaLibraryFileName(ApiNumber api);

// The folder of the running program; "" when /proc/self/exe cannot be read.
std::string ExecutableDirectory();

// The paths to try for `file_name`, in order. `explicit_path` (a --gpa-lib option) names the file itself or
// the folder holding it: then it alone. Otherwise each of `folders` that holds the file, then the bare name
// for the dynamic loader (LD_LIBRARY_PATH, the program's RUNPATH).
std::vector<std::string> GpaLibraryPaths(const std::string& file_name, const std::string& explicit_path,
                                         const std::vector<std::string>& folders);

// The folders a program in the build tree or an install finds the libraries in: its own, ../lib (bin/ and
// lib/ of both) and ../../lib (the build tree's samples/<api>/ and tests/<api>/).
std::vector<std::string> FoldersBesideExecutable();

}  // namespace opengpa::client

#endif  // OPENGPA_CLIENT_GPA_LIBRARY_SEARCH_H_
