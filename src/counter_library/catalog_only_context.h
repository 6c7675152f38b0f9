// A BackendContext with no device behind it, for the Vulkan, OpenGL and OpenCL catalogs: the hardware
// counters a fully capable device of the API offers (the backends' own builders decide which), that API's
// catalog, and one pass for any set of them (as every one of those backends collects all its counters together).
// For an NVIDIA board on Vulkan or OpenGL, the GPU periodic sampler's metrics of its chip and the graphics catalog
// come too, planned into sampler passes as the live backends plan them; for an Arm Mali G1, the counters of Arm's
// reference (arm_mali_counters.h), in the same one pass. It enumerates, counts passes and computes derived results
// from given values; it cannot measure.
#ifndef OPENGPA_COUNTER_LIBRARY_CATALOG_ONLY_CONTEXT_H_
#define OPENGPA_COUNTER_LIBRARY_CATALOG_ONLY_CONTEXT_H_

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/backend.h"
#include "nvidia/graphics_counter_source.h"
#include "platform/logging.h"

namespace opengpa::counter_library {

class CatalogOnlyContext : public BackendContext {
 public:
  CatalogOnlyContext(DeviceInfo device, std::vector<HardwareCounterInfo> hardware, std::string_view catalog)
      : device_(std::move(device)), hardware_(std::move(hardware)), catalogs_{catalog} {}
  // Adds the sampler's metrics of an NVIDIA board (vendor 0x10DE and a known device id) when PerfWorks' host
  // library is present, its catalog before the API's (`sampler_catalog_first`) or after it; otherwise logs why not.
  void AddNvidiaSampledCounters(bool sampler_catalog_first);
  // Adds hardware counters a catalog declares (collected in the same one pass as the API's), that catalog after the
  // API's, the constants its formulas use, and the chip they belong to.
  void AddDeclaredCounters(std::vector<HardwareCounterInfo> hardware, std::string_view catalog,
                           std::vector<std::pair<std::string, double>> constants, std::string chip);

  const DeviceInfo& Device() const override { return device_; }
  GpaContextSampleTypeFlags SupportedSampleTypes() const override { return kGpaContextSampleTypeDiscreteCounter; }
  const std::vector<HardwareCounterInfo>& HardwareCounters() const override { return hardware_; }
  std::vector<std::string_view> DerivedCatalogs() const override { return catalogs_; }
  std::vector<std::pair<std::string, double>> Constants() const override { return constants_; }
  [[nodiscard]] GpaStatus CountPasses(const std::vector<HardwareCounterIndex>& counters, GpaUInt32* passes) override;
  [[nodiscard]] GpaStatus CreateSession(int type, const std::vector<HardwareCounterIndex>& counters,
                                        std::unique_ptr<BackendSession>* out) override;

 private:
  DeviceInfo device_;
  std::vector<HardwareCounterInfo> hardware_;
  std::vector<std::string_view> catalogs_;
  std::vector<std::pair<std::string, double>> constants_;
  std::unique_ptr<nvidia::GraphicsCounterSource> sampler_;  // offline: listing and pass planning
  std::size_t first_sampled_ = 0;                           // hardware_[first_sampled_, end_sampled_) are the
  std::size_t end_sampled_ = 0;                             // sampler's
};

// The offline contexts of each API (defined only when this build has that backend). `device` carries the caller's
// vendor, device and revision ids.
[[nodiscard]] GpaStatus OpenVulkanCatalogContext(DeviceInfo device, std::unique_ptr<CatalogOnlyContext>* out);
[[nodiscard]] GpaStatus OpenOpenGlCatalogContext(DeviceInfo device, std::unique_ptr<CatalogOnlyContext>* out);
[[nodiscard]] GpaStatus OpenOpenClCatalogContext(DeviceInfo device, std::unique_ptr<CatalogOnlyContext>* out);

}  // namespace opengpa::counter_library

#endif  // OPENGPA_COUNTER_LIBRARY_CATALOG_ONLY_CONTEXT_H_
