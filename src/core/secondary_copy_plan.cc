#include "core/secondary_copy_plan.h"

#include <unordered_set>

#include "platform/logging.h"

namespace opengpa {

GpaStatus PlanSecondaryCopy(const std::vector<SampleSlot>& secondary_samples, const GpaUInt32* new_sample_ids,
                            GpaUInt32 pass, const SampleIdMap& slot_of_id, SampleSlot first_new_slot,
                            const std::function<bool(SampleSlot)>& used_in_pass, SecondaryCopyPlan* plan) {
  plan->copies.clear();
  plan->new_ids.clear();
  plan->copies.reserve(secondary_samples.size());
  std::unordered_set<GpaUInt32> seen;
  for (std::size_t i = 0; i < secondary_samples.size(); ++i) {
    const GpaUInt32 id = new_sample_ids[i];
    if (!seen.insert(id).second) {
      return LogError(kGpaStatusErrorInvalidParameter, "new_sample_ids[{}] = {} appears twice", i, id);
    }
    SampleSlot slot = slot_of_id.Find(id);
    if (slot == kNoSlot) {
      slot = first_new_slot + static_cast<SampleSlot>(plan->new_ids.size());
      plan->new_ids.push_back(id);
    } else if (used_in_pass(slot)) {
      return LogError(kGpaStatusErrorInvalidParameter, "new_sample_ids[{}] = {} is already used in pass {}", i, id,
                      pass);
    }
    plan->copies.emplace_back(secondary_samples[i], slot);
  }
  return kGpaStatusOk;
}

}  // namespace opengpa
