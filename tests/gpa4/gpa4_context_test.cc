// GPA 4's context entry points through the v4 table: GpaInitialize and GpaOpenContext with v4's flags, the
// sample-type bits, GpaUpdateDeviceInformation and the three device limits.
#include "tests/gpa4/gpa4_fixture.h"

namespace opengpa::gpa4_test {
namespace {

TEST_F(Gpa4Test, InitializeAcceptsGpa4sSqttAndSimultaneousQueuesBitsAndRefusesUnknownOnes) {
  ASSERT_EQ(gpa_->GpaDestroy(), kGpaStatusOk);
  EXPECT_EQ(gpa_->GpaInitialize(static_cast<GpaInitializeFlags>(0x4)), kGpaStatusErrorInvalidParameter);
  EXPECT_EQ(gpa_->GpaInitialize(kGpaInitializeEnableSqttBit), kGpaStatusOk);
  EXPECT_EQ(gpa_->GpaInitialize(kGpaInitializeSimultaneousQueuesEnableBit), kGpaStatusErrorGpaAlreadyInitialized);
}

TEST_F(Gpa4Test, OpenContextRefusesV3sObsoleteBitsWhichGpa4DoesNotDefine) {
  fake::FakeDevice other;
  GpaContextId id = nullptr;
  EXPECT_EQ(gpa_->GpaOpenContext(&other, 0x02, &id), kGpaStatusErrorInvalidParameter);
  EXPECT_EQ(gpa_->GpaOpenContext(&other, 0x04, &id), kGpaStatusErrorInvalidParameter);
  ASSERT_EQ(gpa_->GpaOpenContext(&other, kGpaOpenContextClockModePeakBit, &id), kGpaStatusOk);
  EXPECT_EQ(gpa_->GpaCloseContext(id), kGpaStatusOk);  // while `other` is alive
}

TEST_F(Gpa4Test, OpenContextRefusesApiSpecificBitsTheLibrarysApiDoesNotDefine) {
  fake::FakeDevice other;
  GpaContextId id = nullptr;
  EXPECT_EQ(gpa_->GpaOpenContext(&other, kGpaOpenContextApiSpecificOptionsStart, &id), kGpaStatusErrorInvalidParameter);
}

TEST_F(Gpa4Test, SupportedSampleTypesHaveTheDiscreteBit) {
  GpaContextSampleTypeFlags types = 0;
  ASSERT_EQ(gpa_->GpaGetSupportedSampleTypes(context_, &types), kGpaStatusOk);
  EXPECT_EQ(types, static_cast<GpaContextSampleTypeFlags>(kGpaContextSampleTypeDiscreteCounter));
  EXPECT_EQ(gpa_->GpaGetSupportedSampleTypes(context_, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaGetSupportedSampleTypes(UnknownContext(), &types), kGpaStatusErrorContextNotFound);
}

TEST_F(Gpa4Test, DeviceLimitsADeviceDoesNotReportAreHardwareNotSupported) {
  GpaUInt32 value = 0;
  EXPECT_EQ(gpa_->GpaGetDeviceMaxWaveSlots(context_, &value), kGpaStatusErrorHardwareNotSupported);
  EXPECT_EQ(gpa_->GpaGetDeviceMaxVgprs(context_, &value), kGpaStatusErrorHardwareNotSupported);
  EXPECT_EQ(gpa_->GpaGetDeviceMaxLdsBytes(context_, &value), kGpaStatusErrorHardwareNotSupported);
}

TEST_F(Gpa4Test, DeviceLimitQueriesCheckTheContextThenTheOutput) {
  GpaUInt32 value = 0;
  EXPECT_EQ(gpa_->GpaGetDeviceMaxWaveSlots(nullptr, &value), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaGetDeviceMaxVgprs(UnknownContext(), &value), kGpaStatusErrorContextNotFound);
  EXPECT_EQ(gpa_->GpaGetDeviceMaxLdsBytes(UnknownContext(), nullptr), kGpaStatusErrorContextNotFound);
  EXPECT_EQ(gpa_->GpaGetDeviceMaxLdsBytes(context_, nullptr), kGpaStatusErrorNullPointer);
}

class Gpa4ShapedDeviceTest : public Gpa4Test {
  // An H100-like shape: 132 SMs of 4 sub-partitions, 16 warps and 16384 registers each, 228 KiB shared memory.
  void ConfigureDevice(fake::FakeDevice& device) override {
    device.compute_units = 132;
    device.simds = 132 * 4;
    device.waves_per_simd = 16;
    device.vgprs_per_simd = 16384;
    device.lds_bytes_per_compute_unit = 228 * 1024;
  }
};

TEST_F(Gpa4ShapedDeviceTest, DeviceLimitsAreTheWholeDevicesSlotsRegistersAndSharedMemory) {
  GpaUInt32 value = 0;
  ASSERT_EQ(gpa_->GpaGetDeviceMaxWaveSlots(context_, &value), kGpaStatusOk);
  EXPECT_EQ(value, 132u * 4 * 16);
  ASSERT_EQ(gpa_->GpaGetDeviceMaxVgprs(context_, &value), kGpaStatusOk);
  EXPECT_EQ(value, 132u * 4 * 16384);
  ASSERT_EQ(gpa_->GpaGetDeviceMaxLdsBytes(context_, &value), kGpaStatusOk);
  EXPECT_EQ(value, 132u * 228 * 1024);
}

TEST_F(Gpa4ShapedDeviceTest, UpdateDeviceInformationReshapesTheLimitsItsCountsDetermine) {
  ASSERT_EQ(gpa_->GpaUpdateDeviceInformation(context_, 8, 114, 456, 12), kGpaStatusOk);
  GpaUInt32 value = 0;
  ASSERT_EQ(gpa_->GpaGetDeviceMaxWaveSlots(context_, &value), kGpaStatusOk);
  EXPECT_EQ(value, 456u * 12);
  ASSERT_EQ(gpa_->GpaGetDeviceMaxVgprs(context_, &value), kGpaStatusOk);
  EXPECT_EQ(value, 456u * 16384);  // registers per SIMD stay the device's
  ASSERT_EQ(gpa_->GpaGetDeviceMaxLdsBytes(context_, &value), kGpaStatusOk);
  EXPECT_EQ(value, 114u * 228 * 1024);
}

TEST_F(Gpa4Test, UpdateDeviceInformationMakesWaveSlotsKnownOnADeviceThatDidNotSay) {
  ASSERT_EQ(gpa_->GpaUpdateDeviceInformation(context_, 2, 4, 16, 10), kGpaStatusOk);
  GpaUInt32 value = 0;
  ASSERT_EQ(gpa_->GpaGetDeviceMaxWaveSlots(context_, &value), kGpaStatusOk);
  EXPECT_EQ(value, 160u);
  EXPECT_EQ(gpa_->GpaGetDeviceMaxVgprs(context_, &value), kGpaStatusErrorHardwareNotSupported);
}

TEST_F(Gpa4Test, UpdateDeviceInformationRefusesZeroCountsThenUnknownContexts) {
  EXPECT_EQ(gpa_->GpaUpdateDeviceInformation(context_, 0, 4, 16, 10), kGpaStatusErrorInvalidParameter);
  EXPECT_EQ(gpa_->GpaUpdateDeviceInformation(context_, 2, 4, 16, 0), kGpaStatusErrorInvalidParameter);
  EXPECT_EQ(gpa_->GpaUpdateDeviceInformation(nullptr, 2, 4, 16, 10), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaUpdateDeviceInformation(UnknownContext(), 2, 4, 16, 10), kGpaStatusErrorContextNotFound);
}

}  // namespace
}  // namespace opengpa::gpa4_test
