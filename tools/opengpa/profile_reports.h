// Which reports `opengpa profile` writes for a run (output_name.h's keys in -o): one for the whole run, or one
// per process (%p) or per rank (%r, or --report-per-process, which appends ".%p" to a name without either). Each
// report holds its processes' samples and queues; every report keeps the run's messages and its list of
// processes that were not profiled. Processes whose names coincide (several processes of one rank) share a
// report, each row naming its process.
#ifndef OPENGPA_TOOLS_OPENGPA_PROFILE_REPORTS_H_
#define OPENGPA_TOOLS_OPENGPA_PROFILE_REPORTS_H_

#include <functional>
#include <string>
#include <vector>

#include "output_name.h"
#include "profiler/profile_run.h"

namespace opengpa::cli {

struct ProfileReport {
  std::string prefix;  // <prefix>.csv, <prefix>.json, <prefix>.trace.json
  profiling::ProfileRun run;
};

// `pattern` as the reports name it: with ".%p" appended when `per_process` is asked but the name tells no
// processes apart.
std::string ReportPattern(const std::string& pattern, const OutputNameKeys& keys, bool per_process);

// The reports of `run` under `pattern` (parsed into `keys`); `taken(prefix)` tells whether a report of that
// prefix would replace existing files (for %i, which takes the first index that replaces nothing). `values` holds
// opengpa's own host and variables, for a report of the whole run and for processes that named none.
std::vector<ProfileReport> PlanReports(const profiling::ProfileRun& run, const std::string& pattern,
                                       const OutputNameKeys& keys, const OutputNameValues& values,
                                       const std::function<bool(const std::string&)>& taken);

}  // namespace opengpa::cli

#endif  // OPENGPA_TOOLS_OPENGPA_PROFILE_REPORTS_H_
