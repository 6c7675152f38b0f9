// The v4 table on NVIDIA chips through CUPTI's host API (no GPU): which session sample types each chip offers
// (streaming counters through PM sampling from GA10x on, not GA100), contexts for streaming counters, and derived
// results, once and over a streaming time series, against values worked out by hand from catalogs/cuda.json.
#include <gmock/gmock.h>

#include <array>
#include <cstring>
#include <map>
#include <string>

#include "tests/counter_library_v4/counter_library_v4_fixture.h"

namespace opengpa::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

struct Chip {
  const char* name;
  GpaUInt32 device_id;
  bool streams;  // PM sampling (GPU_TIME_INTERVAL triggers) exists from GA10x on
};

class CudaV4Test : public CounterLibraryV4Test, public ::testing::WithParamInterface<Chip> {
 protected:
  GpaCounterContextHardwareInfo Board() const { return Device(0x10DE, GetParam().device_id); }
  bool Streams() const { return GetParam().streams && OPENGPA_TEST_WITH_PM_SAMPLING; }

  // Hardware counter index h of each input of `counter`, by name.
  std::map<std::string, GpaUInt32> InputIndices(GpaCounterContext with_hardware, GpaUInt32 counter) {
    std::map<std::string, GpaUInt32> by_name;
    for (const HardwareInput& input : InputsOf(with_hardware, counter)) by_name[input.name] = input.h;
    return by_name;
  }
};

TEST_P(CudaV4Test, SupportedSampleTypesAreDiscreteAndStreamingWhereTheChipHasPmSampling) {
  GpaSupportedSampleTypeInfo info{};
  info.vendor_id = 0x10DE;
  info.device_id = GetParam().device_id;
  GpaContextSampleTypeFlags types = 0;
  ASSERT_EQ(lib_.GpaCounterLibGetSupportedSampleTypes(kGpaApiCuda, &info, &types), kGpaStatusOk) << Errors();
  const GpaContextSampleTypeFlags expected =
      kGpaContextSampleTypeDiscreteCounter | (Streams() ? kGpaContextSampleTypeStreamingCounter : 0);
  EXPECT_EQ(types, expected);
  EXPECT_EQ(types & kGpaContextSampleTypeSqtt, 0u);  // no SQTT on NVIDIA (docs/gpa4.md)
}

TEST_P(CudaV4Test, AStreamingContextListsTheDiscreteContextsCountersAsStreamingOnesWhereTheChipStreams) {
  GpaCounterContext discrete = Open(kGpaApiCuda, Board());
  ASSERT_NE(discrete, nullptr);
  GpaUInt32 discrete_count = 0;
  ASSERT_EQ(lib_.GpaCounterLibGetNumCounters(discrete, &discrete_count), kGpaStatusOk);
  GpaCounterSampleType type{};
  ASSERT_EQ(lib_.GpaCounterLibGetCounterSampleType(discrete, 0, &type), kGpaStatusOk);
  EXPECT_EQ(type, kGpaCounterSampleTypeDiscrete);

  GpaCounterContext streaming = nullptr;
  const GpaStatus status = lib_.GpaCounterLibOpenCounterContext(kGpaApiCuda, kGpaSessionSampleTypeStreamingCounter,
                                                                Board(), kGpaOpenContextDefaultBit, &streaming);
  if (!Streams()) {
    EXPECT_EQ(status, kGpaStatusErrorIncompatibleSampleTypes);
    EXPECT_THAT(Errors(), HasSubstr("GpaCounterLibGetSupportedSampleTypes"));
    return;
  }
  ASSERT_EQ(status, kGpaStatusOk) << Errors();
  opened_.push_back(streaming);
  GpaUInt32 streaming_count = 0;
  ASSERT_EQ(lib_.GpaCounterLibGetNumCounters(streaming, &streaming_count), kGpaStatusOk);
  EXPECT_EQ(streaming_count, discrete_count);
  ASSERT_EQ(lib_.GpaCounterLibGetCounterSampleType(streaming, streaming_count - 1, &type), kGpaStatusOk);
  EXPECT_EQ(type, kGpaCounterSampleTypeStreaming);
}

TEST_P(CudaV4Test, GpuBusyIsItsFormulaOverTwoCuptiMetrics) {
  GpaCounterContext context = Open(kGpaApiCuda, Board(), kGpaOpenContextEnableHardwareCountersBit);
  ASSERT_NE(context, nullptr);
  // GPUBusy = max(min(gr__cycles_active.avg / gr__cycles_elapsed.avg * 100, 100), 0); .avg metrics are float64
  // hardware counters, which travel as their doubles' bits.
  const GpaUInt32 busy = IndexOf(context, "GPUBusy");
  const auto inputs = InputsOf(context, busy);
  ASSERT_EQ(inputs.size(), 2u);
  GpaUInt64 values[2];
  for (int k = 0; k < 2; ++k) {
    const double value = inputs[k].name == "gr__cycles_active.avg" ? 600.25 : 1000.0;
    std::memcpy(&values[k], &value, sizeof value);
  }
  double result = 0;
  ASSERT_EQ(lib_.GpaCounterLibComputeDerivedCounterResult(context, busy, values, 2, &result), kGpaStatusOk) << Errors();
  EXPECT_DOUBLE_EQ(result, 60.025);
}

