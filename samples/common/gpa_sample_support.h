// Pieces of a GPA sample application that do not depend on the graphics or compute API: "--flag value"
// options, loading libGPUPerfAPI<X>.so (src/client, the loader every OpenGPA client uses), the enabled
// counters, and where the CSV goes.
#ifndef OPENGPA_SAMPLES_COMMON_GPA_SAMPLE_SUPPORT_H_
#define OPENGPA_SAMPLES_COMMON_GPA_SAMPLE_SUPPORT_H_

#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "client/gpa_library_search.h"  // ApiNumber
#include "client/loaded_gpa_library.h"
#include "opengpa/opengpa.hpp"

namespace opengpa::sample {

// Flag ("--csv") -> what to do with its value.
using FlagHandlers = std::map<std::string, std::function<void(const std::string& value)>>;

// Every argument is a flag of `handlers` followed by its value; false (print the usage) for an unknown
// flag or a flag without a value.
bool ParseFlagValues(int argc, char** argv, const FlagHandlers& handlers);

// GPA's log, as "[GPA error] ..." / "[GPA info] ..." lines on stderr.
void LogToStderr(GpaLoggingType type, const char* message);

// Loads GPA for `api` from `gpa_lib` (the library or the folder holding it) when given, else from the build
// tree's lib/ beside this program, then the loader's search path, and sends GPA's errors to LogToStderr. On
// failure prints why, prefixed with `program`, and returns nullptr.
std::unique_ptr<client::LoadedGpaLibrary> LoadGpa(client::ApiNumber api, const std::string& gpa_lib,
                                                  const char* program);

struct EnabledCounter {
  std::string name;
  GpaDataType type = kGpaDataTypeUint64;
};

// The session's enabled counters, in the order its results list their values.
std::vector<EnabledCounter> EnabledCounters(const opengpa::Session& session);

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
