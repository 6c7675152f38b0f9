// The Arm Mali G1 counters in an offline API context: what a context opened with Arm's vendor id (0x13B5) and a
// Mali G1's device id (arm_mali_ids.h) gets beside the API's own catalog, as an NVIDIA board gets its chip's
// sampler counters. The counters are data: catalogs/arm_mali_g1.json declares the raw counters (hardware counters
// here, exposed with kGpaOpenContextEnableHardwareCountersBit) and the derived ones with the reference's formulas;
// the context supplies the formulas' MALI_CONFIG_* constants (mali_configuration.h). No OpenGPA backend reads a
// Mali GPU yet (docs/arm-mali.md): these contexts list, plan and compute from values read by other tools.
#ifndef OPENGPA_COUNTER_LIBRARY_ARM_MALI_COUNTERS_H_
#define OPENGPA_COUNTER_LIBRARY_ARM_MALI_COUNTERS_H_

#include "counter_library/catalog_only_context.h"
#include "gpu_performance_api/gpu_perf_api_counters.h"

namespace opengpa::counter_library {

// Adds the Mali G1 counters to `context` when `info` names a Mali G1 (vendor 0x13B5); leaves any other device
// as it is (an Arm device id of another GPU is logged: it has the API's catalog only). Refusals (a zero
// configuration attribute) are logged under `function`.
GpaStatus AddArmMaliCounters(const char* function, const GpaCounterContextHardwareInfo& info,
                             CatalogOnlyContext* context);

}  // namespace opengpa::counter_library

#endif  // OPENGPA_COUNTER_LIBRARY_ARM_MALI_COUNTERS_H_
