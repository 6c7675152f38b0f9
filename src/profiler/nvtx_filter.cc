#include "profiler/nvtx_filter.h"

#include <algorithm>

namespace opengpa::profiling {

std::string NvtxRangeLabel(const NvtxRange& range) {
  return range.domain.empty() ? range.name : range.domain + "@" + range.name;
}

bool NvtxFilter::Create(const std::vector<std::string>& specs, NvtxFilter* out, std::string* error) {
  NvtxFilter filter;
  for (const std::string& spec : specs) {
    std::string text = spec;
    if (!text.empty() && text.back() == '/') text.pop_back();  // ncu marks push/pop ranges with a trailing '/'
    NvtxRange range;
    const std::size_t at = text.find('@');
    range.domain = at == std::string::npos ? "" : text.substr(0, at);
    range.name = at == std::string::npos ? text : text.substr(at + 1);
    if (range.name.empty() || (at != std::string::npos && range.domain.empty())) {
      *error = "--nvtx-include \"" + spec + "\": expected a range name or domain@name";
      return false;
    }
    if (range.name.find('/') != std::string::npos) {
      *error = "--nvtx-include \"" + spec +
               "\": nested range paths are not supported; name the innermost range (a launch is chosen when any open "
               "range matches)";
      return false;
    }
    filter.ranges_.push_back(std::move(range));
  }
  *out = std::move(filter);
  return true;
}

bool NvtxFilter::MatchesLabels(const std::vector<std::string>& labels) const {
  return std::any_of(labels.begin(), labels.end(), [this](const std::string& label) {
    return std::any_of(ranges_.begin(), ranges_.end(),
                       [&label](const NvtxRange& wanted) { return NvtxRangeLabel(wanted) == label; });
  });
}

bool NvtxFilter::Matches(const std::vector<NvtxRange>& open) const {
  return std::any_of(open.begin(), open.end(), [this](const NvtxRange& range) {
    return std::any_of(ranges_.begin(), ranges_.end(), [&range](const NvtxRange& wanted) {
      return wanted.domain == range.domain && wanted.name == range.name;
    });
  });
}

}  // namespace opengpa::profiling
