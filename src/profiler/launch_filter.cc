#include "profiler/launch_filter.h"

#include "platform/name_suggestion.h"

namespace opengpa::profiling {

bool LaunchFilter::Create(const std::string& kernel_name, std::uint64_t skip, std::uint64_t count, LaunchFilter* out,
                          std::string* error) {
  LaunchFilter filter;
  if (!kernel_name.empty()) {
    try {
      filter.pattern_.emplace(kernel_name, std::regex::ECMAScript | std::regex::optimize);
    } catch (const std::regex_error& e) {
      *error = "--kernel-name \"" + Quoted(kernel_name) + "\" is not a regular expression: " + e.what();
      return false;
    }
  }
  filter.skip_ = skip;
  filter.count_ = count;
  *out = std::move(filter);
  return true;
}

bool LaunchFilter::Profile(const std::string& name) {
  if (Exhausted()) return false;
  if (pattern_ && !std::regex_search(name, *pattern_)) return false;
  if (matched_++ < skip_) return false;
  ++profiled_;
  return true;
}

}  // namespace opengpa::profiling
