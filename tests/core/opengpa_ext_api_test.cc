// OpenGPA extensions: OpenGpaGetCounterFormula, OpenGpaGetCounterHardwareUnit.
#include "gpu_performance_api/opengpa_ext.h"

#include "tests/core/gpa_api_test_fixture.h"

namespace opengpa::testing {
namespace {

using ::testing::HasSubstr;

using ExtensionTest = GpaApiTest;

TEST_F(ExtensionTest, DerivedCountersReportTheirCatalogFormulaAndNoUnit) {
  GpaContextId context = OpenContext();
  const char* text = nullptr;
  ASSERT_EQ(OpenGpaGetCounterFormula(context, CounterIndex(context, "FakeTotalWork"), &text), kGpaStatusOk);
  EXPECT_STREQ(text, "FakeCycles + FakeItems");
  ASSERT_EQ(OpenGpaGetCounterHardwareUnit(context, CounterIndex(context, "FakeTotalWork"), &text), kGpaStatusOk);
  EXPECT_STREQ(text, "");
}

TEST_F(ExtensionTest, HardwareCountersReportTheirOwnNameAndTheBackendsUnit) {
  GpaContextId context = OpenContext(device_, kGpaOpenContextEnableHardwareCountersBit);
  const char* text = nullptr;
  ASSERT_EQ(OpenGpaGetCounterFormula(context, CounterIndex(context, "FakeBytes"), &text), kGpaStatusOk);
  EXPECT_STREQ(text, "FakeBytes");
  ASSERT_EQ(OpenGpaGetCounterHardwareUnit(context, CounterIndex(context, "FakeBytes"), &text), kGpaStatusOk);
  EXPECT_STREQ(text, "fakeblock1");
}

TEST_F(ExtensionTest, BadArgumentsGetTheDocumentedStatuses) {
  GpaContextId context = OpenContext();
  const char* text = nullptr;
  EXPECT_EQ(OpenGpaGetCounterFormula(context, 0, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_THAT(ErrorLog::Last(), HasSubstr("formula"));
  EXPECT_EQ(OpenGpaGetCounterFormula(GarbageId<GpaContextId>(), 0, &text), kGpaStatusErrorContextNotFound);
  EXPECT_EQ(OpenGpaGetCounterFormula(context, 999, &text), kGpaStatusErrorIndexOutOfRange);
  EXPECT_EQ(OpenGpaGetCounterHardwareUnit(context, 0, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(OpenGpaGetCounterHardwareUnit(GarbageId<GpaContextId>(), 0, &text), kGpaStatusErrorContextNotFound);
  EXPECT_EQ(OpenGpaGetCounterHardwareUnit(context, 999, &text), kGpaStatusErrorIndexOutOfRange);
}

}  // namespace
}  // namespace opengpa::testing
