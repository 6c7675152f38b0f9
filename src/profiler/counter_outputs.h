// Turns a run's measured columns (raw CUPTI metrics) into the counters the user asked for, with the
// library's own counter engine (src/counters/expression.h): each output's formula, as the CUDA backend's
// catalog defines it, over the columns and the constants the injected library wrote in the header.
// Done in the CLI, after every pass of application replay has been merged.
#ifndef OPENGPA_PROFILER_COUNTER_OUTPUTS_H_
#define OPENGPA_PROFILER_COUNTER_OUTPUTS_H_

#include <string>

#include "profiler/profile_run.h"

namespace opengpa::profiling {

// Replaces run->counters and every sample's values by run->outputs; does nothing when outputs is empty.
// False and *error naming the output when a formula names a column or constant the run lacks, unless
// `missing_is_unavailable` (an interrupted application replay, whose later passes never ran): then such
// outputs are left unavailable (null) and the others evaluated.
bool EvaluateOutputs(ProfileRun* run, std::string* error, bool missing_is_unavailable = false);

}  // namespace opengpa::profiling

#endif  // OPENGPA_PROFILER_COUNTER_OUTPUTS_H_
