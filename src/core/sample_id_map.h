// Sample id -> dense SampleSlot. Applications mostly number samples 0, 1, 2...; those ids index a
// flat array (no hashing, no per-sample allocation once the array has grown); sparse or huge ids
// fall back to a hash map.
#ifndef OPENGPA_CORE_SAMPLE_ID_MAP_H_
#define OPENGPA_CORE_SAMPLE_ID_MAP_H_

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "core/backend.h"

namespace opengpa {

inline constexpr SampleSlot kNoSlot = 0xFFFFFFFFu;

class SampleIdMap {
 public:
  SampleSlot Find(std::uint32_t sample_id) const {
    if (sample_id < kDenseLimit) return sample_id < dense_.size() ? dense_[sample_id] : kNoSlot;
    auto it = sparse_.find(sample_id);
    return it == sparse_.end() ? kNoSlot : it->second;
  }

  void Insert(std::uint32_t sample_id, SampleSlot slot) {
    if (sample_id < kDenseLimit) {
      if (sample_id >= dense_.size()) {
        // Grow geometrically so sequential ids cost amortised O(1) and stop allocating after warm-up.
        std::size_t size = dense_.empty() ? 64 : dense_.size();
        while (size <= sample_id) size *= 2;
        dense_.resize(size < kDenseLimit ? size : kDenseLimit, kNoSlot);
      }
      dense_[sample_id] = slot;
    } else {
      sparse_[sample_id] = slot;
    }
  }

  void Erase(std::uint32_t sample_id) {
    if (sample_id < kDenseLimit) {
      if (sample_id < dense_.size()) dense_[sample_id] = kNoSlot;
    } else {
      sparse_.erase(sample_id);
    }
  }

 private:
  static constexpr std::uint32_t kDenseLimit = 1u << 20;  // at most 4 MiB of dense table
  std::vector<SampleSlot> dense_;
  std::unordered_map<std::uint32_t, SampleSlot> sparse_;
};

}  // namespace opengpa

#endif  // OPENGPA_CORE_SAMPLE_ID_MAP_H_
