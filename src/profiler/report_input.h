// What `opengpa report` shows, read from the files it is given (issue 33): one table of launches per file, the same
// shape whatever the file was, so that the report's script (tools/opengpa/report/report.html) reads one format.
//
// Inputs, told apart by their content:
//   - a profile JSON of `opengpa profile` or Python (docs/schema/profile.schema.json);
//   - a profile CSV of `opengpa profile` (profile_writers.h's columns: pid, rank, ..., nvtx, then the counters);
//   - a CSV of the GPA samples (Vulkan, OpenGL, OpenCL): a SampleId column, a label column (Sample or Label, named
//     "sample <id>" where none), every other column a counter (Device names the device).
//
// The table (JSON, docs/cli.md "report"):
//   {"source", "format": "profile-json" | "profile-csv" | "sample-csv", "api", "device",
//    "messages": [...],                               a profile JSON's first 20 messages
//    "counters": [{"name", "usage"}],                 usage "" where the file does not tell it (CSV)
//    "columns": ["member", "name", "index", "queue", "start_ns", "end_ns", "grid", "block", "nvtx", "op", "module"],
//    "launches": [[member, name, index, queue, start_ns, end_ns, grid, block, nvtx, op, module, value...], ...]}
// member: "rank N", else "pid N" ("" for sample CSVs); start_ns/end_ns: null where not measured; grid/block:
// "XxYxZ" or ""; nvtx: the path "outer > inner"; op/module: PyTorch's attribution where the profile has it; a value
// per counter, null where none was measured. A text field that is not text (a hand-written "api": 5) reads as "".
#ifndef OPENGPA_PROFILER_REPORT_INPUT_H_
#define OPENGPA_PROFILER_REPORT_INPUT_H_

#include <nlohmann/json.hpp>

#include <string>

namespace opengpa::profiling {

// False and *error (the file and what is wrong with it) when `path` is none of the inputs above.
bool ReadReportInput(const std::string& path, nlohmann::ordered_json* table, std::string* error);

}  // namespace opengpa::profiling

#endif  // OPENGPA_PROFILER_REPORT_INPUT_H_
