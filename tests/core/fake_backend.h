// A deterministic in-process backend for testing the core and entry layer without a GPU.
//
// The application "context" handed to GpaOpenContext is a FakeDevice: it configures the backend
// (how many counters of one block fit in a pass, which optional features exist) and records what the
// core asked of it. Hardware counter h of sample slot s reads FakeHardwareValue(h, s), but only when
// slot s was begun and ended in the pass that collects h: a sample missing from a pass reads 0, so a
// bookkeeping error shows up as a wrong value.
#ifndef OPENGPA_TESTS_CORE_FAKE_BACKEND_H_
#define OPENGPA_TESTS_CORE_FAKE_BACKEND_H_

#include <atomic>
#include <cstdint>

#include "gpu_performance_api/gpu_perf_api_types.h"
#include "gpu_performance_api/opengpa_ext.h"

namespace opengpa::fake {

// The fake's hardware counters: name, block.
//   0 FakeCycles (block 0)   1 FakeItems (block 0)   2 FakeBytes (block 1)   3 FakeBusy (block 1)
//   4 FakeTime (block 2, nanoseconds, float64)
inline constexpr std::uint32_t kHardwareCounterCount = 5;
inline constexpr std::uint32_t kBlockCount = 3;
inline constexpr double kUnitsConstant = 2.0;  // the backend constant UNITS

inline double FakeHardwareValue(std::uint32_t counter, std::uint32_t slot) {
  if (counter == 4) return 1000.0 * (slot + 1) + 0.25;  // a time in ns with a fraction
  return static_cast<double>((counter + 1) * 1000 + slot * 7 + 3);
}

// Streaming sessions (when sample_types has kGpaContextSampleTypeStreamingCounter): FakeTime (block 2) cannot be
// streamed, and a set must fit one pass. A stream of `interval` has kStreamedSamples samples, sample i spanning
// [kStreamBeginNs + i * interval, kStreamBeginNs + (i + 1) * interval] with FakeHardwareValue(h, i) of counter h.
inline constexpr std::uint32_t kStreamedSamples = 4;
inline constexpr std::uint64_t kStreamBeginNs = 1'000'000;

struct FakeDevice {
  // Configuration, read when the context opens / the session begins.
  std::uint32_t block_limit = 8;         // counters of one block collected per pass (>= 1)
  bool supports_continue = true;         // ContinueSample
  bool supports_secondary = true;        // CopySecondarySamples
  GpaStatus open_status = kGpaStatusOk;  // what OpenContext returns
  GpaContextSampleTypeFlags sample_types = kGpaContextSampleTypeDiscreteCounter;
  GpaStatus read_status = kGpaStatusOk;           // what ReadResults returns
  GpaStatus begin_session_status = kGpaStatusOk;  // what BackendSession::Begin returns
  GpaStatus end_session_status = kGpaStatusOk;    // what BackendSession::End returns
  GpaStatus command_list_status = kGpaStatusOk;   // what BeginCommandList / EndCommandList return
  GpaStatus sample_status = kGpaStatusOk;         // what BeginSample / EndSample return
  bool throw_in_open = false;                     // OpenContext throws std::runtime_error
  bool throw_in_samples = false;                  // BeginSample throws std::bad_alloc
  // The execution resources GPA 4's device-limit queries report (0: the device does not say).
  // tests/python/fake_device.py mirrors this struct field for field: change both.
  std::uint32_t compute_units = 0;
  std::uint32_t simds = 0;
  std::uint32_t waves_per_simd = 0;
  std::uint32_t vgprs_per_simd = 0;
  std::uint32_t lds_bytes_per_compute_unit = 0;
  // A sample slot the session measured only in part (BackendSession::SampleIncomplete); -1: none.
  std::int32_t incomplete_slot = -1;

  // Live state the test may flip.
  std::atomic<bool> passes_complete{true};
  // While set, ReadResults waits, as for a GPU that has not finished (at most 20 s, a safety net so that a
  // broken library fails the test instead of hanging it). reads_waiting counts the reads waiting now.
  std::atomic<bool> hold_reads{false};
  std::atomic<int> reads_waiting{0};

  // Observations.
  std::atomic<int> read_results_calls{0};
  std::atomic<int> sessions_alive{0};
  std::atomic<int> command_lists_alive{0};
  std::atomic<std::uint32_t> last_open_flags{0};
};

}  // namespace opengpa::fake

#endif  // OPENGPA_TESTS_CORE_FAKE_BACKEND_H_
