#include "core/sample_id_map.h"

#include <gtest/gtest.h>

namespace opengpa {
namespace {

TEST(SampleIdMap, UnknownIdsHaveNoSlot) {
  SampleIdMap map;
  EXPECT_EQ(map.Find(0), kNoSlot);
  EXPECT_EQ(map.Find(0xFFFFFFFFu), kNoSlot);
}

TEST(SampleIdMap, SmallAndHugeIdsMapToTheirSlots) {
  SampleIdMap map;
  map.Insert(5, 0);
  map.Insert(0xFFFFFFF0u, 1);
  map.Insert(100000, 2);
  EXPECT_EQ(map.Find(5), 0u);
  EXPECT_EQ(map.Find(0xFFFFFFF0u), 1u);
  EXPECT_EQ(map.Find(100000), 2u);
  EXPECT_EQ(map.Find(6), kNoSlot);
  map.Erase(5);
  map.Erase(0xFFFFFFF0u);
  EXPECT_EQ(map.Find(5), kNoSlot);
  EXPECT_EQ(map.Find(0xFFFFFFF0u), kNoSlot);
}

}  // namespace
}  // namespace opengpa
