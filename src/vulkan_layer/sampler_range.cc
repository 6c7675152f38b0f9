#include "sampler_range.h"

#include <algorithm>
#include <thread>

#include "layer_log.h"
#include "layer_objects.h"

namespace opengpa::vklayer {

SamplerRange::SamplerRange(DeviceData& device, const nvidia::GraphicsCounterSource& source, SamplerEventSet set)
    : device_(device),
      source_(source),
      set_(std::move(set)),
      passes_(source, nvidia::perfworks::kTriggerEngine, set_.names, set_.additive, set_.passes),
      triggers_(source, 1),
      stamps_(device, VK_QUERY_TYPE_TIMESTAMP, 0) {}

bool SamplerRange::Begin(std::string* problem) {
  if (passes_.Begin() != kGpaStatusOk) {
    *problem = "the GPU periodic sampler could not begin on " + source_.DeviceName() +
               " (another profiler or sampler may hold its counters)";
    return false;
  }
  sampling_ = true;
  return true;
}

bool SamplerRange::Columns(const std::vector<std::string>& names, std::vector<std::size_t>* columns) const {
  columns->clear();
  for (const std::string& name : names) {
    const auto found = std::find(set_.names.begin(), set_.names.end(), name);
    if (found == set_.names.end()) return false;
    columns->push_back(static_cast<std::size_t>(found - set_.names.begin()));
  }
  return true;
}

bool SamplerRange::Record(VkCommandBuffer command_buffer, bool end, std::uint64_t* key) {
  Marker marker;
  marker.end = end;
  if (decoded_ || !sampling_ || !stamps_.Take(end ? 3 : 2, &marker.queries)) return false;
  const std::uint64_t next = markers_.size();
  const GpaStatus status = triggers_.Record(0, next, command_buffer, [&] {
    device_.CmdWriteTimestamp(command_buffer, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, marker.queries.pool,
                              marker.queries.first);
    device_.CmdWriteTimestamp(command_buffer, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, marker.queries.pool,
                              marker.queries.first + 1);
  });
  if (status != kGpaStatusOk) {
    LogProblem("NVPW_VK_CommandBuffer_InsertTrigger failed: the sample has no hardware counters");
    return false;
  }
  if (end) {
    device_.CmdWriteTimestamp(command_buffer, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, marker.queries.pool,
                              marker.queries.first + 2);
  }
  markers_.push_back(marker);
  *key = next;
  return true;
}

bool SamplerRange::RecordBoundary(VkCommandBuffer command_buffer, std::uint64_t* key) {
  return Record(command_buffer, /*end=*/false, key);
}

void SamplerRange::RecordEnd(VkCommandBuffer command_buffer) {
  std::uint64_t key = 0;
  Record(command_buffer, /*end=*/true, &key);
}

void SamplerRange::Forget(const std::vector<std::uint64_t>& keys) {
  for (std::uint64_t key : keys) {
    if (key >= markers_.size()) continue;
    Marker& marker = markers_[key];
    if (!decoded_) Read(marker);  // what already ran still places its trigger
    marker.awaited = false;
    // Reset from the host, so that submitting the command buffer again writes its timestamps into reset queries (as
    // Vulkan requires); the triggers that then fire are not this range's any more.
    device_.ResetQueryPool(device_.device, marker.queries.pool, marker.queries.first, marker.queries.count);
  }
}

void SamplerRange::Read(Marker& marker) {
  const std::uint32_t last = marker.end ? 2 : 1;
  std::uint64_t words[2 * 3] = {};
  const VkResult result = device_.GetQueryPoolResults(
      device_.device, marker.queries.pool, marker.queries.first + 1, last, sizeof(std::uint64_t) * 2 * last, words,
      sizeof(std::uint64_t) * 2, VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
  if (result != VK_SUCCESS && result != VK_NOT_READY) return;
  if (!marker.stamp_ns && words[1] != 0) {
    const double period = device_.properties.limits.timestampPeriod;
    // NVIDIA's period is exactly 1 ns: keep every bit of the clock rather than round through a double.
    marker.stamp_ns =
        period == 1.0 ? words[0] : static_cast<std::uint64_t>(static_cast<long double>(words[0]) * period);
  }
  if (marker.end && words[3] != 0) marker.passed = true;
}

VkResult SamplerRange::Fail(const std::string& problem) {
  if (failed_ == VK_SUCCESS) {
    LogProblem("GPU periodic sampler on " + source_.DeviceName() + ": " + problem);
    failed_ = VK_ERROR_UNKNOWN;
  }
  return failed_;
}

VkResult SamplerRange::Poll() {
  if (failed_ != VK_SUCCESS) return failed_;
  if (decoded_) return VK_SUCCESS;
  if (!sampling_) return Fail("the range never began");
  for (Marker& marker : markers_) {
    if (!marker.awaited) continue;
    Read(marker);
    if (!marker.stamp_ns || (marker.end && !marker.passed)) return VK_NOT_READY;
  }
  const auto now = std::chrono::steady_clock::now();
  if (!complete_since_) complete_since_ = now;
  std::this_thread::sleep_until(*complete_since_ + nvidia::kSamplerSettle);
  sampling_ = false;
  if (passes_.Advance(triggers_.Count(passes_.ActivePass())) != kGpaStatusOk) {
    return Fail("stopping and decoding the sampler failed");
  }
  for (Marker& marker : markers_) Read(marker);  // triggers no longer awaited may have run too
  const GpaStatus placed =
      triggers_.Place(passes_, [this](std::uint32_t, std::uint64_t key) { return markers_[key].stamp_ns; });
  if (placed != kGpaStatusOk) {
    return Fail(
        "the samples' triggers cannot be placed in the sampler's intervals (another process's triggers, or "
        "the work ran while the sampler had another configuration)");
  }
  decoded_ = true;
  return VK_SUCCESS;
}

VkResult SamplerRange::Values(std::uint64_t begin, std::uint64_t end, const std::vector<std::size_t>& columns,
                              std::vector<double>* values) const {
  if (!decoded_) return failed_ != VK_SUCCESS ? failed_ : VK_NOT_READY;
  std::vector<double> sums(set_.names.size(), 0.0);
  std::vector<double> weights(set_.names.size(), 0.0);
  if (triggers_.Accumulate(passes_, 0, begin, end, &sums, &weights) != kGpaStatusOk) {
    LogProblem(
        "a cumulative sample's triggers closed no interval of the GPU periodic sampler: it has no hardware "
        "counters (did its command buffer run before the sampler stopped?)");
    return VK_ERROR_UNKNOWN;
  }
  std::vector<double> all;
  passes_.Finish(sums, weights, &all);
  values->clear();
  for (std::size_t column : columns) values->push_back(all[column]);
  return VK_SUCCESS;
}

}  // namespace opengpa::vklayer
