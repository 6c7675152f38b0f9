// The engine triggers that delimit GPA samples in Vulkan command buffers for NVIDIA's GPU periodic sampler, shared
// by the Vulkan backend and the Vulkan layer, so both place and read them the same way:
//
//   recording  a boundary is a top-of-pipe and a bottom-of-pipe timestamp, then the trigger
//              (NVPW_VK_CommandBuffer_InsertTrigger). The timestamps usually make the GPU's channel wait for the
//              work before them (a trigger alone fires before earlier draws are done, measured on the H100), but not
//              always (a draw waiting behind a render pass's clear, on the H200), and the bottom-of-pipe one says,
//              on the sampler's own clock, when the trigger ran.
//   placing    once a pass is decoded, the triggers of that pass are ordered by those timestamps (recording order
//              for ties) and matched to the sampler's intervals (AssignIntervals, sampled_passes.h); a trigger
//              that ends a sample and fired before the sample's work was done (its own timestamp after that work
//              says when) closes the interval that counted the work.
//   reading    a sample's value is its intervals between the trigger at its begin and the one at its end.
//
// Each trigger is named by a key the caller chooses (unique within its pass), e.g. where its timestamps are.
#ifndef OPENGPA_NVIDIA_ENGINE_TRIGGERS_H_
#define OPENGPA_NVIDIA_ENGINE_TRIGGERS_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "gpu_performance_api/gpu_perf_api_types.h"
#include "nvidia/graphics_counter_source.h"
#include "nvidia/sampled_passes.h"

namespace opengpa::nvidia {

// How long after the last trigger of a pass has passed the front end the sampler is kept running before it is
// stopped: it records a trigger a little after the GPU passes it (the last triggers were lost without the wait, on
// the H100).
constexpr std::chrono::milliseconds kSamplerSettle{2};

class EngineTriggers {
 public:
  EngineTriggers(const GraphicsCounterSource& source, std::uint32_t passes);

  // Records a boundary into `command_buffer` (a VkCommandBuffer being recorded): `write_stamps` writes the top- and
  // then the bottom-of-pipe timestamp, then the engine trigger follows. kGpaStatusErrorFailed (logged) when PerfWorks
  // refuses the trigger; the timestamps are written either way.
  GpaStatus Record(std::uint32_t pass, std::uint64_t key, void* command_buffer,
                   const std::function<void()>& write_stamps);
  std::size_t Count(std::uint32_t pass) const { return pass < recorded_.size() ? recorded_[pass].size() : 0; }

  // The GPU time in ns of the bottom-of-pipe timestamp written before trigger `key`; nothing for a trigger whose
  // command buffer never ran.
  using StampOf = std::function<std::optional<std::uint64_t>(std::uint32_t pass, std::uint64_t key)>;
  // Which sampler interval each trigger that ran closed, once `sampled` has decoded every pass. Done once: later
  // calls return the first answer. `done_ns` (optional): for a trigger that ends a sample, the GPU time in ns of the
  // sample's own bottom-of-pipe timestamp after its work; the trigger may have fired before that work ran, and
  // then closes the interval that counted it (AssignIntervals).
  GpaStatus Place(const SampledPasses& sampled, const StampOf& stamp_ns, const StampOf& done_ns = nullptr);
  bool Placed() const { return placed_; }
  // The interval trigger `key` of `pass` closed, once placed; nothing for a trigger that closed none.
  std::optional<std::size_t> IntervalOf(std::uint32_t pass, std::uint64_t key) const;

  // Adds `sampled`'s values of `pass` between triggers `begin_key` and `end_key` to `sums` / `weights`
  // (SampledPasses::Accumulate). kGpaStatusErrorFailed (logged) when either closed no interval. Both closing the
  // same interval (the trigger before the sample's was moved past its begin: AssignIntervals) adds nothing
  // (logged): what the sample ran counts in the one before. kGpaStatusErrorReadingSampleResult (logged) when
  // `end_key` fired before the sample's work was done and no interval holds what ran after it (AssignIntervals'
  // short counts): the sums would be short by an amount nothing can tell.
  GpaStatus Accumulate(const SampledPasses& sampled, std::uint32_t pass, std::uint64_t begin_key, std::uint64_t end_key,
                       std::vector<double>* sums, std::vector<double>* weights) const;

 private:
  const GraphicsCounterSource& source_;
  std::vector<std::vector<std::uint64_t>> recorded_;             // [pass]: keys in recording order
  std::vector<std::map<std::uint64_t, std::size_t>> intervals_;  // [pass]: key -> interval it closed
  std::vector<std::set<std::uint64_t>> short_;                   // [pass]: keys whose sample's counts are short
  bool placed_ = false;
  std::optional<GpaStatus> placed_status_;
};

}  // namespace opengpa::nvidia

#endif  // OPENGPA_NVIDIA_ENGINE_TRIGGERS_H_
