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
#ifndef OPENGPA_BACKENDS_VULKAN_VULKAN_SESSION_H_
#define OPENGPA_BACKENDS_VULKAN_VULKAN_SESSION_H_

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "backends/vulkan/vulkan_hardware_counters.h"
#include "backends/vulkan/vulkan_query_pool.h"
#include "backends/vulkan/vulkan_functions.h"
#include "core/backend.h"

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
};

class VulkanSession final : public BackendSession {
 public:
  explicit VulkanSession(SessionSetup setup);
  ~VulkanSession() override;

  GpaUInt32 PassCount() const override { return 1; }
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

 private:
  struct ListRecord;
  struct Segment {
    std::uint32_t list = 0;   // index into lists_
    std::uint32_t entry = 0;  // query entry in that list's pools
    bool open = false;        // its statistics query still has to be ended
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
  GpaStatus OpenSegment(ListRecord& list, SampleSlot slot, SampleRecord& record, bool first);
  GpaStatus RefreshResults(GpaUInt32 pass);
  bool RecordAvailable(const SampleRecord& record) const;
  bool PassAvailable(GpaUInt32 pass) const;
  std::optional<std::uint64_t> TimestampOf(const Segment& segment, TimestampRole role) const;

  const SessionSetup setup_;
  const bool timestamps_;
  const VkQueryPipelineStatisticFlags statistics_;
  const std::chrono::milliseconds result_timeout_;  // how long ReadResults waits for unsubmitted work
  std::mutex mutex_;
  std::vector<std::unique_ptr<ListRecord>> lists_;
  std::vector<std::vector<SampleRecord>> records_;  // [pass][slot]
  std::vector<bool> pass_ready_;
  std::optional<std::uint64_t> time_origin_;  // GPU clock at Begin(), when calibrated timestamps allow
};

}  // namespace opengpa::vulkan

#endif  // OPENGPA_BACKENDS_VULKAN_VULKAN_SESSION_H_
