// The outputs of `opengpa profile` (formats documented in docs/cli.md, JSON schema in
// docs/schema/profile.schema.json):
//   CSV           one row per sample: index, kernel, queue, grid, block, start/end, one column per counter
//   JSON          the run, its counters and every sample (values keyed by counter name)
//   summary       an aligned table: per kernel name, launches, share of the time and total time (when a
//                 duration counter was measured) and the mean of each counter, units in the header, then a
//                 row of totals over all launches; wrapped or elided to max_width (0: no limit)
//   Chrome trace  traceEvents with ph "X" (ts/dur in µs, one track per API queue), for chrome://tracing
//                 and ui.perfetto.dev, and counter tracks: ph "C" per counter, its value from each launch's
//                 start to its end, keyed by the launch's queue (docs/cli.md, "Chrome trace")
#ifndef OPENGPA_PROFILER_PROFILE_WRITERS_H_
#define OPENGPA_PROFILER_PROFILE_WRITERS_H_

#include <nlohmann/json.hpp>

#include <ostream>

#include "profiler/profile_run.h"

namespace opengpa::profiling {

void WriteProfileCsv(const ProfileRun& run, std::ostream& out);
nlohmann::ordered_json ProfileJson(const ProfileRun& run);
void WriteProfileSummary(const ProfileRun& run, std::ostream& out, std::size_t max_width = 0);
nlohmann::ordered_json ChromeTrace(const ProfileRun& run);

// Integers below 1e15 as integers ("2000"); otherwise the shortest text that reads back as the same
// double ("0.25", "1.5e+20"); "" for NaN.
std::string FormatValue(double value);

}  // namespace opengpa::profiling

#endif  // OPENGPA_PROFILER_PROFILE_WRITERS_H_
