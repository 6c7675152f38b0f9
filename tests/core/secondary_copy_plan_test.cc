#include "core/secondary_copy_plan.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "platform/logging.h"

namespace opengpa {
namespace {

std::string& LastError() {
  static std::string message;
  return message;
}

class SecondaryCopyPlanTest : public ::testing::Test {
 protected:
  void SetUp() override {
    LastError().clear();
    SetLoggingCallback(kGpaLoggingError, [](GpaLoggingType, const char* message) { LastError() = message; });
    // The session knows ids 10 (slot 0) and 11 (slot 1); ids 7 and 8, on the secondary list, are slots 2 and 3.
    slot_of_id_.Insert(10, 0);
    slot_of_id_.Insert(11, 1);
    slot_of_id_.Insert(7, 2);
    slot_of_id_.Insert(8, 3);
  }
  void TearDown() override { SetLoggingCallback(kGpaLoggingNone, nullptr); }

  GpaStatus Plan(const std::vector<GpaUInt32>& new_ids, std::vector<SampleSlot> used_in_pass) {
    return PlanSecondaryCopy(
        secondary_samples_, new_ids.data(), 0, slot_of_id_, 4,
        [used_in_pass](SampleSlot slot) {
          return std::find(used_in_pass.begin(), used_in_pass.end(), slot) != used_in_pass.end();
        },
        &plan_);
  }

  const std::vector<SampleSlot> secondary_samples_ = {2, 3};
  SampleIdMap slot_of_id_;
  SecondaryCopyPlan plan_;
};

TEST_F(SecondaryCopyPlanTest, IdsNewToTheSessionTakeTheNextFreeSlotsInOrder) {
  ASSERT_EQ(Plan({20, 21}, {2, 3}), kGpaStatusOk);
  EXPECT_EQ(plan_.copies, (std::vector<std::pair<SampleSlot, SampleSlot>>{{2, 4}, {3, 5}}));
  EXPECT_EQ(plan_.new_ids, (std::vector<GpaUInt32>{20, 21}));
}

TEST_F(SecondaryCopyPlanTest, AnIdOfAnEarlierPassKeepsItsSlot) {
  // Id 10 was begun in another pass only: its slot 0 is free in this one.
  ASSERT_EQ(Plan({10, 21}, {2, 3}), kGpaStatusOk);
  EXPECT_EQ(plan_.copies, (std::vector<std::pair<SampleSlot, SampleSlot>>{{2, 0}, {3, 4}}));
  EXPECT_EQ(plan_.new_ids, (std::vector<GpaUInt32>{21}));
}

TEST_F(SecondaryCopyPlanTest, AnIdGivenTwiceIsRefusedNamingItsPosition) {
  EXPECT_EQ(Plan({20, 20}, {2, 3}), kGpaStatusErrorInvalidParameter);
  EXPECT_THAT(LastError(), ::testing::HasSubstr("new_sample_ids[1] = 20 appears twice"));
}

TEST_F(SecondaryCopyPlanTest, AnIdAlreadyUsedInThePassIsRefused) {
  EXPECT_EQ(Plan({20, 11}, {1, 2, 3}), kGpaStatusErrorInvalidParameter);
  EXPECT_THAT(LastError(), ::testing::HasSubstr("new_sample_ids[1] = 11 is already used in pass 0"));
}

}  // namespace
}  // namespace opengpa
