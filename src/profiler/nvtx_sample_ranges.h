// --range-mode nvtx: which NVTX push/pop ranges of the profiled program become samples (ncu's range mode).
// The injected library turns each one into a CUPTI user range of the context current on the pushing thread,
// so a sample holds the counters of all the work between the push and the pop.
//
// One sample range is open at a time in the process: CUPTI keeps one range at a time per context (one
// nesting level), and a pass must stop with no range open. The sample is the outermost range chosen, on the
// thread that pushed it: chosen by --nvtx-include (any range when none is given; nvtx_filter.h) and then by
// --kernel-name, --launch-skip and --launch-count applied to its path, as they are to kernel names in the
// kernel range mode (launch_filter.h). Ranges pushed inside it, and ranges of other threads while it is open,
// are part of it; its work is every kernel of the context between the push and the pop, whichever thread
// launched it. The sample is named by its path, the labels of the ranges open at its push joined by '/'.
#ifndef OPENGPA_PROFILER_NVTX_SAMPLE_RANGES_H_
#define OPENGPA_PROFILER_NVTX_SAMPLE_RANGES_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "profiler/launch_filter.h"
#include "profiler/nvtx_filter.h"

namespace opengpa::profiling {

class NvtxSampleRanges {
 public:
  NvtxSampleRanges() = default;
  NvtxSampleRanges(NvtxFilter include, LaunchFilter filter)
      : include_(std::move(include)), filter_(std::move(filter)) {}

  struct Started {
    std::string path;                 // "outer/inner", labels as samples show them
    std::vector<std::string> labels;  // the open ranges, outermost first
    std::uint64_t index = 0;          // the range's position among every push of the process
  };
  // After a push on `thread`, whose open ranges are now `open` (outermost first): the sample range that
  // starts with it, if one does.
  std::optional<Started> OnPush(std::uint64_t thread, const std::vector<NvtxRange>& open);
  // After a pop on `thread`, which leaves `open`: whether it ended the open sample range.
  bool OnPop(std::uint64_t thread, const std::vector<NvtxRange>& open);
  // The open sample range was ended otherwise (its batch stopped early, its context could not profile it).
  void Forget() { open_ = false; }

  bool Open() const { return open_; }
  // --launch-count ranges were sampled: no later range will be.
  bool Exhausted() const { return filter_.Exhausted(); }

 private:
  NvtxFilter include_;
  LaunchFilter filter_;
  std::uint64_t pushes_ = 0;
  bool open_ = false;
  std::uint64_t thread_ = 0;
  std::size_t depth_ = 0;  // ranges open on its thread with it, itself included
};

}  // namespace opengpa::profiling

#endif  // OPENGPA_PROFILER_NVTX_SAMPLE_RANGES_H_
