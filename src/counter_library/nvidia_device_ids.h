// Which NVIDIA chip a PCI device id belongs to, for counter contexts opened the GPA way (vendor, device
// and revision ids) rather than by chip name. CUPTI's host API only knows chip names ("GH100"), and the
// driver that would translate an id is absent on a machine without a GPU, so the boards are listed here.
#ifndef OPENGPA_COUNTER_LIBRARY_NVIDIA_DEVICE_IDS_H_
#define OPENGPA_COUNTER_LIBRARY_NVIDIA_DEVICE_IDS_H_

#include <cstdint>
#include <optional>
#include <string_view>

namespace opengpa::counter_library {

inline constexpr std::uint32_t kNvidiaVendorId = 0x10DE;

// The chip of PCI device `device_id` (vendor 0x10DE), or nullopt for a board not in the table.
std::optional<std::string_view> NvidiaChipOfDeviceId(std::uint32_t device_id);

}  // namespace opengpa::counter_library

#endif  // OPENGPA_COUNTER_LIBRARY_NVIDIA_DEVICE_IDS_H_
