// One GpaCounterContext: an offline BackendContext (a CUDA chip or an API catalog), the counters a
// GpaOpenContext with the same flags would expose (the same CounterSet the live libraries build), and the
// GpaCounterInfo records GpaCounterLibGetCounterInfo hands out, built once so their pointers stay valid
// until the context is closed.
//
// Hardware counters have no AMD block on these devices, so a GpaHwCounter names one by its index h in the
// context's hardware-counter list (docs/counter-library.md):
//   a time (usage nanoseconds)  is_timing_block = true, the gpu_time_* index = h
//   any other counter           is_timing_block = false, gpa_hw_block = kGpaHwBlockCount (no AMD block),
//                               gpa_hw_block_instance = 0, gpa_hw_block_event_id = h, gpa_shader_mask = All
#ifndef OPENGPA_COUNTER_LIBRARY_COUNTER_CONTEXT_H_
#define OPENGPA_COUNTER_LIBRARY_COUNTER_CONTEXT_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "core/backend.h"
#include "counters/counter_set.h"
#include "gpu_performance_api/gpu_perf_api_counters.h"
#include "platform/logging.h"

namespace opengpa::counter_library {

// Counters scheduled into one pass: hardware counter indices h, ascending.
using PassContents = std::vector<HardwareCounterIndex>;

// What the table a context was opened through makes of it. GPA v3 and GPA 4 number AMD's blocks differently, so
// "no AMD block" is each one's kGpaHwBlockCount (51 in v3, 56 in GPA 4); a GPA 4 context lists the counters of
// one session sample type, and those of a streaming-counter context stream.
struct ContextFlavor {
  std::uint32_t no_block = kGpaHwBlockCount;
  bool streaming = false;
};

class CounterContext {
 public:
  // Builds the counter set for `flags` (GpaOpenContextBits); fails (logged) when the catalogs do not build
  // or the flags leave no counter.
  [[nodiscard]] static GpaStatus Create(std::unique_ptr<BackendContext> backend, GpaOpenContextFlags flags,
                                        std::unique_ptr<CounterContext>* out, ContextFlavor flavor = {});

  const CounterSet& counters() const { return counters_; }
  const BackendContext& backend() const { return *backend_; }
  const GpaCounterInfo& Info(std::uint32_t counter) const { return infos_[counter]; }
  bool streaming() const { return flavor_.streaming; }

  // The hardware counter a GpaHwCounter names (see above), or nullopt.
  std::optional<HardwareCounterIndex> HardwareIndexOf(const GpaHwCounter& counter) const;
  // The counter index under which hardware counter `h` is exposed (only with EnableHardwareCounters).
  std::optional<std::uint32_t> CounterOfHardware(HardwareCounterIndex h) const;

  // Passes for `counters` (valid counter indices): what GpaGetPassCount answers for them in a session of
  // libGPUPerfAPI<X>.so (0 for none, else at least 1).
  [[nodiscard]] GpaStatus PassCount(const std::vector<std::uint32_t>& counters, GpaUInt32* passes);
  // Which hardware counters each pass collects (see PlacePasses in counter_context.cc).
  [[nodiscard]] GpaStatus CountersByPass(const std::vector<std::uint32_t>& counters, std::vector<PassContents>* passes);

  // Derived counter `counter` from `values`, one per hardware counter in GetCounterInfo's order.
  [[nodiscard]] GpaStatus ComputeDerived(std::uint32_t counter, const GpaUInt64* values, GpaUInt32 value_count,
                                         double* result) const;

  // Counters `counters` (valid indices) at each of `rows` timestamps of a time series whose column c holds
  // hardware counter columns[c], values[c * rows + t]: results[k * rows + t]. Every hardware counter a counter
  // needs must be among the columns (else InvalidParameter, logged under `function`).
  [[nodiscard]] GpaStatus ComputeSeries(const char* function, const std::vector<std::uint32_t>& counters,
                                        const std::vector<HardwareCounterIndex>& columns, std::size_t rows,
                                        const std::vector<double>& values, double* results) const;

 private:
  GpaHwCounter HwCounterOf(HardwareCounterIndex h) const;

  std::unique_ptr<BackendContext> backend_;
  ContextFlavor flavor_;
  CounterSet counters_;
  std::vector<GpaHwCounter> hardware_ids_;                 // by hardware counter index
  std::vector<std::vector<GpaHwCounter>> derived_inputs_;  // by counter index; empty for hardware counters
  std::vector<GpaDerivedCounterInfo> derived_infos_;       // by counter index
  std::vector<GpaCounterInfo> infos_;                      // by counter index
};

}  // namespace opengpa::counter_library

#endif  // OPENGPA_COUNTER_LIBRARY_COUNTER_CONTEXT_H_
