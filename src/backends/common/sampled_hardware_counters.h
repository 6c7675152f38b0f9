// How a metric of NVIDIA's GPU periodic sampler is offered as a hardware counter by the graphics backends:
// PerfWorks' name and description, its hardware unit, float64, and a usage read off the name.
#ifndef OPENGPA_BACKENDS_COMMON_SAMPLED_HARDWARE_COUNTERS_H_
#define OPENGPA_BACKENDS_COMMON_SAMPLED_HARDWARE_COUNTERS_H_

#include "core/backend.h"
#include "nvidia/graphics_counter_source.h"

namespace opengpa {

HardwareCounterInfo DescribeSampledMetric(const nvidia::GraphicsMetric& metric);

}  // namespace opengpa

#endif  // OPENGPA_BACKENDS_COMMON_SAMPLED_HARDWARE_COUNTERS_H_
