// How one command list records its sample segments and reads them back. Each segment recorded on a command
// list takes one *entry*: three timestamps (top-of-pipe and bottom-of-pipe before, bottom-of-pipe after) and
// one pipeline-statistics count. Two recorders: EntryPools (vulkan_query_pool.h) with the core Vulkan queries,
// and GpaInterfaceRecorder (vulkan_gpa_interface_recorder.h) through VK_AMD_gpa_interface, the way AMD's GPA
// measures, where the device offers the extension (AMD's driver, or OpenGPA's layer).
#ifndef OPENGPA_BACKENDS_VULKAN_VULKAN_SAMPLE_RECORDER_H_
#define OPENGPA_BACKENDS_VULKAN_VULKAN_SAMPLE_RECORDER_H_

#include <cstdint>
#include <vector>

#include "backends/vulkan/vulkan_functions.h"

namespace opengpa::vulkan {

enum class TimestampRole : std::uint32_t { kTopBefore = 0, kBottomBefore = 1, kBottomAfter = 2 };

struct EntryResults {
  std::vector<std::uint64_t> timestamps;   // 3 per entry, by TimestampRole
  std::vector<bool> timestamp_available;   // likewise
  std::vector<std::uint64_t> statistics;   // statistic_count per entry, in bit order
  std::vector<bool> statistics_available;  // 1 per entry
};

class SampleRecorder {
 public:
  virtual ~SampleRecorder() = default;
  // Around everything the command list records (GpaBeginCommandList / GpaEndCommandList).
  virtual GpaStatus BeginList(VkCommandBuffer /*command_buffer*/) { return kGpaStatusOk; }
  virtual GpaStatus EndList(VkCommandBuffer /*command_buffer*/) { return kGpaStatusOk; }
  // The next unused entry.
  virtual GpaStatus Allocate(std::uint32_t* entry) = 0;
  virtual void WriteTimestamp(VkCommandBuffer command_buffer, std::uint32_t entry, TimestampRole role) = 0;
  virtual void BeginStatistics(VkCommandBuffer command_buffer, std::uint32_t entry) = 0;
  virtual void EndStatistics(VkCommandBuffer command_buffer, std::uint32_t entry) = 0;
  // Reads every allocated entry without waiting; what the GPU has not written yet is marked unavailable.
  // `out` holds the previous read: values it marks available are final and need not be read again.
  virtual GpaStatus Read(EntryResults* out) = 0;
  virtual std::uint32_t entry_count() const = 0;
  virtual std::uint32_t statistic_count() const = 0;
};

}  // namespace opengpa::vulkan

#endif  // OPENGPA_BACKENDS_VULKAN_VULKAN_SAMPLE_RECORDER_H_
