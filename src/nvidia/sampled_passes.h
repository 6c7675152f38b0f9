// The passes of a session whose hardware counters come from NVIDIA's GPU periodic sampler
// (graphics_counter_source.h), shared by the Vulkan and OpenGL backends and the Vulkan layer: one sampler configuration
// per GPA pass, started when the pass begins and stopped and decoded when its work is done, and the values of a sample
// rebuilt from the sampler's intervals between the two triggers that delimit it.
//
// The sampler closes an interval at every trigger. The backend says where its triggers are: by GPU time (a
// Vulkan engine trigger is recorded right after a bottom-of-pipe timestamp, and the interval it closes ends
// just after that timestamp, on the same clock) or by order (OpenGL's CPU triggers are the only ones).
#ifndef OPENGPA_NVIDIA_SAMPLED_PASSES_H_
#define OPENGPA_NVIDIA_SAMPLED_PASSES_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gpu_performance_api/gpu_perf_api_types.h"
#include "nvidia/graphics_counter_source.h"

namespace opengpa::nvidia {

// How far from a trigger's timestamp the interval it closes may end: usually within a few microseconds either way
// on the H100, 188 us once (a trigger the front end reached while a clear was still running); an interval ending
// further away belongs to another trigger.
constexpr std::uint64_t kTriggerToIntervalEndLimitNs = 1'000'000;
// How far before its timestamp the sampler may place a trigger and still have it close the interval after the
// work before it: 1.15 us measured after a dispatch on the H100.
constexpr std::uint64_t kTriggerBeforeStampNs = 2'000;

// Which sampler interval each trigger closed. `stamps_ns` are the GPU times of the timestamps written just before
// each trigger, in the order the GPU ran the triggers; `interval_ends_ns` the decoded intervals' end times. When
// there are as many intervals as triggers, trigger k closed interval k (the sampler's time of a trigger lies within
// microseconds of its timestamp, either side; 188 us before it after a render pass's clear, on the H100, so the
// order is what counts). Otherwise (a trigger lost, a foreign one between) each trigger gets the first interval
// after the previous trigger's that ends no earlier than kTriggerBeforeStampNs before its timestamp. An interval
// ending more than kTriggerToIntervalEndLimitNs from the timestamp means the trigger was not sampled (the pass ran
// with another configuration): kGpaStatusErrorFailed, logged. Triggers after the last decoded interval get none
// (intervals->size() < stamps_ns.size()).
//
// `done_ns[k]` (0: unknown): for a trigger that ends a sample, the GPU time of the sample's own bottom-of-pipe
// timestamp after its work. A trigger fires when the GPU's channel reaches it, which can be before the work
// recorded ahead of it has run, bottom-of-pipe timestamps between or not (H200, AMD's vk_color_cube: a 36-vertex
// draw just after a render pass's clear; its end trigger's interval ended 3.9 us before the draw's own timestamp
// after it, 0.9 us after the begin trigger's, and the draw's threads were counted in the next interval). The
// sample's work is done by `done_ns[k]`, so it is counted by the first interval that ends no earlier than
// kTriggerBeforeStampNs before it: the trigger closes that interval when it lies after its own (and within
// kTriggerToIntervalEndLimitNs). Not the trigger's own timestamp: it is written after whatever was recorded
// between the sample's end and the trigger (a query's end can take 5 us), so it lies after the work's end even when
// the trigger fired on time. No trigger closes an interval before the previous trigger's, so two may share one.
// Where no interval ends after the work (every later trigger fired early too), the trigger keeps its interval, an
// error is logged and `short_counts` (optional) holds k: that sample's counts miss what ran after the trigger.
GpaStatus AssignIntervals(const std::vector<std::uint64_t>& stamps_ns, const std::vector<std::uint64_t>& done_ns,
                          const std::vector<std::uint64_t>& interval_ends_ns, std::vector<std::size_t>* intervals,
                          std::vector<std::size_t>* short_counts = nullptr);

// OPENGPA_SAMPLER_TRACE=1 (read once): the sampler's passes, intervals (every metric of each), triggers and the
// samples placed in them are printed on stderr, with what each step of the sampler cost.
bool SamplerTraceOn();

class SampledPasses {
 public:
  // `names` are the session's sampled hardware counters (metrics of `source`), `additive[i]` whether names[i]
  // is a count; `passes` their plan (GraphicsCounterSource::PlanPasses).
  SampledPasses(const GraphicsCounterSource& source, perfworks::TriggerSource trigger, std::vector<std::string> names,
                std::vector<bool> additive, std::vector<perfworks::PassConfig> passes);
  ~SampledPasses();

  GpaUInt32 PassCount() const { return static_cast<GpaUInt32>(passes_.size()); }
  bool Empty() const { return names_.empty(); }
  // The pass being sampled now; PassCount() once every pass is decoded.
  GpaUInt32 ActivePass() const { return active_; }
  bool Decoded(GpaUInt32 pass) const { return pass < active_; }

  // Begins the sampler session and samples pass 0.
  GpaStatus Begin();
  // Stops and decodes the active pass and samples the next one (ending the sampler session after the last).
  // `triggers`: how many triggers the backend fired in the pass, which sizes the decoded counter data (with room
  // for twice as many: another process's triggers close intervals too).
  GpaStatus Advance(std::size_t triggers);
  GpaStatus CpuTrigger();

  // The intervals of decoded `pass` that the backend's triggers closed, given the GPU timestamp written just
  // before each trigger, in the order the GPU ran them, and when the work each ends was done (AssignIntervals,
  // whose `short_counts` it passes on).
  GpaStatus IntervalsClosedAfter(GpaUInt32 pass, const std::vector<std::uint64_t>& stamps_ns,
                                 const std::vector<std::uint64_t>& done_ns, std::vector<std::size_t>* intervals,
                                 std::vector<std::size_t>* short_counts = nullptr) const;
  std::size_t IntervalCount(GpaUInt32 pass) const { return decoded_[pass].durations.size(); }

  // Adds pass `pass`'s counters over intervals (after, last] to `sums` / `weights` (indexed like `names`): counts
  // add up; ratios add value x duration, with the duration in `weights`. Finish() turns them into values.
  void Accumulate(GpaUInt32 pass, std::size_t after, std::size_t last, std::vector<double>* sums,
                  std::vector<double>* weights) const;
  void Finish(const std::vector<double>& sums, const std::vector<double>& weights, std::vector<double>* values) const;

 private:
  struct DecodedPass {
    std::vector<std::uint64_t> end_ns;        // per interval
    std::vector<double> durations;            // per interval, ns
    std::vector<std::vector<double>> values;  // [interval][metric of the pass]
  };

  const GraphicsCounterSource& source_;
  perfworks::TriggerSource trigger_;
  std::vector<std::string> names_;
  std::vector<bool> additive_;
  std::vector<perfworks::PassConfig> passes_;
  std::unique_ptr<perfworks::PeriodicSampler> sampler_;
  GpaUInt32 active_ = 0;
  std::vector<DecodedPass> decoded_;
  std::vector<bool> merged_;  // the sampler merged triggers of the pass: its intervals cannot be matched
};

}  // namespace opengpa::nvidia

#endif  // OPENGPA_NVIDIA_SAMPLED_PASSES_H_
