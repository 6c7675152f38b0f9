// Generation-checked handles. GPA's opaque ids (GpaContextId, GpaSessionId, GpaCommandListId) are
// never pointers to our objects: each packs a kind tag, a generation and a slot index, so a stale id
// (object deleted, slot reused), an id of another kind, or a garbage value is recognised and reported
// instead of being dereferenced.
//
//   bits 63..56  kind tag      (a session id passed as a context id is not found)
//   bits 55..24  generation    (bumped when the slot is freed; never 0)
//   bits 23..0   slot index
//
// Not synchronised: callers hold the library lock (shared to Find, exclusive to Add/Remove).
#ifndef OPENGPA_CORE_HANDLE_REGISTRY_H_
#define OPENGPA_CORE_HANDLE_REGISTRY_H_

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace opengpa {

enum class HandleKind : std::uint8_t { kContext = 0xC7, kSession = 0x5E, kCommandList = 0xCB };

using HandleValue = std::uint64_t;

template <typename Handle>
HandleValue HandleValueOf(Handle handle) {
  return static_cast<HandleValue>(reinterpret_cast<std::uintptr_t>(handle));
}

// GPA's C API declares its ids as pointers to opaque structs; the id travels in the pointer's bits and is never
// dereferenced, so the integer-to-pointer cast that clang-tidy's performance-no-int-to-ptr warns of is the point.
template <typename Handle>
Handle HandleFromValue(HandleValue value) {
  return reinterpret_cast<Handle>(static_cast<std::uintptr_t>(value));  // NOLINT(performance-no-int-to-ptr)
}

template <typename T, HandleKind Kind>
class HandleRegistry {
 public:
  static constexpr std::uint32_t kIndexBits = 24;
  static constexpr std::uint32_t kMaxSlots = 1u << kIndexBits;

  // Takes ownership; returns the new id, or 0 when every slot is in use.
  HandleValue Add(std::unique_ptr<T> object) {
    std::uint32_t index;
    if (!free_.empty()) {
      index = free_.back();
      free_.pop_back();
    } else {
      if (slots_.size() >= kMaxSlots) return 0;
      index = static_cast<std::uint32_t>(slots_.size());
      slots_.emplace_back();
    }
    Slot& slot = slots_[index];
    slot.object = std::move(object);
    ++live_;
    return Encode(index, slot.generation);
  }

  // The object `id` names, or nullptr when it names nothing alive of this kind.
  T* Find(HandleValue id) const {
    const Slot* slot = SlotOf(id);
    return slot != nullptr ? slot->object.get() : nullptr;
  }

  // Releases the object `id` names (nullptr when none); the id and every copy of it go stale.
  std::unique_ptr<T> Remove(HandleValue id) {
    Slot* slot = const_cast<Slot*>(SlotOf(id));
    if (slot == nullptr) return nullptr;
    std::unique_ptr<T> object = std::move(slot->object);
    if (++slot->generation == 0) slot->generation = 1;
    free_.push_back(static_cast<std::uint32_t>(id & (kMaxSlots - 1)));
    --live_;
    return object;
  }

  // Ids of every live object, in slot order.
  std::vector<HandleValue> Ids() const {
    std::vector<HandleValue> ids;
    for (std::uint32_t i = 0; i < slots_.size(); ++i) {
      if (slots_[i].object) ids.push_back(Encode(i, slots_[i].generation));
    }
    return ids;
  }

  std::size_t size() const { return live_; }

 private:
  struct Slot {
    std::uint32_t generation = 1;
    std::unique_ptr<T> object;
  };

  static HandleValue Encode(std::uint32_t index, std::uint32_t generation) {
    return (static_cast<HandleValue>(Kind) << 56) | (static_cast<HandleValue>(generation) << kIndexBits) | index;
  }

  const Slot* SlotOf(HandleValue id) const {
    if (static_cast<std::uint8_t>(id >> 56) != static_cast<std::uint8_t>(Kind)) return nullptr;
    const auto index = static_cast<std::uint32_t>(id & (kMaxSlots - 1));
    const auto generation = static_cast<std::uint32_t>(id >> kIndexBits);
    if (index >= slots_.size()) return nullptr;
    const Slot& slot = slots_[index];
    if (!slot.object || slot.generation != generation) return nullptr;
    return &slot;
  }

  std::vector<Slot> slots_;
  std::vector<std::uint32_t> free_;
  std::size_t live_ = 0;
};

}  // namespace opengpa

#endif  // OPENGPA_CORE_HANDLE_REGISTRY_H_
