// A GPA session on a Vulkan device: samples become timestamps and pipeline-statistics counts recorded into
// the application's command buffers (core queries, or VK_AMD_gpa_interface samples where the device offers the
// extension), and read back when the GPU has written them.
//
// A sample is a list of *segments*, one per command list it runs on: it begins on one list (timestamps
// before it, a statistics query opened), may be continued on other primaries (GpaContinueSampleOnCommandList:
// the statistics query of the first list closes at that list's end and a new one opens on the next), and
// ends on the last (statistics query closed, timestamp after it). Its time runs from the first segment's
// timestamps to the last's; its statistics are the sum over segments. Samples recorded in a secondary
// command buffer are results of the primary that executes it once copied (GpaCopySecondarySamples): the copy
// points at the secondary's queries, which that single execution writes.
//
// With NVIDIA's GPU periodic sampler (SessionSetup::sampled), every segment is also delimited by engine
// triggers, each recorded right after a top- and a bottom-of-pipe timestamp of its own (a marker): the timestamps
// make the front end wait for the work before them (draws and dispatches alike, measured on the H100: a trigger
// alone, or after a lone bottom-of-pipe timestamp, can fire before the draws before it are done), and they say on
// the sampler's own clock which sampler interval the trigger closed. A segment's values are its intervals between its
// two triggers. Each GPA pass has its own sampler configuration; the next pass's is set once every command list of the
// current pass has ended and its work has completed (checked in every call). Engine triggers recorded while another
// pass is being sampled are not counted (measured on the H100), so a pass's command lists must be recorded after the
// previous pass's work has completed: GpaBeginCommandList refuses a pass that is not the one being sampled
// (docs/graphics-counters.md). The timing counters (GPUTime, ExecutionStart/End/Duration) of such a session are
// measured in a pass of their own after the sampler's, with no trigger in it: a draw's time read 1.3-6 µs long with
// triggers around it, by an amount that moved with the sampler's configuration and with when the triggers fired,
// so the two recording paths disagreed (validation rows 69-81). That pass has no sampler configuration, so its
// command lists may be recorded at any time.
//
// With the driver's VK_KHR_performance_query counters (SessionSetup::performance), each GPA pass has a set of them the
// driver counts in one pass, and every segment recorded in that pass is also one performance query of its command
// list (vulkan_performance_queries.h); a sample's value is the sum over its segments (the mean for percentages).
#ifndef OPENGPA_BACKENDS_VULKAN_VULKAN_SESSION_H_
#define OPENGPA_BACKENDS_VULKAN_VULKAN_SESSION_H_

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "backends/vulkan/vulkan_functions.h"
#include "backends/vulkan/vulkan_hardware_counters.h"
#include "backends/vulkan/vulkan_performance_queries.h"
#include "backends/vulkan/vulkan_query_pool.h"
#include "core/backend.h"
#include "nvidia/engine_triggers.h"
#include "nvidia/sampled_passes.h"

