// The sampled mode's start gate. `opengpa profile --mode sampled` sets PM sampling up (0.5-0.6 s on the H100 and
// H200, measured: docs/validation.md row 63) while the program starts, instead of before: a program's own start
// (Python's imports above all) usually takes longer. Each process of the program waits at its CUDA
// initialisation, before it can launch any work, until the gate says whether PM sampling runs, so no launch
// escapes the samples.
#ifndef OPENGPA_PROFILER_SAMPLED_GATE_H_
#define OPENGPA_PROFILER_SAMPLED_GATE_H_

#include <chrono>
#include <memory>
#include <string>

namespace opengpa::profiling {

// Names the gate's file in the program's environment.
inline constexpr const char* kSampledGateVariable = "OPENGPA_PROFILE_SAMPLED_GATE";

// The CLI's side: a file name in `folder`, written once when PM sampling has started or failed, removed with the
// object.
class SampledGate {
 public:
  explicit SampledGate(const std::string& folder);
  ~SampledGate();
  SampledGate(const SampledGate&) = delete;
  SampledGate& operator=(const SampledGate&) = delete;

  const std::string& Path() const { return path_; }
  // Opens the gate: "sampling", or "not sampling: <why>". Written whole (a rename), so a waiter never reads half.
  // False when the file cannot be written (the program's processes then wait until their limit).
  bool Open(bool sampling, const std::string& why);

 private:
  std::string path_;
};

// The program's side: waits until the gate at `path` is open, polling every millisecond, at most `limit`. True
// when PM sampling runs; false with *why when it does not (the gate's reason) or the wait ran out.
bool WaitAtSampledGate(const std::string& path, std::chrono::milliseconds limit, std::string* why);
// Whether WaitAtSampledGate's *why is the gate's own "not sampling" (rather than a wait that ran out).
bool GateSaysNotSampling(const std::string& why);

}  // namespace opengpa::profiling

#endif  // OPENGPA_PROFILER_SAMPLED_GATE_H_
