#include "profiler/launch_labels.h"

#include <utility>

namespace opengpa::profiling {

void LaunchLabelBook::Record(std::uint64_t correlation, LaunchLabel label) {
  labels_[correlation] = Entry{std::move(label), std::nullopt};
}

void LaunchLabelBook::Alias(std::uint64_t nested, std::uint64_t outer) {
  auto found = labels_.find(outer);
  if (found == labels_.end() || nested == outer) return;
  found->second.nested = nested;
  aliases_[nested] = outer;
}

std::optional<LaunchLabel> LaunchLabelBook::Take(std::uint64_t correlation, bool shared) {
  std::uint64_t outer = correlation;
  auto found = labels_.find(correlation);
  if (found == labels_.end()) {
    auto alias = aliases_.find(correlation);
    if (alias == aliases_.end()) return std::nullopt;
    outer = alias->second;
    found = labels_.find(outer);
    if (found == labels_.end()) return std::nullopt;
  }
  if (shared) return found->second.label;
  LaunchLabel label = std::move(found->second.label);
  if (found->second.nested) aliases_.erase(*found->second.nested);
  labels_.erase(found);
  return label;
}

void LaunchLabelBook::Clear() {
  labels_.clear();
  aliases_.clear();
}

}  // namespace opengpa::profiling
