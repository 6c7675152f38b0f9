// The nineteen entry points GPA 4 kept from v3 unchanged (signature and meaning), called through the v4 table:
// each answers a GPA 4 client with the status v3 documents for NULL pointers, unknown ids, out-of-range indices
// and values outside an enum. Their full behaviour is tested through the v3 table (tests/core); this pins that
// the v4 table reaches the same checks.
#include <cstdint>
#include <cstring>

#include "tests/gpa4/gpa4_fixture.h"

namespace opengpa::gpa4_test {
namespace {

const GpaCommandListId kUnknownList = reinterpret_cast<GpaCommandListId>(static_cast<std::uintptr_t>(0xBADF00D));

void IgnoreMessage(GpaLoggingType, const char*) {}

TEST_F(Gpa4Test, LibraryWideEntriesRefuseNullOutputsAndValuesOutsideTheirEnums) {
  EXPECT_EQ(gpa_->GpaRegisterLoggingCallback(kGpaLoggingError, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaRegisterLoggingCallback(kGpaLoggingError, &IgnoreMessage), kGpaStatusOk);
  EXPECT_EQ(gpa_->GpaRegisterLoggingCallback(kGpaLoggingNone, nullptr), kGpaStatusOk);
  GpaUInt32 a = 0, b = 0, c = 0, d = 0;
  EXPECT_EQ(gpa_->GpaGetVersion(&a, &b, &c, &d), kGpaStatusOk);
  EXPECT_EQ(gpa_->GpaGetVersion(nullptr, &b, &c, &d), kGpaStatusErrorNullPointer);
  const char* text = nullptr;
  EXPECT_EQ(gpa_->GpaGetDataTypeAsStr(kGpaDataTypeUint64, &text), kGpaStatusOk);
  EXPECT_EQ(gpa_->GpaGetDataTypeAsStr(kGpaDataTypeLast, &text), kGpaStatusErrorInvalidParameter);
  EXPECT_EQ(gpa_->GpaGetDataTypeAsStr(kGpaDataTypeUint64, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaGetUsageTypeAsStr(kGpaUsageTypeNanoseconds, &text), kGpaStatusOk);
  EXPECT_EQ(gpa_->GpaGetUsageTypeAsStr(kGpaUsageTypeLast, &text), kGpaStatusErrorInvalidParameter);
  EXPECT_EQ(gpa_->GpaGetUsageTypeAsStr(kGpaUsageTypeNanoseconds, nullptr), kGpaStatusErrorNullPointer);
  ASSERT_NE(gpa_->GpaGetStatusAsStr(kGpaStatusErrorSessionNotFound), nullptr);
  EXPECT_NE(std::strlen(gpa_->GpaGetStatusAsStr(static_cast<GpaStatus>(-1000))), 0u);  // unknown, still a string
}

TEST_F(Gpa4Test, ContextEntriesRefuseNullAndUnknownContexts) {
  GpaUInt32 device = 0, revision = 0;
  const char* name = nullptr;
  EXPECT_EQ(gpa_->GpaGetDeviceAndRevisionId(context_, &device, &revision), kGpaStatusOk);
  EXPECT_EQ(gpa_->GpaGetDeviceAndRevisionId(nullptr, &device, &revision), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaGetDeviceAndRevisionId(context_, nullptr, &revision), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaGetDeviceAndRevisionId(UnknownContext(), &device, &revision), kGpaStatusErrorContextNotFound);
  EXPECT_EQ(gpa_->GpaGetDeviceName(context_, &name), kGpaStatusOk);
  EXPECT_EQ(gpa_->GpaGetDeviceName(nullptr, &name), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaGetDeviceName(UnknownContext(), &name), kGpaStatusErrorContextNotFound);
}

TEST_F(Gpa4Test, CounterSchedulingEntriesRefuseNullAndUnknownSessionsBadIndicesAndCountersNotEnabled) {
  GpaUInt32 count = 0;
  ASSERT_EQ(gpa_->GpaGetNumCounters(session_, &count), kGpaStatusOk);
  EXPECT_EQ(gpa_->GpaDisableCounter(nullptr, 0), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaDisableCounter(UnknownSession(), 0), kGpaStatusErrorSessionNotFound);
  EXPECT_EQ(gpa_->GpaDisableCounter(session_, count), kGpaStatusErrorIndexOutOfRange);
  EXPECT_EQ(gpa_->GpaDisableCounter(session_, 0), kGpaStatusErrorNotEnabled);
  EXPECT_EQ(gpa_->GpaDisableCounterByName(session_, "NoSuchCounter"), kGpaStatusErrorCounterNotFound);
  EXPECT_EQ(gpa_->GpaDisableCounterByName(session_, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaDisableCounterByName(UnknownSession(), "FakeCycles"), kGpaStatusErrorSessionNotFound);
  EXPECT_EQ(gpa_->GpaDisableAllCounters(nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaDisableAllCounters(UnknownSession()), kGpaStatusErrorSessionNotFound);
  EXPECT_EQ(gpa_->GpaDisableAllCounters(session_), kGpaStatusOk);
  EXPECT_EQ(gpa_->GpaIsCounterEnabled(nullptr, 0), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaIsCounterEnabled(UnknownSession(), 0), kGpaStatusErrorSessionNotFound);
  EXPECT_EQ(gpa_->GpaIsCounterEnabled(session_, 0), kGpaStatusErrorCounterNotFound);  // not enabled
  ASSERT_EQ(gpa_->GpaEnableCounter(session_, 0), kGpaStatusOk);
  EXPECT_EQ(gpa_->GpaIsCounterEnabled(session_, 0), kGpaStatusOk);
  GpaUInt32 value = 0;
  EXPECT_EQ(gpa_->GpaGetEnabledIndex(session_, 0, &value), kGpaStatusOk);
  EXPECT_EQ(value, 0u);
  EXPECT_EQ(gpa_->GpaGetEnabledIndex(session_, 1, &value), kGpaStatusErrorIndexOutOfRange);
  EXPECT_EQ(gpa_->GpaGetEnabledIndex(nullptr, 0, &value), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaGetEnabledIndex(UnknownSession(), 0, &value), kGpaStatusErrorSessionNotFound);
  EXPECT_EQ(gpa_->GpaGetPassCount(session_, &value), kGpaStatusOk);
  EXPECT_GE(value, 1u);
  EXPECT_EQ(gpa_->GpaGetPassCount(session_, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaGetPassCount(UnknownSession(), &value), kGpaStatusErrorSessionNotFound);
}

TEST_F(Gpa4Test, SampleEntriesRefuseNullAndUnknownIdsAndSessionsNotBegun) {
  EXPECT_EQ(gpa_->GpaContinueSampleOnCommandList(0, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaContinueSampleOnCommandList(0, kUnknownList), kGpaStatusErrorCommandListNotFound);
  GpaUInt32 ids[1] = {0};
  EXPECT_EQ(gpa_->GpaCopySecondarySamples(nullptr, kUnknownList, 1, ids), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaCopySecondarySamples(kUnknownList, kUnknownList, 1, ids), kGpaStatusErrorCommandListNotFound);
  EXPECT_EQ(gpa_->GpaIsPassComplete(nullptr, 0), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaIsPassComplete(UnknownSession(), 0), kGpaStatusErrorSessionNotFound);
  EXPECT_EQ(gpa_->GpaIsPassComplete(session_, 0), kGpaStatusErrorSessionNotStarted);
  size_t size = 0;
  EXPECT_EQ(gpa_->GpaGetSampleResultSize(nullptr, 0, &size), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaGetSampleResultSize(UnknownSession(), 0, &size), kGpaStatusErrorSessionNotFound);
  EXPECT_EQ(gpa_->GpaGetSampleResultSize(session_, 0, nullptr), kGpaStatusErrorNullPointer);
  GpaUInt32 id = 0;
  EXPECT_EQ(gpa_->GpaGetSampleId(nullptr, 0, &id), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaGetSampleId(UnknownSession(), 0, &id), kGpaStatusErrorSessionNotFound);
  EXPECT_EQ(gpa_->GpaGetSampleId(session_, 0, nullptr), kGpaStatusErrorNullPointer);
}

TEST_F(Gpa4Test, DeleteSessionRefusesNullAndUnknownSessionsAndDeletesOnce) {
  EXPECT_EQ(gpa_->GpaDeleteSession(nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaDeleteSession(UnknownSession()), kGpaStatusErrorSessionNotFound);
  EXPECT_EQ(gpa_->GpaDeleteSession(session_), kGpaStatusOk);
  EXPECT_EQ(gpa_->GpaDeleteSession(session_), kGpaStatusErrorSessionNotFound);
}

}  // namespace
}  // namespace opengpa::gpa4_test
