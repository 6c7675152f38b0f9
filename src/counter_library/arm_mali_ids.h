// Which Arm Mali GPU a counter context's ids name, for the Mali counters that come as catalog data
// (catalogs/arm_mali_g1.json). Mali GPUs sit on no PCI bus: Arm's PCI vendor id (0x13B5) is what their Vulkan
// drivers report, and the device id is the GPU_ID register's product fields (docs/arm-mali.md):
//   device_id <= 0xFFFF   the 16-bit GPU product id kbase, panfrost and libGPUCounters name GPUs by: arch major,
//                         arch minor, arch revision, product major, 4 bits each (Mali-G1-Ultra: 0xE800)
//   device_id >  0xFFFF   the 32-bit GPU_ID register as VkPhysicalDeviceProperties::deviceID reports it, the product
//                         id in its upper half and the revision below (Mali-G1-Ultra r0p0: 0xE8000000)
// Only arch major and product major tell the products apart (Arm's libGPUCounters matches on those two).
#ifndef OPENGPA_COUNTER_LIBRARY_ARM_MALI_IDS_H_
#define OPENGPA_COUNTER_LIBRARY_ARM_MALI_IDS_H_

#include <cstdint>
#include <optional>
#include <string_view>

namespace opengpa::counter_library {

inline constexpr std::uint32_t kArmVendorId = 0x13B5;

// "Mali-G1-Ultra", "Mali-G1-Premium" or "Mali-G1-Pro" for a device id of one of them, else nullopt. The three
// share one counter reference, the Mali G1's.
std::optional<std::string_view> MaliG1ProductOfDeviceId(std::uint32_t device_id);

}  // namespace opengpa::counter_library

#endif  // OPENGPA_COUNTER_LIBRARY_ARM_MALI_IDS_H_