TEST_P(CudaV4Test, SpmResultsAreTheCatalogFormulasAtEveryTimestamp) {
  GpaCounterContext context = Open(kGpaApiCuda, Board(), kGpaOpenContextEnableHardwareCountersBit);
  ASSERT_NE(context, nullptr);
  // LocalVidMemBytes = dram__bytes_read.sum + dram__bytes_write.sum; FetchSize = dram__bytes_read.sum / 1024;
  // GPUBusy as above. Columns hold float64s, as OpenGPA's GpaSpmGetSampleResult returns them.
  const GpaUInt32 bytes = IndexOf(context, "LocalVidMemBytes");
  const GpaUInt32 fetch = IndexOf(context, "FetchSize");
  const GpaUInt32 busy = IndexOf(context, "GPUBusy");
  auto dram = InputIndices(context, bytes);
  auto gr = InputIndices(context, busy);
  ASSERT_EQ(dram.count("dram__bytes_read.sum"), 1u);
  ASSERT_EQ(dram.count("dram__bytes_write.sum"), 1u);
  ASSERT_EQ(gr.count("gr__cycles_active.avg"), 1u);
  SpmSeriesBuilder series(4);
  series.Column(dram["dram__bytes_write.sum"], {24, 0, 512, 1e9});
  series.Column(gr["gr__cycles_elapsed.avg"], {1000, 1000, 1000, 2000});
  series.Column(dram["dram__bytes_read.sum"], {1000, 2048, 0, 3e9});
  series.Column(gr["gr__cycles_active.avg"], {500, 1000, 0, 2500});
  const GpaSpmData data = series.Data();
  const std::array<GpaUInt32, 3> counters = {bytes, fetch, busy};
  std::array<double, 12> results{};
  ASSERT_EQ(lib_.GpaCounterlibComputeDerivedSpmCounterResults(context, &data, counters.size(), counters.data(),
                                                              results.data()),
            kGpaStatusOk)
      << Errors();
  EXPECT_THAT(results, ElementsAre(1024.0, 2048.0, 512.0, 4e9,           // LocalVidMemBytes
                                   1000.0 / 1024, 2.0, 0.0, 3e9 / 1024,  // FetchSize (kilobytes)
                                   50.0, 100.0, 0.0, 100.0));            // GPUBusy, clamped at 100
}

TEST_P(CudaV4Test, SpmResultsReadAmdsFourByteIntegersToo) {
  GpaCounterContext context = Open(kGpaApiCuda, Board(), kGpaOpenContextEnableHardwareCountersBit);
  ASSERT_NE(context, nullptr);
  const GpaUInt32 bytes = IndexOf(context, "LocalVidMemBytes");
  auto dram = InputIndices(context, bytes);
  const std::array<GpaUInt64, 2> timestamps = {10, 20};
  const std::array<GpaSpmCounterInfo, 2> infos = {GpaSpmCounterInfo{0, 0, 0, dram["dram__bytes_read.sum"]},
                                                  GpaSpmCounterInfo{0, 0, 2, dram["dram__bytes_write.sum"]}};
  const std::array<GpaUInt32, 4> values = {4000000000u, 7, 294967295u, 1};
  GpaSpmData data{};
  data.number_of_timestamps = 2;
  data.number_of_spm_counter_info = 2;
  data.number_of_counter_data = 4;
  data.number_of_bytes_per_counter_data = 4;
  data.timestamps = timestamps.data();
  data.spm_counter_info = infos.data();
  data.counter_data_16bit = reinterpret_cast<const GpaUInt16*>(values.data());
  std::array<double, 2> results{};
  ASSERT_EQ(lib_.GpaCounterlibComputeDerivedSpmCounterResults(context, &data, 1, &bytes, results.data()), kGpaStatusOk)
      << Errors();
  EXPECT_THAT(results, ElementsAre(4294967295.0, 8.0));
}

INSTANTIATE_TEST_SUITE_P(Chips, CudaV4Test,
                         ::testing::Values(Chip{"GH100", 0x2330, true}, Chip{"AD102", 0x2684, true},
                                           Chip{"GA100", 0x20B5, false}),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace opengpa::testing
