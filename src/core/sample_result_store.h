// Evaluated results of a session: one 64-bit value per enabled counter per sample slot, computed once
// from the backend's raw values (the first result read after all passes) and kept until the session is
// deleted, so every later GpaGetSampleResult is a copy.
#ifndef OPENGPA_CORE_SAMPLE_RESULT_STORE_H_
#define OPENGPA_CORE_SAMPLE_RESULT_STORE_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/backend.h"
#include "counters/counter_set.h"

namespace opengpa {

// The 64 bits GPA returns for `value` of a counter of `type`: float64 as its bit pattern; uint64
// rounded to nearest, negative and NaN as 0, saturating at UINT64_MAX.
std::uint64_t ResultBits(double value, GpaDataType type);

class SampleResultStore {
 public:
  bool ready() const { return ready_; }

  // `raw` holds slot_count rows of raw.size() / slot_count hardware values, columns in the order of
  // `columns` (hardware counter indices). Evaluates `enabled` (public counter indices) for every slot.
  void Evaluate(const CounterSet& counters, const std::vector<std::uint32_t>& enabled,
                const std::vector<HardwareCounterIndex>& columns, std::size_t hardware_count, SampleSlot slot_count,
                const std::vector<double>& raw);

  // Copies slot's row (enabled counter count * 8 bytes) to `out`.
  void CopyRow(SampleSlot slot, void* out) const;

  void Clear();

 private:
  std::vector<std::uint64_t> values_;
  std::size_t row_size_ = 0;
  bool ready_ = false;
};

}  // namespace opengpa

#endif  // OPENGPA_CORE_SAMPLE_RESULT_STORE_H_
