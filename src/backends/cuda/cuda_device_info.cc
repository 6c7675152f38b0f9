#include "backends/cuda/cuda_device_info.h"

#include <fmt/format.h>

namespace opengpa::cuda {
namespace {

// Every SM since Volta has four sub-partitions, each scheduling its own warps from its own register file.
constexpr GpaUInt32 kSubPartitionsPerSm = 4;
constexpr GpaUInt32 kThreadsPerWarp = 32;

}  // namespace

DeviceInfo DeviceInfoOf(const LiveDevice& device) {
  DeviceInfo info;
  info.name = device.name;
  info.chip = device.chip;
  info.vendor_id = kNvidiaVendorId;
  info.device_id = device.device_id;
  info.revision_id = device.revision_id;
  info.generation = kGpaHwGenerationNvidia;
  info.shape.compute_units = device.sms;
  info.shape.simds = device.sms * kSubPartitionsPerSm;
  info.shape.waves_per_simd = device.max_threads_per_sm / kThreadsPerWarp / kSubPartitionsPerSm;
  info.shape.vgprs_per_simd = device.registers_per_sm / kSubPartitionsPerSm;
  info.shape.lds_bytes_per_compute_unit = device.shared_bytes_per_sm;
  return info;
}

DeviceInfo OfflineDevice(const std::string& chip) {
  DeviceInfo info;
  info.name = fmt::format("NVIDIA {} (offline)", chip);
  info.chip = chip;
  info.vendor_id = kNvidiaVendorId;
  info.generation = kGpaHwGenerationNvidia;
  return info;
}

}  // namespace opengpa::cuda
