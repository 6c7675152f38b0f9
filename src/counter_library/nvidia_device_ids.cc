#include "counter_library/nvidia_device_ids.h"

#include <array>
#include <utility>

namespace opengpa::counter_library {
namespace {

// PCI device id -> CUPTI chip name. Data-centre and workstation boards of the chips the tests and docs
// use; extend when a board is missing (docs/counter-library.md says how to pick a chip).
constexpr std::array<std::pair<std::uint32_t, std::string_view>, 12> kBoards{{
    {0x20B0, "GA100"},  // A100-SXM4-40GB
    {0x20B2, "GA100"},  // A100-SXM4-80GB
    {0x20B5, "GA100"},  // A100 80GB PCIe
    {0x20F1, "GA100"},  // A100-PCIE-40GB
    {0x2330, "GH100"},  // H100 80GB HBM3 (SXM5); nvidia-smi on our H100 reports 0x233010DE
    {0x2331, "GH100"},  // H100 PCIe
    {0x2335, "GH100"},  // H200
    {0x2342, "GH100"},  // GH200 480GB
    {0x2684, "AD102"},  // GeForce RTX 4090
    {0x26B1, "AD102"},  // RTX 6000 Ada Generation
    {0x26B5, "AD102"},  // L40
    {0x26B9, "AD102"},  // L40S
}};

}  // namespace

std::optional<std::string_view> NvidiaChipOfDeviceId(std::uint32_t device_id) {
  for (const auto& [id, chip] : kBoards) {
    if (id == device_id) return chip;
  }
  return std::nullopt;
}

}  // namespace opengpa::counter_library
