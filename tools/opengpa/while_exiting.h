// What `opengpa profile` does with a run's sample stream while the program exits. A program's exit (Python's
// finalisation, CUDA's teardown, the kernel freeing its GPU mappings) takes a second or more after its last
// launch; the stream is whole as soon as the program's own process has written its end record and no other process
// of it is still writing, since nothing they recorded can run after that. Work done then overlaps the exit instead
// of following it (docs/cli.md, "--mode sampled").
#ifndef OPENGPA_TOOLS_OPENGPA_WHILE_EXITING_H_
#define OPENGPA_TOOLS_OPENGPA_WHILE_EXITING_H_

#include <cstdint>
#include <set>

#include "profiler/profile_run.h"

namespace opengpa::cli {

// Called by RunOnce (profile_command.cc) on a thread of its own, once per run, at the point above.
class WhileExiting {
 public:
  virtual ~WhileExiting() = default;
  // First, before the stream is read; `writers`: the processes that had written to it.
  virtual void Ended(const std::set<std::uint32_t>& writers) = 0;
  // Then with the stream as read at that point, which RunOnce keeps when the program wrote nothing more to it (it
  // reads the stream again otherwise, and the caller must redo what this did).
  virtual void Read(profiling::ProfileRun* run, double read_seconds) = 0;
};

}  // namespace opengpa::cli

#endif  // OPENGPA_TOOLS_OPENGPA_WHILE_EXITING_H_
