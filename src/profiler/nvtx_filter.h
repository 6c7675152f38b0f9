// --nvtx-include: which kernel launches `opengpa profile` samples by the NVTX push/pop ranges open on the
// launching thread, in ncu's syntax for push/pop ranges: "name" names a range of NVTX's default domain
// (nvtxRangePushA/Ex), "domain@name" one of a registered domain (nvtxDomainCreateA, nvtxDomainRangePushEx).
// A trailing "/" (ncu's mark for a push/pop range) is accepted. A launch is chosen when any range open on its
// thread (nesting allowed, at any depth) matches any of the specs given; with no spec every launch is.
#ifndef OPENGPA_PROFILER_NVTX_FILTER_H_
#define OPENGPA_PROFILER_NVTX_FILTER_H_

#include <string>
#include <vector>

namespace opengpa::profiling {

// One open push/pop range: its domain's name ("" for the default domain) and its message.
struct NvtxRange {
  std::string domain;
  std::string name;
};

// How a sample shows the range: "name", or "domain@name" outside the default domain.
std::string NvtxRangeLabel(const NvtxRange& range);

class NvtxFilter {
 public:
  // False and *error quoting the spec when one is empty or names a nested path ("a/b"), which is not
  // supported (a launch inside b inside a is chosen by "b" alone).
  static bool Create(const std::vector<std::string>& specs, NvtxFilter* out, std::string* error);

  // Whether any spec was given (otherwise every launch is chosen).
  bool Active() const { return !ranges_.empty(); }
  // Whether a launch made with `open` ranges (outermost first) is chosen.
  bool Matches(const std::vector<NvtxRange>& open) const;
  // The same for the labels a sample carries (NvtxRangeLabel's form, outermost first), as the sampled mode keeps
  // rows: "a@b" is taken as domain a's range b, also where a default-domain range was named "a@b".
  bool MatchesLabels(const std::vector<std::string>& labels) const;

 private:
  std::vector<NvtxRange> ranges_;
};

}  // namespace opengpa::profiling

#endif  // OPENGPA_PROFILER_NVTX_FILTER_H_
