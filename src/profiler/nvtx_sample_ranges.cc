#include "profiler/nvtx_sample_ranges.h"

namespace opengpa::profiling {

std::optional<NvtxSampleRanges::Started> NvtxSampleRanges::OnPush(std::uint64_t thread,
                                                                  const std::vector<NvtxRange>& open) {
  const std::uint64_t index = pushes_++;
  if (open_ || open.empty() || filter_.Exhausted()) return std::nullopt;
  if (include_.Active() && !include_.Matches(open)) return std::nullopt;
  Started started;
  started.index = index;
  for (const NvtxRange& range : open) {
    started.labels.push_back(NvtxRangeLabel(range));
    started.path += (started.path.empty() ? "" : "/") + started.labels.back();
  }
  if (!filter_.Profile(started.path)) return std::nullopt;
  open_ = true;
  thread_ = thread;
  depth_ = open.size();
  return started;
}

bool NvtxSampleRanges::OnPop(std::uint64_t thread, const std::vector<NvtxRange>& open) {
  if (!open_ || thread != thread_ || open.size() >= depth_) return false;
  open_ = false;
  return true;
}

}  // namespace opengpa::profiling
