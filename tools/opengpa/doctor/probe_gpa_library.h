// A probe's libGPUPerfAPI<X>.so, loaded as every OpenGPA client loads one (src/client) from where `opengpa doctor`
// said to look, and initialised through opengpa.hpp. GPA's error log is kept, so that a call that fails can be
// explained with the library's own words (gpa_failure_causes.h). A library that cannot be found or initialised
// becomes a cause in the report, naming every path tried and how to point the doctor elsewhere.
#ifndef OPENGPA_TOOLS_OPENGPA_DOCTOR_PROBE_GPA_LIBRARY_H_
#define OPENGPA_TOOLS_OPENGPA_DOCTOR_PROBE_GPA_LIBRARY_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "client/loaded_gpa_library.h"
#include "opengpa/opengpa.hpp"
#include "probe_report.h"

namespace opengpa::doctor {

// Where to look: `library_dir` alone when set (--library-dir, $OPENGPA_LIBRARY_DIR), else each of `folders`,
// then the dynamic loader's search path.
struct GpaSearch {
  std::string library_dir;
  std::vector<std::string> folders;
  bool verbose = false;  // GPA's informational messages to stderr as well
};

// The paths to load `file_name` from, in order (a bare name: the loader's search path), and the same paths as a
// user should read them in a report.
struct LibraryCandidatePaths {
  std::vector<std::string> paths;
  std::vector<std::string> tried;
};
LibraryCandidatePaths SearchPaths(const GpaSearch& search, const std::string& file_name);

class ProbeGpaLibrary {
 public:
  // nullptr, with the cause added to `report`, when no library loads or GpaInitialize fails.
  static std::unique_ptr<ProbeGpaLibrary> Load(GpaApiType api, const GpaSearch& search, ProbeReport* report);

  opengpa::Library& Gpa() { return *initialized_; }
  const std::string& Path() const { return loaded_->Path(); }

  // GPA's error messages logged since the last ClearLog (any library loaded in this process).
  static std::vector<std::string> ErrorLog();
  static void ClearLog();
  // The cause of a failed GPA call (opengpa.hpp's "<call> failed: <status>"), with GPA's log since ClearLog.
  static Cause Explain(const opengpa::Error& failure);

  ProbeGpaLibrary(std::unique_ptr<client::LoadedGpaLibrary> loaded) : loaded_(std::move(loaded)) {}

 private:
  std::unique_ptr<client::LoadedGpaLibrary> loaded_;  // declared first: unloaded after GpaDestroy
  std::optional<opengpa::Library> initialized_;
};

}  // namespace opengpa::doctor

#endif  // OPENGPA_TOOLS_OPENGPA_DOCTOR_PROBE_GPA_LIBRARY_H_