namespace opengpa::vulkan {

// What a session needs from its context, fixed when the session is created.
struct SessionSetup {
  const DeviceFunctions* functions = nullptr;
  VkDevice device = VK_NULL_HANDLE;
  std::vector<VulkanHardwareCounter> counters;  // the requested counters, in result-column order
  std::uint64_t timestamp_mask = ~0ull;         // timestampValidBits as a mask
  double timestamp_period_ns = 1.0;             // VkPhysicalDeviceLimits::timestampPeriod
  bool calibrated_timestamps = false;           // vkGetCalibratedTimestampsEXT with the device time domain works
  // VK_AMD_gpa_interface's commands where the device was created with it: samples are recorded through them
  // (vulkan_gpa_interface_recorder.h), as AMD's GPA does; null: core queries (vulkan_query_pool.h).
  const GpaInterfaceFunctions* gpa_interface = nullptr;
  // Every statistic a pipeline-statistics query may count on the device (VkPhysicalDeviceFeatures allowing): a
  // sample that counts a graphics statistic counts them all (QueriedStatistics).
  VkQueryPipelineStatisticFlags supported_statistics = 0;
  // NVIDIA's GPU periodic sampler for the kSampledMetric counters, with their passes; null without them.
  const nvidia::GraphicsCounterSource* sampler = nullptr;
  std::shared_ptr<nvidia::SampledPasses> sampled;
  // The driver's VK_KHR_performance_query counters: the query set of each GPA pass, pass p = element p (none
  // without them). Each set is counted in one driver pass (vulkan_performance_counters.h).
  std::vector<PerformanceQuerySet> performance;
};

// The statistics each sample's pipeline-statistics query counts: those `counters` read and, when one of them is a
// graphics statistic, every statistic in `supported`. So a sample records the same query whatever else it counts
// (hardware counters on or off) and whichever path records it (VK_LAYER_OPENGPA_gpa_interface's query counts
// every statistic): on the H200, a draw sampled with NVIDIA's sampler triggers read 2.3-3.6 µs more GPUTime under
// a query of some statistics than under one of all of them, and the layer's GPUTime that much less than the core
// path's (docs/graphics-counters.md, "GPUTime of the two recording paths").
VkQueryPipelineStatisticFlags QueriedStatistics(const std::vector<VulkanHardwareCounter>& counters,
                                                VkQueryPipelineStatisticFlags supported);

class VulkanSession final : public BackendSession {
 public:
  explicit VulkanSession(SessionSetup setup);
  ~VulkanSession() override;

  GpaUInt32 PassCount() const override;
  GpaStatus Begin() override;
  GpaStatus End() override { return kGpaStatusOk; }

  GpaStatus BeginCommandList(GpaUInt32 pass, void* api_list, GpaCommandListType type,
                             std::unique_ptr<BackendCommandList>* out) override;
  GpaStatus EndCommandList(BackendCommandList& list) override;
  GpaStatus BeginSample(BackendCommandList& list, SampleSlot slot) override;
  GpaStatus EndSample(BackendCommandList& list, SampleSlot slot) override;
  GpaStatus ContinueSample(SampleSlot slot, BackendCommandList& from, BackendCommandList& to) override;
  GpaStatus CopySecondarySamples(BackendCommandList& secondary, BackendCommandList& primary,
                                 const std::vector<std::pair<SampleSlot, SampleSlot>>& copies) override;
  bool IsPassComplete(GpaUInt32 pass) override;
  GpaStatus ReadResults(SampleSlot slot_count, std::vector<double>* values) override;
  bool SampleIncomplete(SampleSlot slot, std::string* why) const override;

 private:
  struct ListRecord;
  struct Segment {
    std::uint32_t list = 0;   // index into lists_
    std::uint32_t entry = 0;  // query entry in that list's pools
    bool open = false;        // its statistics query still has to be ended
    // Sampled sessions: the marker entries of the triggers at the segment's two ends (RecordBoundary).
    std::uint32_t begin_marker = 0;
    std::uint32_t end_marker = 0;
    std::uint32_t performance_query = 0;  // its VK_KHR_performance_query query, where its list has them
  };
  struct SampleRecord {
    bool begun = false;
    bool ended = false;
    bool required = false;  // on a primary, or copied to one: the pass is complete only when it is read
    std::vector<Segment> segments;
  };

