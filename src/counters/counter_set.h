// The counters a context exposes through GPA, in GpaGetCounterName index order: the derived counters
// of the backend's catalogs whose formulas resolve on this device, then (with
// kGpaOpenContextEnableHardwareCountersBit) every hardware counter as itself.
#ifndef OPENGPA_COUNTERS_COUNTER_SET_H_
#define OPENGPA_COUNTERS_COUNTER_SET_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "counters/expression.h"
#include "counters/hardware_counter.h"
#include "gpu_performance_api/gpu_perf_api_types.h"

namespace opengpa {

struct PublicCounter {
  std::string name;
  std::string group;
  std::string description;
  GpaDataType data_type = kGpaDataTypeFloat64;
  GpaUsageType usage = kGpaUsageTypeRatio;
  GpaUuid uuid{};            // stable: derived from the name (name-based UUID), same on every run
  Expression formula;        // inputs are HardwareCounterIndex values
  bool is_hardware = false;  // a raw hardware counter exposed as itself
};

class CounterSet {
 public:
  // Builds the set; false and *error when a catalog is malformed or a formula does not parse
  // (a formula naming an absent hardware counter only hides that counter).
  static bool Build(const std::vector<HardwareCounterInfo>& hardware, const std::vector<std::string_view>& catalogs,
                    const std::vector<std::pair<std::string, double>>& constants, bool include_hardware,
                    CounterSet* out, std::string* error);

  std::uint32_t size() const { return static_cast<std::uint32_t>(counters_.size()); }
  const PublicCounter& at(std::uint32_t index) const { return counters_[index]; }
  // Case-insensitive, as GpaGetCounterIndex.
  std::optional<std::uint32_t> Find(std::string_view name) const;

  // Hardware counters the given public counters need, ascending and distinct.
  std::vector<HardwareCounterIndex> HardwareNeeded(const std::vector<std::uint32_t>& public_indices) const;

 private:
  std::vector<PublicCounter> counters_;
  std::unordered_map<std::string, std::uint32_t> by_lower_name_;
};

}  // namespace opengpa

#endif  // OPENGPA_COUNTERS_COUNTER_SET_H_
