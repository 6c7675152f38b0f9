// CUPTI's host-side view of PM sampling for one chip: metric names and properties, and the config image
// that tells the hardware what to sample. Needs libcupti only (no GPU), so metric names and the one-pass
// rule can be checked anywhere, e.g. `opengpa monitor --list-pm-metrics GH100` on a build machine.
#ifndef OPENGPA_NVIDIA_PM_HOST_OBJECT_H_
#define OPENGPA_NVIDIA_PM_HOST_OBJECT_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "nvidia/cupti_pm_library.h"

namespace opengpa::nvidia {

// What CUPTI says about one full metric name, in the terms a sampler needs.
struct PmMetricProperties {
  std::string description;
  std::string unit;          // "percent", "bytes", "gpc_cycle", ...; a submetric's own unit (".per_second": "/s")
  bool accumulates = false;  // an amount per sample that adds up over time (a delta), not a reading (a gauge)
};

class PmHostObject {
 public:
  // `availability` is the device's counter-availability image, or empty for the chip's full list.
  [[nodiscard]] static GpaStatus Create(const cupti::CuptiLibrary& cupti, const std::string& chip,
                                        const std::vector<uint8_t>& availability, std::unique_ptr<PmHostObject>* host);
  PmHostObject(const cupti::CuptiLibrary& cupti, CUpti_Profiler_Host_Object* object, std::string chip)
      : cupti_(cupti), object_(object), chip_(std::move(chip)) {}
  ~PmHostObject();
  PmHostObject(const PmHostObject&) = delete;
  PmHostObject& operator=(const PmHostObject&) = delete;

  // Every base metric of the chip (without rollups such as .sum/.avg), sorted.
  [[nodiscard]] GpaStatus BaseMetrics(std::vector<std::string>* names) const;
  // Description, unit and kind of a full metric name ("dram__bytes_read.sum").
  [[nodiscard]] GpaStatus Describe(const std::string& metric, PmMetricProperties* properties) const;
  // Adds `metrics` to this object (call once per object) and builds their config image. Fails with
  // kGpaStatusErrorNotEnoughPasses when they need more than one pass: PM sampling cannot replay.
  [[nodiscard]] GpaStatus BuildConfigImage(const std::vector<std::string>& metrics, std::vector<uint8_t>* image);

  CUpti_Profiler_Host_Object* Raw() const { return object_; }
  const std::string& Chip() const { return chip_; }

 private:
  const cupti::CuptiLibrary& cupti_;
  CUpti_Profiler_Host_Object* object_;
  std::string chip_;
};

}  // namespace opengpa::nvidia

#endif  // OPENGPA_NVIDIA_PM_HOST_OBJECT_H_
