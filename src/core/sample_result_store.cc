#include "core/sample_result_store.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace opengpa {

std::uint64_t ResultBits(double value, GpaDataType type) {
  if (type == kGpaDataTypeFloat64) {
    std::uint64_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    return bits;
  }
  if (!(value > 0.0)) return 0;  // negative, zero and NaN
  const double rounded = std::round(value);
  constexpr double kTwoTo64 = 18446744073709551616.0;
  if (rounded >= kTwoTo64) return std::numeric_limits<std::uint64_t>::max();
  return static_cast<std::uint64_t>(rounded);
}

void SampleResultStore::Evaluate(const CounterSet& counters, const std::vector<std::uint32_t>& enabled,
                                 const std::vector<HardwareCounterIndex>& columns, std::size_t hardware_count,
                                 SampleSlot slot_count, const std::vector<double>& raw) {
  row_size_ = enabled.size();
  values_.assign(static_cast<std::size_t>(slot_count) * row_size_, 0);
  // Formulas read inputs by hardware counter index; scatter each raw row into a full-width array.
  std::vector<double> inputs(hardware_count, 0.0);
  std::vector<const PublicCounter*> formulas;
  formulas.reserve(enabled.size());
  for (std::uint32_t index : enabled) formulas.push_back(&counters.at(index));
  const std::size_t width = columns.size();
  for (SampleSlot slot = 0; slot < slot_count; ++slot) {
    const double* row = raw.data() + static_cast<std::size_t>(slot) * width;
    for (std::size_t c = 0; c < width; ++c) inputs[columns[c]] = row[c];
    std::uint64_t* out = values_.data() + static_cast<std::size_t>(slot) * row_size_;
    for (std::size_t e = 0; e < formulas.size(); ++e) {
      out[e] = ResultBits(formulas[e]->formula.Evaluate(inputs.data()), formulas[e]->data_type);
    }
  }
  ready_ = true;
}

void SampleResultStore::CopyRow(SampleSlot slot, void* out) const {
  std::memcpy(out, values_.data() + static_cast<std::size_t>(slot) * row_size_, row_size_ * sizeof(std::uint64_t));
}

void SampleResultStore::Clear() {
  values_.clear();
  values_.shrink_to_fit();
  row_size_ = 0;
  ready_ = false;
}

}  // namespace opengpa
