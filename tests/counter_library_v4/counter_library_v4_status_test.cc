// Every entry point of the v4 counter-library table refuses bad input with the status GPA 4.3 documents (or
// AMD's library answers), logged, never a crash: NULL pointers, closed or made-up contexts, bad indices, values
// outside an enum, unknown hardware. The device is the OpenGL catalog (no GPU needed).
#include <gmock/gmock.h>

#include <dlfcn.h>

#include <array>
#include <cstddef>
#include <vector>

#include "tests/counter_library_v4/counter_library_v4_fixture.h"

namespace opengpa::testing {
namespace {

using ::testing::HasSubstr;

class CounterLibraryV4StatusTest : public CounterLibraryV4Test {
 protected:
  void SetUp() override {
    CounterLibraryV4Test::SetUp();
    context_ = Open(kGpaApiOpengl, Device(0x10DE, 0x2330));
    ASSERT_NE(context_, nullptr);
    ASSERT_EQ(lib_.GpaCounterLibGetNumCounters(context_, &count_), kGpaStatusOk);
    // A context that was open once: its id is well formed but no longer names a context.
    ASSERT_EQ(lib_.GpaCounterLibOpenCounterContext(kGpaApiOpengl, kGpaSessionSampleTypeDiscreteCounter,
                                                   Device(0x10DE, 0x2330), kGpaOpenContextDefaultBit, &closed_),
              kGpaStatusOk);
    ASSERT_EQ(lib_.GpaCounterLibCloseCounterContext(closed_), kGpaStatusOk);
    ClearErrors();
  }

