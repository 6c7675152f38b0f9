// A streaming session (GPA 4's GpaSpm*, kGpaSessionSampleTypeStreamingCounter) of a graphics API on an NVIDIA GPU:
// PerfWorks' GPU periodic sampler closes an interval every `interval_ns` of GPU time by itself
// (kTriggerGpuTimeInterval), so the series needs nothing recorded into the application's command buffers.
// AMD's GPA streams on no graphics API; CUDA streams through CUPTI's PM sampling (backends/cuda/streaming).
//
//   StartStreaming  begins a sampler session by time with the session's one pass and starts sampling: the first
//                   sample runs from there to the first interval boundary, so it holds only work after the start
//   StopStreaming   lets the sampler run two intervals more (the interval in which the caller's work ended closes
//                   at the next boundary), stops and decodes. It does not wait for the application's work: a
//                   Vulkan device cannot be waited for without the application's queues, so the caller waits for
//                   the work it streams (a fence, vkQueueWaitIdle, glFinish) before GpaSpmEnd
//   ReadStreamingSeries  every decoded interval, its start and end on the GPU's clock (the clock of the API's
//                   timestamps on NVIDIA), and each counter's value in it
//
// The sampler counts every process's work on the GPU; its record buffer holds the samples until the stop, sized
// from GpaSpmSetDuration (or kDefaultStreamSamples intervals): samples beyond it are dropped, counted as lost and
// logged.
#ifndef OPENGPA_BACKENDS_COMMON_SAMPLED_STREAM_SESSION_H_
#define OPENGPA_BACKENDS_COMMON_SAMPLED_STREAM_SESSION_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/backend.h"
#include "nvidia/graphics_counter_source.h"

namespace opengpa {

// Intervals a stream keeps when the caller gives no duration (6.5 s at the default 100 us), and at most.
constexpr std::uint32_t kDefaultStreamSamples = 65536;
constexpr std::uint32_t kMaximumStreamSamples = 1u << 20;

// The samples a stream of `interval_ns` for `duration_ns` (0: unknown) needs, with two intervals of margin at
// each end, within [1, kMaximumStreamSamples].
std::uint32_t StreamSampleCapacity(std::uint64_t interval_ns, std::uint64_t duration_ns);

// Each counter over a whole series (GPA v3's one sample of a streaming session): counts summed, the others
// averaged over the samples weighted by their duration. `values` is samples x additive.size(), row-major.
std::vector<double> WholeSeriesValues(const std::vector<double>& values, const std::vector<std::uint64_t>& start_ns,
                                      const std::vector<std::uint64_t>& end_ns, const std::vector<bool>& additive);

// What a graphics context plans for a streaming set: the sampler metrics among its counters, whether each is a
// count, and their sampler passes (one, for a set that streams).
struct StreamPlan {
  std::vector<std::string> names;
  std::vector<bool> additive;
  std::vector<nvidia::perfworks::PassConfig> passes;
};

// Whether a graphics context streams its sampler's metrics: `source` samples by time, every counter of the set is
// one of its metrics (`not_sampled`: the name of the first that is not, "" when none) and `plan` (their passes)
// has one pass. kGpaStatusOk, or the reason logged: kGpaStatusErrorIncompatibleSampleTypes, or
// kGpaStatusErrorNotEnabled for a second pass (GPA 4's status for a multi-pass streaming set). `api`: "Vulkan".
GpaStatus CheckSampledStreamable(const nvidia::GraphicsCounterSource* source, const std::string& api,
                                 const std::string& not_sampled, std::size_t counters, std::size_t passes);

// The streaming session of a set CheckSampledStreamable accepted (`plan` from the backend's planning: the checked
// plan is used, not planned again). `api`: "Vulkan".
GpaStatus CreateSampledStreamSession(const nvidia::GraphicsCounterSource& source, const std::string& api,
                                     StreamPlan plan, std::unique_ptr<BackendSession>* out);

class SampledStreamSession : public StreamingOnlySession {
 public:
  // `names` (metrics of `source`) fit `pass`, the one sampler pass GraphicsCounterSource::PlanPasses made of them;
  // `additive[i]`: names[i] is a count. `label` names the API in messages ("Vulkan streaming").
  SampledStreamSession(const nvidia::GraphicsCounterSource& source, std::string label, std::vector<std::string> names,
                       std::vector<bool> additive, nvidia::perfworks::PassConfig pass);
  ~SampledStreamSession() override;

  bool IsPassComplete(GpaUInt32) override { return sampler_ == nullptr || !sampler_->sampling(); }
  [[nodiscard]] GpaStatus ReadResults(SampleSlot slot_count, std::vector<double>* values) override;

  [[nodiscard]] GpaStatus StartStreaming(const StreamingOptions& options) override;
  [[nodiscard]] GpaStatus StopStreaming() override;
  [[nodiscard]] GpaStatus ReadStreamingSeries(StreamingSeries* series) override;

 private:
  const nvidia::GraphicsCounterSource& source_;
  std::string label_;
  std::vector<std::string> names_;
  std::vector<bool> additive_;
  nvidia::perfworks::PassConfig pass_;
  std::uint64_t interval_ns_ = 0;
  std::unique_ptr<nvidia::perfworks::PeriodicSampler> sampler_;
  bool stopped_ = false;
  StreamingSeries series_;
};

}  // namespace opengpa

#endif  // OPENGPA_BACKENDS_COMMON_SAMPLED_STREAM_SESSION_H_
