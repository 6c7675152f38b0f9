// GPA_RegisterLoggingCallback, GPA_Initialize, GPA_Destroy, GPA_OpenContext, GPA_SelectContext, GPA_CloseContext:
// each documented status.
#include <climits>

#include "tests/gpa2/c_enum_callers.h"
#include "tests/gpa2/gpa2_test_fixture.h"

namespace opengpa::gpa2test {
namespace {

using ::testing::HasSubstr;

TEST_F(Gpa2Test, RegisterLoggingCallbackWithNullCallbackForSomeMessagesIsNullPointer) {
  EXPECT_EQ(GPA_RegisterLoggingCallback(GPA_LOGGING_ERROR, nullptr), GPA_STATUS_ERROR_NULL_POINTER);
  EXPECT_THAT(V2Log::LastError(), HasSubstr("callbackFuncPtr"));  // told to the callback registered before
}

// Logging types are bits: from C any int is a combination, and bits v2 does not define select nothing.
TEST_F(Gpa2Test, RegisterLoggingCallbackTakesAnyIntFromCAndDeliversOnlyTheDefinedBitsItSelects) {
  for (int types : {0x100, INT_MIN, -1, INT_MAX}) {
    EXPECT_EQ(CallGpa2RegisterLoggingCallback(types, nullptr), GPA_STATUS_ERROR_NULL_POINTER) << types;
  }
  // Undefined bits only: a callback that hears nothing.
  ASSERT_EQ(CallGpa2RegisterLoggingCallback(0x100, &V2Log::Capture), GPA_STATUS_OK);
  V2Log::Clear();
  EXPECT_EQ(GPA_CloseContext(), GPA_STATUS_ERROR_COUNTERS_NOT_OPEN);
  EXPECT_EQ(V2Log::LastError(), "");
  // Errors among undefined bits: errors are delivered.
  ASSERT_EQ(CallGpa2RegisterLoggingCallback(INT_MIN | GPA_LOGGING_ERROR, &V2Log::Capture), GPA_STATUS_OK);
  EXPECT_EQ(GPA_CloseContext(), GPA_STATUS_ERROR_COUNTERS_NOT_OPEN);
  EXPECT_THAT(V2Log::LastError(), HasSubstr("GPA_CloseContext"));
}

TEST_F(Gpa2Test, RegisterLoggingCallbackSaysSoAndDeliversErrorsWithoutNewline) {
  V2Log::Clear();
  ASSERT_EQ(GPA_RegisterLoggingCallback(GPA_LOGGING_ERROR_AND_MESSAGE, &V2Log::Capture), GPA_STATUS_OK);
  EXPECT_TRUE(V2Log::Has(GPA_LOGGING_MESSAGE, "Logging callback registered successfully."));
  EXPECT_EQ(GPA_GetNumCounters(nullptr), GPA_STATUS_ERROR_COUNTERS_NOT_OPEN);
  EXPECT_THAT(V2Log::LastError(), HasSubstr("GPA_GetNumCounters"));
  EXPECT_EQ(V2Log::LastError().find('\n'), std::string::npos);
}

TEST_F(Gpa2Test, RegisterLoggingCallbackOnlyDeliversTheChosenMessageTypes) {
  ASSERT_EQ(GPA_RegisterLoggingCallback(GPA_LOGGING_MESSAGE, &V2Log::Capture), GPA_STATUS_OK);
  V2Log::Clear();
  EXPECT_EQ(GPA_CloseContext(), GPA_STATUS_ERROR_COUNTERS_NOT_OPEN);
  EXPECT_EQ(V2Log::LastError(), "");
}

TEST_F(Gpa2Test, RegisterLoggingCallbackNoneWithNullCallbackTurnsLoggingOff) {
  ASSERT_EQ(GPA_RegisterLoggingCallback(GPA_LOGGING_NONE, nullptr), GPA_STATUS_OK);
  V2Log::Clear();
  EXPECT_EQ(GPA_CloseContext(), GPA_STATUS_ERROR_COUNTERS_NOT_OPEN);
  EXPECT_EQ(V2Log::LastError(), "");
}

TEST_F(Gpa2Test, CoreMessagesReachTheV2CallbackAsErrors) {
  device_.sample_status = kGpaStatusErrorFailed;  // the fake backend refuses samples; the core logs why
  Open();
  BeginSessionWith({"FakeTotalWork"});
  ASSERT_EQ(GPA_BeginPass(), GPA_STATUS_OK);
  V2Log::Clear();
  EXPECT_EQ(GPA_BeginSample(1), GPA_STATUS_ERROR_FAILED);
  EXPECT_TRUE(V2Log::Has(GPA_LOGGING_ERROR, "the backend could not begin sample_id 1"));  // the core's message
  EXPECT_TRUE(V2Log::Has(GPA_LOGGING_ERROR, "GPA_BeginSample"));                          // the v2 face's
}

TEST_F(Gpa2Test, InitializeTwiceFailsAndSaysWhy) {
  EXPECT_EQ(GPA_Initialize(), GPA_STATUS_ERROR_FAILED);
  EXPECT_THAT(V2Log::LastError(), HasSubstr("already initialized"));
}

TEST_F(Gpa2Test, InitializeAfterDestroySucceeds) {
  ASSERT_EQ(GPA_Destroy(), GPA_STATUS_OK);
  EXPECT_EQ(GPA_Initialize(), GPA_STATUS_OK);
}

TEST_F(Gpa2Test, DestroyWithoutInitializeFails) {
  ASSERT_EQ(GPA_Destroy(), GPA_STATUS_OK);
  EXPECT_EQ(GPA_Destroy(), GPA_STATUS_ERROR_FAILED);
  EXPECT_THAT(V2Log::LastError(), HasSubstr("GPA_Initialize was not called"));
}

TEST_F(Gpa2Test, DestroyClosesOpenContextsAndTheirSessions) {
  Open();
  RecordSession({"FakeTotalWork"}, {1});
  ASSERT_EQ(GPA_Destroy(), GPA_STATUS_OK);
  EXPECT_EQ(device_.sessions_alive, 0);
  gpa_uint32 count = 0;
  EXPECT_EQ(GPA_GetNumCounters(&count), GPA_STATUS_ERROR_COUNTERS_NOT_OPEN);
}

TEST_F(Gpa2Test, OpenContextWithNullContextIsNullPointer) {
  EXPECT_EQ(GPA_OpenContext(nullptr), GPA_STATUS_ERROR_NULL_POINTER);
  EXPECT_THAT(V2Log::LastError(), HasSubstr("context is NULL"));
}

TEST_F(Gpa2Test, OpenContextTwiceOnTheSameContextIsCountersAlreadyOpen) {
  Open();
  EXPECT_EQ(GPA_OpenContext(&device_), GPA_STATUS_ERROR_COUNTERS_ALREADY_OPEN);
}

TEST_F(Gpa2Test, OpenContextOnADeviceTheBackendRejectsIsHardwareNotSupported) {
  device_.open_status = kGpaStatusErrorHardwareNotSupported;
  EXPECT_EQ(GPA_OpenContext(&device_), GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED);
  gpa_uint32 count = 0;
  EXPECT_EQ(GPA_GetNumCounters(&count), GPA_STATUS_ERROR_COUNTERS_NOT_OPEN);  // nothing was opened
}

TEST_F(Gpa2Test, OpenContextBeforeInitializeIsHardwareNotSupportedAndSaysToInitialize) {
  ASSERT_EQ(GPA_Destroy(), GPA_STATUS_OK);
  EXPECT_EQ(GPA_OpenContext(&device_), GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED);
  EXPECT_THAT(V2Log::LastError(), HasSubstr("GPA_Initialize"));
}

TEST_F(Gpa2Test, OpenContextThatFailsInsideTheBackendIsFailed) {
  device_.open_status = kGpaStatusErrorFailed;
  EXPECT_EQ(GPA_OpenContext(&device_), GPA_STATUS_ERROR_FAILED);
  device_.open_status = kGpaStatusOk;
  device_.throw_in_open = true;  // an exception inside the library is a status too
  EXPECT_EQ(GPA_OpenContext(&device_), GPA_STATUS_ERROR_FAILED);
}

TEST_F(Gpa2Test, OpenContextMakesTheContextCurrentWithEveryCounterOfTheV3Context) {
  Open();
  gpa_uint32 count = 0;
  ASSERT_EQ(GPA_GetNumCounters(&count), GPA_STATUS_OK);
  EXPECT_EQ(count, 6u);  // the fake catalog's derived counters it can compute (FakeNeedsMissing is hidden)
}

TEST_F(Gpa2Test, SelectContextWithNullContextIsNullPointer) {
  EXPECT_EQ(GPA_SelectContext(nullptr), GPA_STATUS_ERROR_NULL_POINTER);
}

TEST_F(Gpa2Test, SelectContextOfAContextNeverOpenedIsCountersNotOpen) {
  fake::FakeDevice other;
  EXPECT_EQ(GPA_SelectContext(&other), GPA_STATUS_ERROR_COUNTERS_NOT_OPEN);
}

TEST_F(Gpa2Test, SelectContextSwitchesTheCurrentContextAndItsSessions) {
  fake::FakeDevice second;
  Open();
  EXPECT_EQ(RecordSession({"FakeTotalWork"}, {1}), 1u);
  Open(second);  // the newly opened context is current: its session ids start from 1
  EXPECT_EQ(RecordSession({"FakeTotalWork"}, {1}), 1u);
  ASSERT_EQ(GPA_SelectContext(&device_), GPA_STATUS_OK);
  EXPECT_EQ(RecordSession({}, {1}), 2u);  // FakeTotalWork is still enabled on the first context
  // Both closed while `second` lives: TearDown's GPA_Destroy would close the second context (and count its
  // sessions down in `second`) after `second` is gone.
  ASSERT_EQ(GPA_CloseContext(), GPA_STATUS_OK);
  ASSERT_EQ(GPA_CloseContext(), GPA_STATUS_OK);
  EXPECT_EQ(second.sessions_alive, 0);
}

TEST_F(Gpa2Test, CloseContextWithoutOpenContextIsCountersNotOpen) {
  EXPECT_EQ(GPA_CloseContext(), GPA_STATUS_ERROR_COUNTERS_NOT_OPEN);
  EXPECT_THAT(V2Log::LastError(), HasSubstr("GPA_OpenContext"));
}

TEST_F(Gpa2Test, CloseContextDuringASessionIsSamplingNotEnded) {
  Open();
  BeginSessionWith({"FakeTotalWork"});
  EXPECT_EQ(GPA_CloseContext(), GPA_STATUS_ERROR_SAMPLING_NOT_ENDED);
  EXPECT_EQ(GPA_EndSession(), GPA_STATUS_ERROR_NOT_ENOUGH_PASSES);  // still open: the session can end
}

TEST_F(Gpa2Test, CloseContextDeletesItsSessionsAndMakesTheFirstOpenContextCurrent) {
  fake::FakeDevice second;
  Open();
  Open(second);
  RecordSession({"FakeTotalWork"}, {1});
  ASSERT_EQ(GPA_CloseContext(), GPA_STATUS_OK);
  EXPECT_EQ(second.sessions_alive, 0);
  EXPECT_EQ(GPA_OpenContext(&device_), GPA_STATUS_ERROR_COUNTERS_ALREADY_OPEN);  // the first is still open...
  EXPECT_EQ(RecordSession({"FakeTotalWork"}, {1}), 1u);                          // ...and current
  ASSERT_EQ(GPA_CloseContext(), GPA_STATUS_OK);
  EXPECT_EQ(GPA_CloseContext(), GPA_STATUS_ERROR_COUNTERS_NOT_OPEN);
}

}  // namespace
}  // namespace opengpa::gpa2test
