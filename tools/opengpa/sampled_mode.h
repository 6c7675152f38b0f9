// `opengpa profile --mode sampled`: the CLI samples every GPU's counters (CUPTI PM sampling) while the program
// runs unserialized, then gives each launch its share (src/profiler/sampled_profile.h). This file is the CLI's
// glue: defaults, checks, the recording around the run, and the lines that say what the sampling cost and lost.
#ifndef OPENGPA_CLI_SAMPLED_MODE_H_
#define OPENGPA_CLI_SAMPLED_MODE_H_

#include <memory>
#include <string>
#include <vector>

#include "profiler/profile_run.h"

namespace opengpa::cli {

// The metrics of `--mode sampled` when no --metrics are given: DRAM traffic alone, which the H100 keeps at a
// 5 µs interval without losing a record (docs/cli.md, "--mode sampled", has the measured costs of larger sets).
const std::vector<std::string>& DefaultSampledMetrics();

class SampledRecording {
 public:
  // Starts PM sampling on every GPU. False and *error when this build has no PM sampling or a GPU refuses.
  static bool Start(const std::vector<std::string>& metrics, double interval_us,
                    std::unique_ptr<SampledRecording>* recording, std::string* error);
  virtual ~SampledRecording() = default;
  // Stops sampling and fills `run`'s counters and values. `notes`: what the sampling covered, lost and cost,
  // one line per GPU (printed and kept in the run's messages).
  virtual bool Finish(profiling::ProfileRun* run, std::vector<std::string>* notes, std::string* error) = 0;
};

}  // namespace opengpa::cli

#endif  // OPENGPA_CLI_SAMPLED_MODE_H_
