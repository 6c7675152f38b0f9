// How the L2 flush in a context of its own (l2_flush.h) is ordered against the program's stream, chosen by
// measuring both on the program itself. Two orderings give the same cache state before every launch:
//   gpu   the program's stream and the flush's stream wait for each other's events on the GPU; the host never
//         waits. A context waiting on the GPU for another context's event holds the GPU until its time slice
//         ends, so each cross-context wait may cost a time slice.
//   host  the host waits for the program's stream, runs the flush and waits for it: no GPU-side wait, but two
//         host synchronizations and two context switches per launch.
// On the H100 (docs/benchmarks.md) neither is always cheaper: with SM counters in the set (CUPTI then
// synchronizes every range anyway) gpu costs 2.5 ms per launch and host 3.7; without them (GPA's GPUTime,
// FetchSize, WriteSize, L2CacheHit) gpu costs 3.4 ms, most of it in cuptiRangeProfilerStop, and host 1.3.
// So the chooser times one batch of each, after a first batch left to the program's warm-up, and keeps the
// cheaper for the rest of the context (a message says so); OPENGPA_PROFILE_FLUSH_ORDER=gpu|host forces one.
// Until then the flush is host-ordered (the warm-up batch, then the host batch timed, then the GPU batch): a
// wrong host-ordered batch costs about 1.1 ms per launch, a wrong GPU-ordered one 2 ms.
#ifndef OPENGPA_PROFILER_FLUSH_ORDER_H_
#define OPENGPA_PROFILER_FLUSH_ORDER_H_

#include <cstddef>
#include <optional>
#include <string>

namespace opengpa::inject_cuda {

class FlushOrderChooser {
 public:
  // Batches with fewer flushed launches than this are not timed (too few to compare).
  static constexpr std::size_t kMinimumLaunches = 64;

  // `forced`: "gpu" or "host" fixes the ordering; anything else (or none) lets the chooser measure.
  explicit FlushOrderChooser(std::optional<std::string> forced = std::nullopt);

  // The ordering of the batch now starting.
  bool host_ordered() const { return host_ordered_; }

  // A batch ended: `wall_ms` from its start to the end of its stop, `flushed` launches flushed in it. Returns the
  // message that reports the choice, once, when it is made.
  std::optional<std::string> OnBatchEnd(double wall_ms, std::size_t flushed);

 private:
  enum class Phase { kWarmUp, kTimingHost, kTimingGpu, kChosen };
  Phase phase_ = Phase::kWarmUp;
  bool host_ordered_ = true;
  double host_ms_per_launch_ = 0;
};

}  // namespace opengpa::inject_cuda

#endif  // OPENGPA_PROFILER_FLUSH_ORDER_H_
