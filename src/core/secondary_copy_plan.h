// Where the samples of a secondary command list land when GpaCopySecondarySamples copies them into a primary
// list under new sample ids. A new id either names a sample the session already has (begun in an earlier pass:
// it keeps that slot) or is new to the session (it takes the next free slot). The plan is checked in full
// before the backend records anything, so a refused copy changes nothing.
#ifndef OPENGPA_CORE_SECONDARY_COPY_PLAN_H_
#define OPENGPA_CORE_SECONDARY_COPY_PLAN_H_

#include <functional>
#include <utility>
#include <vector>

#include "core/backend.h"
#include "core/sample_id_map.h"
#include "gpu_performance_api/gpu_perf_api_types.h"

namespace opengpa {

struct SecondaryCopyPlan {
  std::vector<std::pair<SampleSlot, SampleSlot>> copies;  // (slot on the secondary list, slot it is copied to)
  std::vector<GpaUInt32> new_ids;  // ids the session did not know, for slots first_new_slot, first_new_slot + 1, ...
};

// `new_sample_ids` holds one id per entry of `secondary_samples`; `used_in_pass(slot)` says whether the slot
// already holds a sample in `pass`, the pass of both lists. Logs and returns kGpaStatusErrorInvalidParameter
// for an id given twice or already used in the pass.
[[nodiscard]] GpaStatus PlanSecondaryCopy(const std::vector<SampleSlot>& secondary_samples,
                                          const GpaUInt32* new_sample_ids, GpaUInt32 pass,
                                          const SampleIdMap& slot_of_id, SampleSlot first_new_slot,
                                          const std::function<bool(SampleSlot)>& used_in_pass, SecondaryCopyPlan* plan);

}  // namespace opengpa

#endif  // OPENGPA_CORE_SECONDARY_COPY_PLAN_H_
