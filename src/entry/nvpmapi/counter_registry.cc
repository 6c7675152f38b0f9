#include "entry/nvpmapi/counter_registry.h"

#include <deque>
#include <map>

namespace opengpa::nvpm {
namespace {

// Callers hold the library's mutex (nvpm_state.h); a deque keeps every CounterInfo where it is.
struct Registry {
  std::deque<CounterInfo> counters;  // id - 1
  std::map<std::string, NVPMCounterID> ids;
};

Registry& TheRegistry() {
  static Registry registry;
  return registry;
}

}  // namespace

NVPMCounterID RegisterCounter(const CounterInfo& info) {
  Registry& registry = TheRegistry();
  auto found = registry.ids.find(info.name);
  if (found != registry.ids.end()) return found->second;
  registry.counters.push_back(info);
  auto id = static_cast<NVPMCounterID>(registry.counters.size());
  registry.ids.emplace(info.name, id);
  return id;
}

const CounterInfo* FindCounter(NVPMCounterID id) {
  Registry& registry = TheRegistry();
  if (id == 0 || id > registry.counters.size()) return nullptr;
  return &registry.counters[id - 1];
}

void ClearCounters() {
  TheRegistry().counters.clear();
  TheRegistry().ids.clear();
}

}  // namespace opengpa::nvpm