  GpaCounterContext context_ = nullptr;
  GpaCounterContext closed_ = nullptr;
  GpaUInt32 count_ = 0;
};

// ---- GpaCounterLibGetFuncTable ----

TEST_F(CounterLibraryV4StatusTest, TheTableGpa43sHeaderAsksForIsTheV4OneWithMajorVersion3And160Bytes) {
  GpaCounterLibFuncTable table;  // the constructor states GPA 4.3's versions
  EXPECT_EQ(table.gpa_counter_lib_major_version, 3u);
  EXPECT_EQ(table.gpa_counter_lib_minor_version, 160u);
  ASSERT_EQ(GpaCounterLibGetFuncTable(&table), kGpaStatusOk);
  EXPECT_TRUE(table.IsInit());
  // The v4 Open is not the exported (v3) GpaCounterLibOpenCounterContext; the shared entries are the exports.
  void* self = dlopen(nullptr, RTLD_NOW);
  EXPECT_NE(reinterpret_cast<void*>(table.GpaCounterLibOpenCounterContext),
            dlsym(self, "GpaCounterLibOpenCounterContext"));
  EXPECT_EQ(reinterpret_cast<void*>(table.GpaCounterLibGetNumCounters), dlsym(self, "GpaCounterLibGetNumCounters"));
  dlclose(self);
}

TEST_F(CounterLibraryV4StatusTest, TheTableIsAlsoTheV4OneWhenTheCallerStatesMajorVersion4) {
  GpaCounterLibFuncTable table;
  table.gpa_counter_lib_major_version = 4;
  ASSERT_EQ(GpaCounterLibGetFuncTable(&table), kGpaStatusOk);
  EXPECT_TRUE(table.IsInit());
  EXPECT_EQ(table.GpaCounterLibOpenCounterContext, lib_.GpaCounterLibOpenCounterContext);
  EXPECT_EQ(table.gpa_counter_lib_minor_version, sizeof(GpaCounterLibFuncTable));
}

TEST_F(CounterLibraryV4StatusTest, AnOlderV4TableGetsTheEntriesThatFitAndNothingPastItsEnd) {
  std::array<unsigned char, sizeof(GpaCounterLibFuncTable)> buffer;
  buffer.fill(0xCD);
  const GpaUInt32 header[2] = {
      4, static_cast<GpaUInt32>(offsetof(GpaCounterLibFuncTable, GpaCounterLibGetSupportedSampleTypes))};
  std::memcpy(buffer.data(), header, sizeof header);
  ASSERT_EQ(GpaCounterLibGetFuncTable(buffer.data()), kGpaStatusOk) << Errors();
  GpaCounterLibFuncTable filled;
  std::memcpy(&filled, buffer.data(), sizeof filled);
  EXPECT_EQ(filled.GpaCounterLibGetCountersByPass, lib_.GpaCounterLibGetCountersByPass);
  for (std::size_t b = header[1]; b < buffer.size(); ++b) EXPECT_EQ(buffer[b], 0xCD) << "byte " << b;
}

TEST_F(CounterLibraryV4StatusTest, GetFuncTableRefusesNullATableLargerThanV4sAndAnUnknownMajorVersion) {
  EXPECT_EQ(GpaCounterLibGetFuncTable(nullptr), kGpaStatusErrorNullPointer);
  GpaCounterLibFuncTable table;
  table.gpa_counter_lib_minor_version = sizeof(GpaCounterLibFuncTable) + 8;
  EXPECT_EQ(GpaCounterLibGetFuncTable(&table), kGpaStatusErrorLibLoadMinorVersionMismatch);
  EXPECT_EQ(table.gpa_counter_lib_minor_version, sizeof(GpaCounterLibFuncTable));  // the size it should have said
  EXPECT_EQ(table.GpaCounterLibGetVersion, nullptr);
  GpaCounterLibFuncTable major5;
  major5.gpa_counter_lib_major_version = 5;
  EXPECT_EQ(GpaCounterLibGetFuncTable(&major5), kGpaStatusErrorLibLoadMajorVersionMismatch);
  EXPECT_THAT(Errors(), HasSubstr("gpa_counter_lib_major_version 5"));
}

// ---- GpaCounterLibGetVersion ----

TEST_F(CounterLibraryV4StatusTest, GetVersionRefusesEachNullOutput) {
  GpaUInt32 a = 0, b = 0, c = 0, d = 0;
  EXPECT_EQ(lib_.GpaCounterLibGetVersion(&a, &b, &c, &d), kGpaStatusOk);
  EXPECT_EQ(lib_.GpaCounterLibGetVersion(nullptr, &b, &c, &d), kGpaStatusErrorNullPointer);
  EXPECT_EQ(lib_.GpaCounterLibGetVersion(&a, nullptr, &c, &d), kGpaStatusErrorNullPointer);
  EXPECT_EQ(lib_.GpaCounterLibGetVersion(&a, &b, nullptr, &d), kGpaStatusErrorNullPointer);
  EXPECT_EQ(lib_.GpaCounterLibGetVersion(&a, &b, &c, nullptr), kGpaStatusErrorNullPointer);
}

// ---- GpaCounterLibOpenCounterContext ----

TEST_F(CounterLibraryV4StatusTest, OpenRefusesNullFlagsThatExposeNothingAndAttributesWithoutAnArray) {
  const GpaCounterContextHardwareInfo device = Device(0x10DE, 0x2330);
  EXPECT_EQ(lib_.GpaCounterLibOpenCounterContext(kGpaApiOpengl, kGpaSessionSampleTypeDiscreteCounter, device,
                                                 kGpaOpenContextDefaultBit, nullptr),
            kGpaStatusErrorNullPointer);
  GpaCounterContext context = nullptr;
  EXPECT_EQ(lib_.GpaCounterLibOpenCounterContext(kGpaApiOpengl, kGpaSessionSampleTypeDiscreteCounter, device,
                                                 kGpaOpenContextHideDerivedCountersBit, &context),
            kGpaStatusErrorInvalidParameter);
  GpaCounterContextHardwareInfo no_array = device;
  no_array.gpa_hardware_attribute_count = 2;
  EXPECT_EQ(lib_.GpaCounterLibOpenCounterContext(kGpaApiOpengl, kGpaSessionSampleTypeDiscreteCounter, no_array,
                                                 kGpaOpenContextDefaultBit, &context),
            kGpaStatusErrorNullPointer);
  EXPECT_EQ(context, nullptr);
}

TEST_F(CounterLibraryV4StatusTest, OpenRefusesSqttWhichHasNoCountersAndValuesThatAreNoSampleType) {
  GpaCounterContext context = nullptr;
  EXPECT_EQ(lib_.GpaCounterLibOpenCounterContext(kGpaApiOpengl, kGpaSessionSampleTypeSqtt, Device(0x10DE, 0x2330),
                                                 kGpaOpenContextDefaultBit, &context),
            kGpaStatusErrorInvalidParameter);
  EXPECT_THAT(Errors(), HasSubstr("kGpaSessionSampleTypeSqtt"));
  for (int type : {static_cast<int>(kGpaSessionSampleTypeLast), -1, 77}) {
    EXPECT_EQ(lib_.GpaCounterLibOpenCounterContext(kGpaApiOpengl, static_cast<GpaSessionSampleType>(type),
                                                   Device(0x10DE, 0x2330), kGpaOpenContextDefaultBit, &context),
              kGpaStatusErrorInvalidParameter)
        << type;
  }
  EXPECT_EQ(context, nullptr);
}

TEST_F(CounterLibraryV4StatusTest, OpenRefusesSampleTypesTheDeviceDoesNotOffer) {
  GpaCounterContext context = nullptr;
  for (GpaSessionSampleType type :
       {kGpaSessionSampleTypeStreamingCounter, kGpaSessionSampleTypeStreamingCounterAndSqtt}) {
    EXPECT_EQ(lib_.GpaCounterLibOpenCounterContext(kGpaApiOpengl, type, Device(0x10DE, 0x2330),
                                                   kGpaOpenContextDefaultBit, &context),
              kGpaStatusErrorIncompatibleSampleTypes);
  }
  EXPECT_THAT(Errors(), HasSubstr("GpaCounterLibGetSupportedSampleTypes"));
  EXPECT_EQ(context, nullptr);
}

TEST_F(CounterLibraryV4StatusTest, OpenAnswersApisItDoesNotServeAndValuesThatAreNoApi) {
  GpaCounterContext context = nullptr;
  const GpaCounterContextHardwareInfo device = Device(0x1002, 0x744C);
  for (GpaApiType api : {kGpaApiDirectx11, kGpaApiDirectx12, kGpaApiNoSupport}) {
    EXPECT_EQ(lib_.GpaCounterLibOpenCounterContext(api, kGpaSessionSampleTypeDiscreteCounter, device,
                                                   kGpaOpenContextDefaultBit, &context),
              kGpaStatusErrorApiNotSupported)
        << api;
  }
  for (int api : {static_cast<int>(kGpaApiLast), -3, 1000}) {
    EXPECT_EQ(lib_.GpaCounterLibOpenCounterContext(static_cast<GpaApiType>(api), kGpaSessionSampleTypeDiscreteCounter,
                                                   device, kGpaOpenContextDefaultBit, &context),
              kGpaStatusErrorInvalidParameter)
        << api;
  }
  EXPECT_EQ(context, nullptr);
}

TEST_F(CounterLibraryV4StatusTest, OpenAnswersUnknownNvidiaHardwareWithHardwareNotSupported) {
  GpaCounterContext context = nullptr;
  for (GpaCounterContextHardwareInfo device : {Device(0x10DE, 0x0001), Device(0x1002, 0x2330)}) {
    const GpaStatus status = lib_.GpaCounterLibOpenCounterContext(kGpaApiCuda, kGpaSessionSampleTypeDiscreteCounter,
                                                                  device, kGpaOpenContextDefaultBit, &context);
    // Without the CUDA backend in this build the API itself is not served.
    EXPECT_TRUE(status == kGpaStatusErrorHardwareNotSupported || status == kGpaStatusErrorApiNotSupported) << status;
  }
  EXPECT_EQ(context, nullptr);
}

// ---- GpaCounterLibCloseCounterContext, GpaCounterLibGetNumCounters ----

TEST_F(CounterLibraryV4StatusTest, CloseAndGetNumCountersRefuseNullAndContextsThatAreNotOpen) {
  GpaUInt32 count = 0;
  EXPECT_EQ(lib_.GpaCounterLibCloseCounterContext(nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(lib_.GpaCounterLibCloseCounterContext(closed_), kGpaStatusErrorContextNotOpen);
  EXPECT_EQ(lib_.GpaCounterLibCloseCounterContext(reinterpret_cast<GpaCounterContext>(0xBADF00D)),
            kGpaStatusErrorContextNotOpen);
  EXPECT_EQ(lib_.GpaCounterLibGetNumCounters(nullptr, &count), kGpaStatusErrorNullPointer);
  EXPECT_EQ(lib_.GpaCounterLibGetNumCounters(closed_, &count), kGpaStatusErrorContextNotOpen);
  EXPECT_EQ(lib_.GpaCounterLibGetNumCounters(context_, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_THAT(Errors(), HasSubstr("is not open"));
}

// ---- The per-counter queries: name, group, description, data type, usage type, UUID, sample type ----

TEST_F(CounterLibraryV4StatusTest, PerCounterQueriesRefuseAnIndexPastTheLastNullOutputsAndClosedContexts) {
  const char* text = nullptr;
  GpaDataType data_type{};
  GpaUsageType usage{};
  GpaUuid uuid{};
  GpaCounterSampleType sample_type{};
  const auto all = [&](GpaCounterContext context, GpaUInt32 index, bool null_out) {
    return std::vector<GpaStatus>{
        lib_.GpaCounterLibGetCounterName(context, index, null_out ? nullptr : &text),
        lib_.GpaCounterLibGetCounterGroup(context, index, null_out ? nullptr : &text),
        lib_.GpaCounterLibGetCounterDescription(context, index, null_out ? nullptr : &text),
        lib_.GpaCounterLibGetCounterDataType(context, index, null_out ? nullptr : &data_type),
        lib_.GpaCounterLibGetCounterUsageType(context, index, null_out ? nullptr : &usage),
        lib_.GpaCounterLibGetCounterUuid(context, index, null_out ? nullptr : &uuid),
        lib_.GpaCounterLibGetCounterSampleType(context, index, null_out ? nullptr : &sample_type)};
  };
  EXPECT_THAT(all(context_, 0, false), ::testing::Each(kGpaStatusOk));
  EXPECT_THAT(all(context_, count_, false), ::testing::Each(kGpaStatusErrorIndexOutOfRange));
  EXPECT_THAT(all(context_, 0xFFFFFFFFu, false), ::testing::Each(kGpaStatusErrorIndexOutOfRange));
  EXPECT_THAT(all(context_, 0, true), ::testing::Each(kGpaStatusErrorNullPointer));
  EXPECT_THAT(all(nullptr, 0, false), ::testing::Each(kGpaStatusErrorNullPointer));
  EXPECT_THAT(all(closed_, 0, false), ::testing::Each(kGpaStatusErrorContextNotOpen));
  EXPECT_EQ(sample_type, kGpaCounterSampleTypeDiscrete);
}

// ---- GpaCounterLibGetCounterIndex, GpaCounterLibGetCounterInfo ----

TEST_F(CounterLibraryV4StatusTest, GetCounterIndexRefusesNullsUnknownNamesAndHardwareCountersNotExposed) {
  GpaUInt32 index = 0;
  GpaCounterParam param{};
  param.is_derived_counter = true;
  param.derived_counter_name = nullptr;
  EXPECT_EQ(lib_.GpaCounterLibGetCounterIndex(context_, &param, &index), kGpaStatusErrorNullPointer);
  EXPECT_EQ(lib_.GpaCounterLibGetCounterIndex(context_, nullptr, &index), kGpaStatusErrorNullPointer);
  param.derived_counter_name = "NoSuchCounter";
  EXPECT_EQ(lib_.GpaCounterLibGetCounterIndex(context_, &param, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(lib_.GpaCounterLibGetCounterIndex(context_, &param, &index), kGpaStatusErrorCounterNotFound);
  EXPECT_EQ(lib_.GpaCounterLibGetCounterIndex(closed_, &param, &index), kGpaStatusErrorContextNotOpen);
  // Hardware counter 0 exists but this context was opened without kGpaOpenContextEnableHardwareCountersBit.
  const GpaCounterInfo* info = nullptr;
  ASSERT_EQ(lib_.GpaCounterLibGetCounterInfo(context_, IndexOf(context_, "GPUTime"), &info), kGpaStatusOk);
  param.is_derived_counter = false;
  param.gpa_hw_counter = info->gpa_derived_counter->gpa_hw_counters[0];
  EXPECT_EQ(lib_.GpaCounterLibGetCounterIndex(context_, &param, &index), kGpaStatusErrorCounterNotFound);
  param.gpa_hw_counter.is_timing_block = false;
  param.gpa_hw_counter.gpa_hw_block = kGpaHwBlockSq;  // an AMD block: no hardware counter here
  EXPECT_EQ(lib_.GpaCounterLibGetCounterIndex(context_, &param, &index), kGpaStatusErrorCounterNotFound);
}

TEST_F(CounterLibraryV4StatusTest, GetCounterInfoRefusesAnIndexPastTheLastWithAmdsFailedAndNullOutputs) {
  const GpaCounterInfo* info = nullptr;
  EXPECT_EQ(lib_.GpaCounterLibGetCounterInfo(context_, count_, &info), kGpaStatusErrorFailed);
  EXPECT_EQ(lib_.GpaCounterLibGetCounterInfo(context_, 0, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(lib_.GpaCounterLibGetCounterInfo(closed_, 0, &info), kGpaStatusErrorContextNotOpen);
  EXPECT_EQ(info, nullptr);
}

// ---- GpaCounterLibComputeDerivedCounterResult ----

TEST_F(CounterLibraryV4StatusTest, ComputeDerivedCounterResultRefusesNoValuesNullsBadIndicesAndWrongCounts) {
  const GpaUInt32 gpu_time = IndexOf(context_, "GPUTime");
  const GpaUInt64 values[2] = {100, 350};
  double result = 0;
  EXPECT_EQ(lib_.GpaCounterLibComputeDerivedCounterResult(context_, gpu_time, values, 0, &result),
            kGpaStatusErrorInvalidParameter);
  EXPECT_EQ(lib_.GpaCounterLibComputeDerivedCounterResult(context_, gpu_time, nullptr, 2, &result),
            kGpaStatusErrorNullPointer);
  EXPECT_EQ(lib_.GpaCounterLibComputeDerivedCounterResult(context_, gpu_time, values, 2, nullptr),
            kGpaStatusErrorNullPointer);
  EXPECT_EQ(lib_.GpaCounterLibComputeDerivedCounterResult(context_, count_, values, 2, &result), kGpaStatusErrorFailed);
  EXPECT_EQ(lib_.GpaCounterLibComputeDerivedCounterResult(context_, gpu_time, values, 1, &result),
            kGpaStatusErrorFailed);
  EXPECT_EQ(lib_.GpaCounterLibComputeDerivedCounterResult(closed_, gpu_time, values, 2, &result),
            kGpaStatusErrorContextNotOpen);
}

// ---- GpaCounterLibGetPassCount, GpaCounterLibGetCountersByPass ----

TEST_F(CounterLibraryV4StatusTest, PassQueriesRefuseNullIndicesEmptySetsAndIndicesPastTheLast) {
  const GpaUInt32 first[1] = {0};
  const GpaUInt32 past[1] = {count_};
  GpaUInt32 passes = 0;
  EXPECT_EQ(lib_.GpaCounterLibGetPassCount(context_, first, 1, &passes), kGpaStatusOk);
  EXPECT_EQ(passes, 1u);
  EXPECT_EQ(lib_.GpaCounterLibGetPassCount(context_, nullptr, 1, &passes), kGpaStatusErrorNullPointer);
  EXPECT_EQ(lib_.GpaCounterLibGetPassCount(context_, first, 0, &passes), kGpaStatusErrorInvalidParameter);
  EXPECT_EQ(lib_.GpaCounterLibGetPassCount(context_, past, 1, &passes), kGpaStatusErrorIndexOutOfRange);
  EXPECT_EQ(lib_.GpaCounterLibGetPassCount(context_, first, 1, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(lib_.GpaCounterLibGetPassCount(closed_, first, 1, &passes), kGpaStatusErrorContextNotOpen);
  GpaUInt32 pass_count = 0;
  EXPECT_EQ(lib_.GpaCounterLibGetCountersByPass(context_, 1, first, nullptr, nullptr, nullptr),
            kGpaStatusErrorNullPointer);
  EXPECT_EQ(lib_.GpaCounterLibGetCountersByPass(context_, 0, first, &pass_count, nullptr, nullptr),
            kGpaStatusErrorInvalidParameter);
  EXPECT_EQ(lib_.GpaCounterLibGetCountersByPass(context_, 1, past, &pass_count, nullptr, nullptr),
            kGpaStatusErrorIndexOutOfRange);
  EXPECT_EQ(lib_.GpaCounterLibGetCountersByPass(context_, 1, first, &pass_count, nullptr, nullptr), kGpaStatusOk);
  EXPECT_EQ(pass_count, 1u);
}

// ---- GpaCounterLibGetSupportedSampleTypes ----

TEST_F(CounterLibraryV4StatusTest, GetSupportedSampleTypesRefusesApisOutsideItsRangeNullsAndUnknownDriverTypes) {
  GpaSupportedSampleTypeInfo info{};
  info.vendor_id = 0x10DE;
  info.device_id = 0x2330;
  GpaContextSampleTypeFlags types = 0;
  EXPECT_EQ(lib_.GpaCounterLibGetSupportedSampleTypes(kGpaApiOpengl, &info, &types), kGpaStatusOk);
  EXPECT_EQ(types, static_cast<GpaContextSampleTypeFlags>(kGpaContextSampleTypeDiscreteCounter));
  for (int api : {static_cast<int>(kGpaApiNoSupport), static_cast<int>(kGpaApiLast), -1, 99}) {
    EXPECT_EQ(lib_.GpaCounterLibGetSupportedSampleTypes(static_cast<GpaApiType>(api), &info, &types),
              kGpaStatusErrorApiNotSupported)
        << api;
  }
  EXPECT_EQ(lib_.GpaCounterLibGetSupportedSampleTypes(kGpaApiDirectx12, &info, &types), kGpaStatusErrorApiNotSupported);
  EXPECT_EQ(lib_.GpaCounterLibGetSupportedSampleTypes(kGpaApiOpengl, nullptr, &types), kGpaStatusErrorNullPointer);
  EXPECT_EQ(lib_.GpaCounterLibGetSupportedSampleTypes(kGpaApiOpengl, &info, nullptr), kGpaStatusErrorNullPointer);
  info.driver_info.driver_type = static_cast<GpaDriverType>(2);
  EXPECT_EQ(lib_.GpaCounterLibGetSupportedSampleTypes(kGpaApiOpengl, &info, &types), kGpaStatusErrorInvalidParameter);
  info.driver_info.driver_type = kAmdProprietaryDriver;  // accepted: it only gates AMD's own sample types
  EXPECT_EQ(lib_.GpaCounterLibGetSupportedSampleTypes(kGpaApiOpengl, &info, &types), kGpaStatusOk);
  info.vendor_id = 0x1002;
  const GpaStatus cuda = lib_.GpaCounterLibGetSupportedSampleTypes(kGpaApiCuda, &info, &types);
  EXPECT_TRUE(cuda == kGpaStatusErrorHardwareNotSupported || cuda == kGpaStatusErrorApiNotSupported) << cuda;
  EXPECT_THAT(Errors(), HasSubstr("GpaCounterLibGetSupportedSampleTypes"));
}

// ---- GpaCounterlibComputeDerivedSpmCounterResults ----

class SpmStatusTest : public CounterLibraryV4StatusTest {
 protected:
  void SetUp() override {
    CounterLibraryV4StatusTest::SetUp();
    hardware_ = Open(kGpaApiOpengl, Device(0x10DE, 0x2330), kGpaOpenContextEnableHardwareCountersBit);
    ASSERT_NE(hardware_, nullptr);
    counter_ = IndexOf(hardware_, "GPUTime");
    for (const HardwareInput& input : InputsOf(hardware_, counter_)) series_.Column(input.h, {10, 20, 30});
    data_ = series_.Data();
    ClearErrors();
  }
  GpaStatus Compute(GpaCounterContext context, const GpaSpmData* data, GpaUInt64 count = 1) {
    return lib_.GpaCounterlibComputeDerivedSpmCounterResults(context, data, count, &counter_, results_.data());
  }

  GpaCounterContext hardware_ = nullptr;
  GpaUInt32 counter_ = 0;
  SpmSeriesBuilder series_{3};
  GpaSpmData data_{};
  std::array<double, 3> results_{};
};

TEST_F(SpmStatusTest, ComputeDerivedSpmCounterResultsRefusesEachNullPointer) {
  ASSERT_EQ(Compute(hardware_, &data_), kGpaStatusOk) << Errors();
  EXPECT_EQ(Compute(nullptr, &data_), kGpaStatusErrorNullPointer);
  EXPECT_EQ(Compute(hardware_, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(lib_.GpaCounterlibComputeDerivedSpmCounterResults(hardware_, &data_, 1, nullptr, results_.data()),
            kGpaStatusErrorNullPointer);
  EXPECT_EQ(lib_.GpaCounterlibComputeDerivedSpmCounterResults(hardware_, &data_, 1, &counter_, nullptr),
            kGpaStatusErrorNullPointer);
  for (int field = 0; field < 3; ++field) {
    GpaSpmData broken = data_;
    if (field == 0) broken.timestamps = nullptr;
    if (field == 1) broken.spm_counter_info = nullptr;
    if (field == 2) broken.counter_data_16bit = nullptr;
    EXPECT_EQ(Compute(hardware_, &broken), kGpaStatusErrorNullPointer) << field;
  }
}

TEST_F(SpmStatusTest, ComputeDerivedSpmCounterResultsRefusesZeroCountsSizesThatDisagreeAndUnknownWidths) {
  EXPECT_EQ(Compute(hardware_, &data_, 0), kGpaStatusErrorInvalidParameter);
  for (int field = 0; field < 6; ++field) {
    GpaSpmData broken = data_;
    if (field == 0) broken.number_of_timestamps = 0;
    if (field == 1) broken.number_of_spm_counter_info = 0;
    if (field == 2) broken.number_of_counter_data = 0;
    if (field == 3) ++broken.number_of_timestamps;
    if (field == 4) ++broken.number_of_counter_data;
    if (field == 5) --broken.number_of_spm_counter_info;
    EXPECT_EQ(Compute(hardware_, &broken), kGpaStatusErrorInvalidParameter) << field;
  }
  for (GpaUInt32 width : {0u, 1u, 3u, 5u, 6u, 7u, 16u}) {
    GpaSpmData broken = data_;
    broken.number_of_bytes_per_counter_data = width;
    EXPECT_EQ(Compute(hardware_, &broken), kGpaStatusErrorInvalidParameter) << width;
  }
}

TEST_F(SpmStatusTest, ComputeDerivedSpmCounterResultsRefusesOffsetsEventsAndCountersItCannotPlace) {
  series_.infos[0].data_offset = 1;  // not a multiple of the 3 timestamps
  GpaSpmData data = series_.Data();
  EXPECT_EQ(Compute(hardware_, &data), kGpaStatusErrorInvalidParameter);
  series_.infos[0].data_offset = 0;
  series_.infos[0].event_index = 100000;  // no such hardware counter
  data = series_.Data();
  EXPECT_EQ(Compute(hardware_, &data), kGpaStatusErrorInvalidParameter);
  EXPECT_THAT(Errors(), HasSubstr("names no hardware counter"));
  // Every column names the same hardware counter: the counter's other input is missing, not taken as 0.
  series_.infos[0].event_index = series_.infos[1].event_index;
  data = series_.Data();
  ClearErrors();
  EXPECT_EQ(Compute(hardware_, &data), kGpaStatusErrorInvalidParameter);
  EXPECT_THAT(Errors(), HasSubstr("which no GpaSpmCounterInfo names"));
  GpaUInt32 past = 0;
  ASSERT_EQ(lib_.GpaCounterLibGetNumCounters(hardware_, &past), kGpaStatusOk);
  EXPECT_EQ(lib_.GpaCounterlibComputeDerivedSpmCounterResults(hardware_, &data_, 1, &past, results_.data()),
            kGpaStatusErrorCounterNotFound);
  EXPECT_EQ(Compute(closed_, &data_), kGpaStatusErrorContextNotOpen);
}

}  // namespace
}  // namespace opengpa::testing
