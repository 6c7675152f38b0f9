// The sample recorder through VK_AMD_gpa_interface, as AMD's GPA measures on AMD's driver: one
// VkGpaSessionAMD per command list, begun and ended with the list; each timestamp of an entry is a timing
// sample whose two stages are the timestamp's; each statistics count is a cumulative sample over the counters
// that publish the session's pipeline statistics (include/vulkan_layer/vk_gpa_interface_statistics.h). A
// secondary command list's samples are read from its own VkGpaSessionAMD, which its one execution writes.
#ifndef OPENGPA_BACKENDS_VULKAN_VULKAN_GPA_INTERFACE_RECORDER_H_
#define OPENGPA_BACKENDS_VULKAN_VULKAN_GPA_INTERFACE_RECORDER_H_

#include <array>
#include <cstdint>
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
    std::uint32_t cumulative = kNoSample;
  };
  // One 64-bit value per requested word, or false when the sample is not available (yet).
  bool ReadSample(std::uint32_t sample_id, std::size_t words, std::uint64_t* values);

  const GpaInterfaceFunctions& functions_;
  VkDevice device_;
  bool timestamps_;
  std::vector<VkGpaPerfCounterAMD> counters_;  // the session's statistics, in bit order
  VkGpaSessionAMD session_ = VK_NULL_HANDLE;
  bool ended_ = false;
  std::vector<Entry> entries_;
};

}  // namespace opengpa::vulkan

#endif  // OPENGPA_BACKENDS_VULKAN_VULKAN_GPA_INTERFACE_RECORDER_H_
