// CUPTI's host-side view of PM sampling for one chip: metric names and properties, and the config image
// that tells the hardware what to sample. Needs libcupti only (no GPU), so metric names and the one-pass
// rule can be checked anywhere, e.g. `opengpa monitor --list-pm-metrics GH100` on a build machine.
#ifndef OPENGPA_BACKENDS_REALTIME_PM_HOST_OBJECT_H_
#define OPENGPA_BACKENDS_REALTIME_PM_HOST_OBJECT_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "backends/realtime/cupti_pm_library.h"
#include "backends/realtime/monitor_types.h"

namespace opengpa::realtime {

class PmHostObject {
 public:
  // `availability` is the device's counter-availability image, or empty for the chip's full list.
  static GpaStatus Create(const cupti::CuptiLibrary& cupti, const std::string& chip,
                          const std::vector<uint8_t>& availability, std::unique_ptr<PmHostObject>* host);
  PmHostObject(const cupti::CuptiLibrary& cupti, CUpti_Profiler_Host_Object* object, std::string chip)
      : cupti_(cupti), object_(object), chip_(std::move(chip)) {}
  ~PmHostObject();
  PmHostObject(const PmHostObject&) = delete;
  PmHostObject& operator=(const PmHostObject&) = delete;

  // Every base metric of the chip (without rollups such as .sum/.avg), sorted.
  GpaStatus BaseMetrics(std::vector<std::string>* names) const;
  // Description, unit and kind of a full metric name ("dram__bytes_read.sum").
  GpaStatus Describe(const std::string& metric, CounterDescriptor* descriptor) const;
  // Adds `metrics` to this object (call once per object) and builds their config image. Fails with
  // kGpaStatusErrorNotEnoughPasses when they need more than one pass: PM sampling cannot replay.
  GpaStatus BuildConfigImage(const std::vector<std::string>& metrics, std::vector<uint8_t>* image);

  CUpti_Profiler_Host_Object* Raw() const { return object_; }
  const std::string& Chip() const { return chip_; }

 private:
  const cupti::CuptiLibrary& cupti_;
  CUpti_Profiler_Host_Object* object_;
  std::string chip_;
};

}  // namespace opengpa::realtime

#endif  // OPENGPA_BACKENDS_REALTIME_PM_HOST_OBJECT_H_
