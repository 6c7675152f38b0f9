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

#include <ostream>
#include <string>

#include "profiler/profile_run.h"

namespace opengpa::profiling {

void WriteProfileCsv(const ProfileRun& run, std::ostream& out);
// The profile JSON (schema opengpa-profile/1; docs/cli.md): the run, then one sample per line. Written as it is
// made (json_text.h); kernel names that are not UTF-8 get U+FFFD for their stray bytes.
void WriteProfileJson(const ProfileRun& run, std::ostream& out);
void WriteProfileSummary(const ProfileRun& run, std::ostream& out, std::size_t max_width = 0);
// The Chrome trace (chrome://tracing, Perfetto): a complete event per launch on its queue's track, and a counter
// track per counter. Written as it is made, for runs of hundreds of thousands of events (json_text.h).
void WriteChromeTrace(const ProfileRun& run, std::ostream& out);

// Integers below 1e15 as integers ("2000"); otherwise the shortest text that reads back as the same
// double ("0.25", "1.5e+20"); "" for NaN.
std::string FormatValue(double value);

}  // namespace opengpa::profiling

#endif  // OPENGPA_PROFILER_PROFILE_WRITERS_H_
