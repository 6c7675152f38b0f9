#include "counter_library/arm_mali_ids.h"

#include <array>
#include <utility>

namespace opengpa::counter_library {
namespace {

// Arm's 5th-generation Mali G1 is GPU architecture major version 14; its products differ in the product major
// version (Arm's libGPUCounters, backend/device/src/device/product_id.cpp; Mesa's pan_model.c lists the same).
constexpr std::uint32_t kMaliG1ArchMajor = 14;
constexpr std::array<std::pair<std::uint32_t, std::string_view>, 3> kG1Products{{
    {0, "Mali-G1-Ultra"},
    {1, "Mali-G1-Premium"},
    {3, "Mali-G1-Pro"},
}};

}  // namespace

std::optional<std::string_view> MaliG1ProductOfDeviceId(std::uint32_t device_id) {
  const std::uint32_t product_id = device_id > 0xFFFF ? device_id >> 16 : device_id;
  const std::uint32_t arch_major = (product_id >> 12) & 0xF;
  const std::uint32_t product_major = product_id & 0xF;
  if (arch_major != kMaliG1ArchMajor) return std::nullopt;
  for (const auto& [major, name] : kG1Products) {
    if (major == product_major) return name;
  }
  return std::nullopt;
}

}  // namespace opengpa::counter_library
