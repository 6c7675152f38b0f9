// `opengpa profile --mode sampled`: the CLI samples every GPU's counters (CUPTI PM sampling) while the program
// runs unserialized, then gives each launch its share (src/profiler/sampled_profile.h). This file is the CLI's
// glue: defaults, checks, the recording around the run, and the lines that say what the sampling cost and lost.
#ifndef OPENGPA_CLI_SAMPLED_MODE_H_
#define OPENGPA_CLI_SAMPLED_MODE_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "profiler/profile_run.h"
#include "while_exiting.h"

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
  // Stops sampling and drains what the GPUs recorded; the first call does it, later ones return its answer. Called
  // from another thread when the program's processes have all written their end records, so that the drain runs
  // while the program exits (its CUDA teardown) rather than after: no launch it recorded can run later.
  virtual bool Stop(std::string* error) = 0;
  // Stops sampling (unless Stop did) and fills `run`'s counters and values. `notes`: what the sampling covered,
  // lost and cost, one line per GPU (printed and kept in the run's messages); `stream_read_seconds`, how long the
  // launches took to read, is said with the profiler's other times around the program, as done while it exited
  // (`while_program_exits`) or after it.
  virtual bool Finish(profiling::ProfileRun* run, double stream_read_seconds, bool while_program_exits,
                      std::vector<std::string>* notes, std::string* error) = 0;
};

// The sampled mode's part while the program exits (while_exiting.h): PM sampling stopped and drained, then the
// samples attributed to the launches as read then. Its results are used when RunOnce kept that read.
class SampledWhileExiting final : public WhileExiting {
 public:
  // `*recording` is set by another thread, which then sets `*set_up`; both must outlive this object.
  SampledWhileExiting(const std::atomic<bool>* set_up, const std::unique_ptr<SampledRecording>* recording)
      : set_up_(set_up), recording_(recording) {}

  void Ended(const std::set<std::uint32_t>& writers) override;
  void Read(profiling::ProfileRun* run, double read_seconds) override;

  bool attributed() const { return attributed_; }  // Read ran Finish
  bool finished() const { return finished_; }      // what Finish returned, its notes and its error
  const std::vector<std::string>& notes() const { return notes_; }
  const std::string& error() const { return error_; }
  const std::set<std::uint32_t>& writers() const { return writers_; }  // as Ended had them

 private:
  SampledRecording* Recording() const;
  const std::atomic<bool>* set_up_;
  const std::unique_ptr<SampledRecording>* recording_;
  std::set<std::uint32_t> writers_;
  bool attributed_ = false;
  bool finished_ = false;
  std::vector<std::string> notes_;
  std::string error_;
};

}  // namespace opengpa::cli

#endif  // OPENGPA_CLI_SAMPLED_MODE_H_
