// What the NVML and GPM sources do alike with their catalogs: each catalog is a list of entries holding a
// `descriptor` (CounterDescriptor) beside what its source needs to read the counter (a field id, a metric id).
#ifndef OPENGPA_MONITOR_COUNTER_CATALOG_H_
#define OPENGPA_MONITOR_COUNTER_CATALOG_H_

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "monitor/monitor_types.h"

namespace opengpa::monitor {

template <typename Entry>
const Entry* FindInCatalog(const std::vector<Entry>& catalog, std::string_view name) {
  for (const Entry& entry : catalog) {
    if (entry.descriptor.name == name) return &entry;
  }
  return nullptr;
}

template <typename Entry>
std::vector<CounterDescriptor> DescriptorsOf(const std::vector<Entry>& catalog) {
  std::vector<CounterDescriptor> descriptors;
  descriptors.reserve(catalog.size());
  for (const Entry& entry : catalog) descriptors.push_back(entry.descriptor);
  return descriptors;
}

// The entries `names` ask for, each once, in the order first asked; no names: the whole catalog. False with
// *unknown the first name the catalog lacks.
template <typename Entry>
bool ChooseFromCatalog(const std::vector<Entry>& catalog, const std::vector<std::string>& names,
                       std::vector<const Entry*>* chosen, std::string* unknown) {
  chosen->clear();
  for (const std::string& name : names) {
    const Entry* entry = FindInCatalog(catalog, name);
    if (entry == nullptr) {
      *unknown = name;
      return false;
    }
    if (std::find(chosen->begin(), chosen->end(), entry) == chosen->end()) chosen->push_back(entry);
  }
  if (names.empty()) {
    for (const Entry& entry : catalog) chosen->push_back(&entry);
  }
  return true;
}

inline uint64_t NanosecondsSinceEpoch(std::chrono::system_clock::time_point time) {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(time.time_since_epoch()).count());
}

}  // namespace opengpa::monitor

#endif  // OPENGPA_MONITOR_COUNTER_CATALOG_H_
