// Pieces of a GPA sample application that do not depend on the graphics or compute API: "--flag value"
// options, loading libGPUPerfAPI<X>.so with GPA's interface loader, the enabled counters, and where the
// CSV goes. The program that links this defines GpaApiManager::gpa_api_manager_ (the loader asks each
// executable to define it once).
#ifndef OPENGPA_SAMPLES_COMMON_GPA_SAMPLE_SUPPORT_H_
#define OPENGPA_SAMPLES_COMMON_GPA_SAMPLE_SUPPORT_H_

#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "gpu_performance_api/gpu_perf_api_interface_loader.h"

namespace opengpa::sample {

// Flag ("--csv") -> what to do with its value.
using FlagHandlers = std::map<std::string, std::function<void(const std::string& value)>>;

// Every argument is a flag of `handlers` followed by its value; false (print the usage) for an unknown
// flag or a flag without a value.
bool ParseFlagValues(int argc, char** argv, const FlagHandlers& handlers);

// GPA's log, as "[GPA error] ..." / "[GPA info] ..." lines on stderr.
void LogToStderr(GpaLoggingType type, const char* message);

// The folder of this program's build output holds samples/<api>/; the libraries are in <build>/lib.
std::string DefaultLibraryFolder(const char* argv0);

// Loads GPA for `api` from `gpa_lib` (DefaultLibraryFolder(argv0) when empty), else from the loader's search
// path, and sends GPA's errors to LogToStderr. On failure prints why, prefixed with `program` and naming
// `library_file`, and returns nullptr.
const GpaFunctionTable* LoadGpa(GpaApiType api, const std::string& gpa_lib, const char* argv0, const char* program,
                                const char* library_file);

struct EnabledCounter {
  std::string name;
  GpaDataType type = kGpaDataTypeUint64;
};

// The session's enabled counters, in the order GpaGetSampleResult returns their values.
std::vector<EnabledCounter> EnabledCounters(const GpaFunctionTable& gpa, GpaContextId context, GpaSessionId session);

// Where the CSV goes: the file `path`, or stdout when `path` is empty.
class CsvOutput {
 public:
  explicit CsvOutput(const std::string& path);
  std::ostream& stream() { return to_stdout_ ? std::cout : file_; }

 private:
  bool to_stdout_;
  std::ofstream file_;
};

}  // namespace opengpa::sample

#endif  // OPENGPA_SAMPLES_COMMON_GPA_SAMPLE_SUPPORT_H_
