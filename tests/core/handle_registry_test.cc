#include "core/handle_registry.h"

#include <gtest/gtest.h>

#include <memory>

namespace opengpa {
namespace {

using Registry = HandleRegistry<int, HandleKind::kSession>;

TEST(HandleRegistry, FindsWhatWasAdded) {
  Registry registry;
  const HandleValue a = registry.Add(std::make_unique<int>(1));
  const HandleValue b = registry.Add(std::make_unique<int>(2));
  ASSERT_NE(a, 0u);
  ASSERT_NE(a, b);
  EXPECT_EQ(*registry.Find(a), 1);
  EXPECT_EQ(*registry.Find(b), 2);
  EXPECT_EQ(registry.size(), 2u);
}

TEST(HandleRegistry, RemovedIdIsStaleEvenWhenItsSlotIsReused) {
  Registry registry;
  const HandleValue old_id = registry.Add(std::make_unique<int>(1));
  ASSERT_NE(registry.Remove(old_id), nullptr);
  EXPECT_EQ(registry.Find(old_id), nullptr);
  const HandleValue new_id = registry.Add(std::make_unique<int>(2));
  EXPECT_NE(new_id, old_id);
  EXPECT_EQ((new_id & 0xFFFFFF), (old_id & 0xFFFFFF)) << "the slot is reused";
  EXPECT_EQ(registry.Find(old_id), nullptr);
  EXPECT_EQ(registry.Remove(old_id), nullptr);
  EXPECT_EQ(*registry.Find(new_id), 2);
}

TEST(HandleRegistry, IdOfAnotherKindIsNotFound) {
  Registry sessions;
  HandleRegistry<int, HandleKind::kContext> contexts;
  const HandleValue session = sessions.Add(std::make_unique<int>(1));
  const HandleValue context = contexts.Add(std::make_unique<int>(1));
  EXPECT_EQ(sessions.Find(context), nullptr);
  EXPECT_EQ(contexts.Find(session), nullptr);
}

TEST(HandleRegistry, GarbageIdsAreNotFound) {
  Registry registry;
  const HandleValue id = registry.Add(std::make_unique<int>(1));
  for (HandleValue garbage : {HandleValue{0}, HandleValue{1}, ~HandleValue{0}, id + 1, id ^ (HandleValue{1} << 30),
                              HandleValue{0x00007FFFDEADBEEF}}) {
    EXPECT_EQ(registry.Find(garbage), nullptr) << std::hex << garbage;
  }
}

TEST(HandleRegistry, IdsListsLiveObjectsOnly) {
  Registry registry;
  const HandleValue a = registry.Add(std::make_unique<int>(1));
  const HandleValue b = registry.Add(std::make_unique<int>(2));
  registry.Remove(a);
  EXPECT_EQ(registry.Ids(), std::vector<HandleValue>{b});
  EXPECT_EQ(registry.size(), 1u);
}

TEST(HandleRegistry, HandleRoundTripsThroughAnOpaquePointer) {
  struct _Opaque;
  const HandleValue value = 0x5E00000100000003ull;
  EXPECT_EQ(HandleValueOf(HandleFromValue<_Opaque*>(value)), value);
}

}  // namespace
}  // namespace opengpa
