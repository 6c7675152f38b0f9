#include "nvidia/engine_triggers.h"

#include <algorithm>

#include "nvidia/perfworks_graphics_device.h"
#include "platform/logging.h"

namespace opengpa::nvidia {

EngineTriggers::EngineTriggers(const GraphicsCounterSource& source, std::uint32_t passes)
    : source_(source), recorded_(passes), intervals_(passes), short_(passes) {}

GpaStatus EngineTriggers::Record(std::uint32_t pass, std::uint64_t key, void* command_buffer,
                                 const std::function<void()>& write_stamps) {
  if (pass >= recorded_.size()) {
    return LogError(kGpaStatusErrorIndexOutOfRange, "engine trigger of pass {}: the session has {} sampled pass(es)",
                    pass, recorded_.size());
  }
  write_stamps();
  const perfworks::Status status =
      perfworks::InsertVulkanTrigger(source_.Library(), source_.DeviceIndex(), command_buffer);
  if (status != perfworks::kSuccess) {
    return LogError(kGpaStatusErrorFailed, "NVPW_VK_CommandBuffer_InsertTrigger failed: {}",
                    perfworks::StatusName(status));
  }
  recorded_[pass].push_back(key);
  return kGpaStatusOk;
}

GpaStatus EngineTriggers::Place(const SampledPasses& sampled, const StampOf& stamp_ns, const StampOf& done_ns) {
  if (placed_status_) return *placed_status_;
  const auto passes = std::min<std::size_t>(recorded_.size(), sampled.PassCount());
  for (std::uint32_t pass = 0; pass < passes; ++pass) {
    // The GPU ran the triggers in the order of the timestamps before them; within one command buffer two can
    // share a timestamp value, and then recording order decides.
    struct Ran {
      std::uint64_t stamp;
      std::uint64_t key;
      std::uint64_t done;  // 0: not known
    };
    std::vector<Ran> ran;
    for (std::uint64_t key : recorded_[pass]) {
      if (const std::optional<std::uint64_t> stamp = stamp_ns(pass, key)) {
        const std::optional<std::uint64_t> done = done_ns ? done_ns(pass, key) : std::nullopt;
        ran.push_back({*stamp, key, done.value_or(0)});
      }
    }
    std::stable_sort(ran.begin(), ran.end(), [](const Ran& a, const Ran& b) { return a.stamp < b.stamp; });
    std::vector<std::uint64_t> stamps;
    std::vector<std::uint64_t> done;
    stamps.reserve(ran.size());
    done.reserve(ran.size());
    for (const Ran& r : ran) {
      stamps.push_back(r.stamp);
      done.push_back(r.done);
    }
    std::vector<std::size_t> intervals;
    std::vector<std::size_t> short_counts;
    if (GpaStatus status = sampled.IntervalsClosedAfter(pass, stamps, done, &intervals, &short_counts);
        status != kGpaStatusOk) {
      placed_status_ = status;
      return status;
    }
    for (std::size_t k = 0; k < intervals.size(); ++k) intervals_[pass][ran[k].key] = intervals[k];
    for (std::size_t k : short_counts) short_[pass].insert(ran[k].key);
  }
  placed_ = true;
  placed_status_ = kGpaStatusOk;
  return kGpaStatusOk;
}

std::optional<std::size_t> EngineTriggers::IntervalOf(std::uint32_t pass, std::uint64_t key) const {
  if (pass >= intervals_.size()) return std::nullopt;
  const auto found = intervals_[pass].find(key);
  if (found == intervals_[pass].end()) return std::nullopt;
  return found->second;
}

GpaStatus EngineTriggers::Accumulate(const SampledPasses& sampled, std::uint32_t pass, std::uint64_t begin_key,
                                     std::uint64_t end_key, std::vector<double>* sums,
                                     std::vector<double>* weights) const {
  if (pass >= intervals_.size()) {
    return LogError(kGpaStatusErrorIndexOutOfRange, "pass {}: the session has {} sampled pass(es)", pass,
                    intervals_.size());
  }
  const auto& placed = intervals_[pass];
  const auto first = placed.find(begin_key);
  const auto last = placed.find(end_key);
  if (short_[pass].count(end_key) != 0) {
    return LogError(kGpaStatusErrorReadingSampleResult,
                    "pass {}: a sample's end trigger fired before its work was done and no sampler interval holds "
                    "what ran after it (the GPU ran behind its triggers): its hardware counts would be short, so it "
                    "has none; run the session again",
                    pass);
  }
  if (first != placed.end() && last != placed.end() && last->second == first->second) {
    Log(kGpaLoggingMessage,
        "pass {}: a sample's begin and end triggers closed the same sampler interval (the trigger before it fired "
        "before its own sample's work ran and was placed after it): its counts are in the sample before it",
        pass);
    return kGpaStatusOk;
  }
  if (first == placed.end() || last == placed.end() || last->second < first->second) {
    return LogError(kGpaStatusErrorFailed,
                    "pass {}: a sample's triggers closed no sampler interval (the sampler stopped before recording "
                    "them, or the pass ran while it was not sampling)",
                    pass);
  }
  sampled.Accumulate(pass, first->second, last->second, sums, weights);
  return kGpaStatusOk;
}

}  // namespace opengpa::nvidia
