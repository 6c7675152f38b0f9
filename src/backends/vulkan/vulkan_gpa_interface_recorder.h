// The sample recorder through VK_AMD_gpa_interface, as AMD's GPA measures on AMD's driver: one
// VkGpaSessionAMD per command list, begun and ended with the list; the timestamps of an entry are timing
// samples: the top-of-pipe and bottom-of-pipe timestamps the backend writes back to back before a sample (or a
// sampler trigger) are one timing sample, its pre- and post-sample timestamps, and every other timestamp is a timing
// sample of its own whose first timestamp is the one asked for. Each timing sample is two timestamp writes, and on
// the H100 a timestamp written through the layer costs the GPU about 3 us: a timing sample per timestamp put 7
// writes between a sample's bottom-of-pipe timestamp and its work where core queries put 3, and GPUTime read
// 11.6-25.3 us long (docs/graphics-counters.md). Each statistics count is a cumulative sample over the counters
// that publish the session's pipeline statistics (include/vulkan_layer/vk_gpa_interface_statistics.h). A
// secondary command list's samples are read from its own VkGpaSessionAMD, which its one execution writes.
#ifndef OPENGPA_BACKENDS_VULKAN_VULKAN_GPA_INTERFACE_RECORDER_H_
#define OPENGPA_BACKENDS_VULKAN_VULKAN_GPA_INTERFACE_RECORDER_H_

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "backends/vulkan/vulkan_sample_recorder.h"

namespace opengpa::vulkan {

class GpaInterfaceRecorder final : public SampleRecorder {
 public:
  GpaInterfaceRecorder(const GpaInterfaceFunctions& functions, VkDevice device, bool timestamps,
                       VkQueryPipelineStatisticFlags statistics);
  ~GpaInterfaceRecorder() override;
  GpaInterfaceRecorder(const GpaInterfaceRecorder&) = delete;
  GpaInterfaceRecorder& operator=(const GpaInterfaceRecorder&) = delete;

  GpaStatus BeginList(VkCommandBuffer command_buffer) override;
  GpaStatus EndList(VkCommandBuffer command_buffer) override;
  GpaStatus Allocate(std::uint32_t* entry) override;
  void WriteTimestamp(VkCommandBuffer command_buffer, std::uint32_t entry, TimestampRole role) override;
  void BeginStatistics(VkCommandBuffer command_buffer, std::uint32_t entry) override;
  void EndStatistics(VkCommandBuffer command_buffer, std::uint32_t entry) override;
  GpaStatus Read(EntryResults* out) override;
  std::uint32_t entry_count() const override { return static_cast<std::uint32_t>(entries_.size()); }
  std::uint32_t statistic_count() const override { return static_cast<std::uint32_t>(counters_.size()); }

 private:
  static constexpr std::uint32_t kNoSample = UINT32_MAX;
  struct Entry {
    std::array<std::uint32_t, 3> timing{kNoSample, kNoSample, kNoSample};  // by TimestampRole
    std::array<std::uint8_t, 3> timing_word{0, 0, 0};  // which timestamp of the timing sample: 0 pre, 1 post
    std::uint32_t cumulative = kNoSample;
  };
  // A timing sample begun for a top-of-pipe timestamp and left open for the bottom-of-pipe one that follows.
  struct OpenTiming {
    std::uint32_t entry = 0;
    std::uint32_t sample = kNoSample;
  };
  // Ends the open timing sample, if any (its post-sample timestamp then belongs to no role).
  void CloseOpenTiming(VkCommandBuffer command_buffer);
  // One 64-bit value per requested word, or false when the sample is not available (yet).
  bool ReadSample(std::uint32_t sample_id, std::size_t words, std::uint64_t* values);

  const GpaInterfaceFunctions& functions_;
  VkDevice device_;
  bool timestamps_;
  std::vector<VkGpaPerfCounterAMD> counters_;  // the session's statistics, in bit order
  VkGpaSessionAMD session_ = VK_NULL_HANDLE;
  bool ended_ = false;
  std::vector<Entry> entries_;
  std::optional<OpenTiming> open_timing_;
};

}  // namespace opengpa::vulkan

#endif  // OPENGPA_BACKENDS_VULKAN_VULKAN_GPA_INTERFACE_RECORDER_H_