  GpaStatus Resolve(BackendCommandList& list, const char* argument, ListRecord** out);
  SampleRecord* Record(GpaUInt32 pass, SampleSlot slot);
  // Ends, on `list`, statistics queries of continued samples whose part on `list` is over; fails if a sample
  // that has not been continued is still open there (two samples cannot overlap on one list).
  GpaStatus CloseContinuedSegments(ListRecord& list, const char* action);
  // Ends every statistics query still open on `list` (its end, or the next sample on it, is near).
  void CloseOpenSegments(ListRecord& list);
  // Ends a segment's queries (statistics and performance) on its list.
  void EndSegmentQueries(ListRecord& list, const Segment& segment);
  GpaStatus OpenSegment(ListRecord& list, SampleSlot slot, SampleRecord& record, bool first);
  GpaStatus RefreshResults(GpaUInt32 pass);
  bool RecordAvailable(const SampleRecord& record) const;
  bool PassAvailable(GpaUInt32 pass) const;
  std::optional<std::uint64_t> TimestampOf(const Segment& segment, TimestampRole role) const;
  std::uint64_t TimestampNs(const Segment& segment, TimestampRole role) const;
  // Records a sampler interval boundary: a marker entry's top- and bottom-of-pipe timestamps, then an engine
  // trigger. Returns the marker entry, whose bottom-of-pipe timestamp places the trigger on the GPU's clock.
  std::uint32_t RecordBoundary(ListRecord& list);
  // Moves the sampler on while its pass is done: decodes it and samples the next. `wait_to_settle`: a pass done less
  // than nvidia::kSamplerSettle ago is waited for instead of left for a later call.
  void AdvanceSampler(bool wait_to_settle = false);
  bool PassRecorded(GpaUInt32 pass) const;
  // Which sampler interval each executed trigger of each decoded pass closed (once, when results are read).
  GpaStatus PlaceTriggers();
  static std::uint64_t TriggerKey(std::uint32_t list, std::uint32_t marker) {
    return (std::uint64_t{list} << 32) | marker;
  }
  // OPENGPA_SAMPLER_TRACE=1: where each segment of `slot` lies on the GPU's clock, beside the triggers that
  // delimit it (their timestamps and the sampler intervals they closed), on stderr.
  void TraceSample(SampleSlot slot) const;
  // The sampled counters' values of `slot`, by SampledPasses name index.
  GpaStatus SampledValues(SampleSlot slot, std::vector<double>* values) const;
  // Result column `column`'s VK_KHR_performance_query value for `slot`: its segments' sum, or their mean.
  GpaStatus PerformanceValue(SampleSlot slot, std::size_t column, double* value) const;
  // The passes the sampler counts in (the first ones), 0 without sampled counters.
  GpaUInt32 SamplerPassCount() const { return setup_.sampled != nullptr ? setup_.sampled->PassCount() : 0; }
  // Whether `pass` records engine triggers.
  bool Triggered(GpaUInt32 pass) const { return pass < SamplerPassCount(); }
  // The pass whose timestamps and statistics are the results: the timing pass, else the first.
  GpaUInt32 QueryPass() const { return timing_pass_ ? SamplerPassCount() : 0; }

  const SessionSetup setup_;
  const bool timestamps_;
  const bool timing_pass_;  // the timing counters have a pass of their own, after the sampler's (above)
  const VkQueryPipelineStatisticFlags statistics_;
  const std::chrono::milliseconds result_timeout_;  // how long ReadResults waits for unsubmitted work
  std::mutex mutex_;
  std::vector<std::unique_ptr<ListRecord>> lists_;
  std::vector<std::vector<SampleRecord>> records_;  // [pass][slot]
  std::vector<bool> pass_ready_;
  std::optional<std::uint64_t> time_origin_;              // GPU clock at Begin(), when calibrated timestamps allow
  const std::shared_ptr<nvidia::SampledPasses> sampled_;  // null without sampled counters
  std::vector<int> sampled_column_;                       // per result column: index into sampled_'s names, or -1
  struct PerformanceColumn {
    GpaUInt32 pass = 0;        // the GPA pass whose query set counts it
    std::size_t position = 0;  // its place in that set's results
  };
  std::vector<PerformanceColumn> performance_column_;  // per result column (kPerformanceQuery columns only)
  GpaStatus sampler_status_ = kGpaStatusOk;            // the first failure of the sampler, reported by ReadResults
  std::unique_ptr<nvidia::EngineTriggers> triggers_;   // sampled sessions: every boundary's trigger, by TriggerKey
  std::set<SampleSlot> incomplete_;                    // slots whose sampled counts were short (SampleIncomplete)
  // When the pass being sampled was first seen complete: it is stopped only nvidia::kSamplerSettle later.
  std::optional<std::chrono::steady_clock::time_point> active_complete_since_;
};

}  // namespace opengpa::vulkan

#endif  // OPENGPA_BACKENDS_VULKAN_VULKAN_SESSION_H_
