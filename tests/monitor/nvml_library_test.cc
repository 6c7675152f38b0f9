// NVML's absence and breakage must give a clean status and a message saying what is wrong, never a
// crash: CI has no NVIDIA driver, and fake libraries built next to this test supply the broken cases.
#include "nvidia/nvml_library.h"
#include "monitor/nvml_counter_source.h"

#include <gtest/gtest.h>

#include <cstdlib>

#include "log_capture.h"

namespace opengpa::monitor {
namespace {

using testing::LogCapture;

TEST(NvmlLibrary, ReportsLibLoadFailedNamingTheLibraryWhenNvmlIsAbsent) {
  LogCapture log;
  std::unique_ptr<nvidia::nvml::Library> library;
  EXPECT_EQ(nvidia::nvml::Library::Load({"libopengpa-test-absent-nvml.so.1"}, &library), kGpaStatusErrorLibLoadFailed);
  EXPECT_EQ(library, nullptr);
  EXPECT_NE(log.Text().find("cannot load libopengpa-test-absent-nvml.so.1"), std::string::npos) << log.Text();
}

TEST(NvmlLibrary, ReportsAMissingRequiredFunctionByName) {
  LogCapture log;
  std::unique_ptr<nvidia::nvml::Library> library;
  EXPECT_EQ(nvidia::nvml::Library::Load({OPENGPA_FAKE_NVML_OMIT_UUID}, &library), kGpaStatusErrorDriverNotSupported);
  EXPECT_EQ(library, nullptr);
  EXPECT_NE(log.Text().find("does not export nvmlDeviceGetUUID"), std::string::npos) << log.Text();
}

TEST(NvmlLibrary, ReportsAFailingInitWithNvmlsOwnErrorText) {
  LogCapture log;
  std::unique_ptr<nvidia::nvml::Library> library;
  EXPECT_EQ(nvidia::nvml::Library::Load({OPENGPA_FAKE_NVML_INIT_FAILS}, &library), kGpaStatusErrorDriverNotSupported);
  EXPECT_NE(log.Text().find("nvmlInit_v2"), std::string::npos) << log.Text();
  EXPECT_NE(log.Text().find("Fake Driver Not Loaded (9)"), std::string::npos) << log.Text();
}

TEST(NvmlLibrary, TakesTheEnvironmentVariableBeforeTheDefaultSoname) {
  setenv("OPENGPA_NVML_LIBRARY", "/opt/custom/libnvidia-ml.so.1", 1);
  const std::vector<std::string> candidates = nvidia::nvml::DefaultLibraryCandidates();
  unsetenv("OPENGPA_NVML_LIBRARY");
  ASSERT_EQ(candidates.size(), 2u);
  EXPECT_EQ(candidates[0], "/opt/custom/libnvidia-ml.so.1");
  EXPECT_EQ(candidates[1], "libnvidia-ml.so.1");
}

TEST(NvmlCounterSource, ReportsACounterWhoseFunctionTheLibraryLacks) {
  LogCapture log;
  NvmlSourceOptions options;
  options.counter_names = {"power_watts"};
  options.library_candidates = {OPENGPA_FAKE_NVML_OMIT_POWER};
  std::unique_ptr<NvmlCounterSource> source;
  EXPECT_EQ(NvmlCounterSource::Create(options, &source), kGpaStatusErrorDriverNotSupported);
  EXPECT_EQ(source, nullptr);
  EXPECT_NE(log.Text().find("does not export nvmlDeviceGetPowerUsage, needed by counter 'power_watts'"),
            std::string::npos)
      << log.Text();
}

TEST(NvmlCounterSource, ReportsACounterTheDeviceDoesNotSupport) {
  // The fake answers NVML_ERROR_NOT_SUPPORTED for power, as a GPU without a power sensor would.
  LogCapture log;
  NvmlSourceOptions options;
  options.counter_names = {"power_watts"};
  options.library_candidates = {OPENGPA_FAKE_NVML_INIT_OK};
  std::unique_ptr<NvmlCounterSource> source;
  EXPECT_EQ(NvmlCounterSource::Create(options, &source), kGpaStatusErrorHardwareNotSupported);
  EXPECT_NE(log.Text().find("counter 'power_watts' on GPU 0"), std::string::npos) << log.Text();
}

TEST(NvmlCounterSource, LeavesOutUnsupportedCountersWhenNoneWereNamedAndFailsIfNothingRemains) {
  // The fake supports no counter at all (and exports few functions): nothing to monitor.
  LogCapture log;
  NvmlSourceOptions options;
  options.library_candidates = {OPENGPA_FAKE_NVML_INIT_OK};
  std::unique_ptr<NvmlCounterSource> source;
  EXPECT_EQ(NvmlCounterSource::Create(options, &source), kGpaStatusErrorHardwareNotSupported);
  EXPECT_NE(log.Text().find("leaving out 'gpu_utilization_percent'"), std::string::npos) << log.Text();
  EXPECT_NE(log.Text().find("leaving out 'power_watts': GPU 0 does not support it"), std::string::npos) << log.Text();
  EXPECT_NE(log.Text().find("no requested counter is supported"), std::string::npos) << log.Text();
}

TEST(NvmlCounterSource, RejectsADeviceIndexBeyondWhatNvmlReports) {
  LogCapture log;
  NvmlSourceOptions options;
  options.device_indices = {7};
  options.library_candidates = {OPENGPA_FAKE_NVML_INIT_OK};
  std::unique_ptr<NvmlCounterSource> source;
  EXPECT_EQ(NvmlCounterSource::Create(options, &source), kGpaStatusErrorIndexOutOfRange);
  EXPECT_NE(log.Text().find("device index 7 >= the 1 GPU(s)"), std::string::npos) << log.Text();
}

TEST(NvmlCounterSource, RejectsAnUnknownCounterNameEvenWithoutNvml) {
  LogCapture log;
  NvmlSourceOptions options;
  options.counter_names = {"gpu_temperature"};
  options.library_candidates = {"libopengpa-test-absent-nvml.so.1"};
  std::unique_ptr<NvmlCounterSource> source;
  EXPECT_EQ(NvmlCounterSource::Create(options, &source), kGpaStatusErrorCounterNotFound);
  EXPECT_NE(log.Text().find("unknown counter 'gpu_temperature'"), std::string::npos) << log.Text();
}

TEST(NvmlCounterCatalog, NamesEveryCounterWithAUnitAndADescription) {
  const auto& catalog = NvmlCounterCatalog();
  ASSERT_EQ(catalog.size(), 12u);
  for (const CounterDescriptor& counter : catalog) {
    EXPECT_FALSE(counter.description.empty()) << counter.name;
    EXPECT_FALSE(counter.unit.empty()) << counter.name;
    EXPECT_TRUE(IsNvmlCounterName(counter.name));
  }
  EXPECT_FALSE(IsNvmlCounterName("sm__cycles_active.avg"));
}

}  // namespace
}  // namespace opengpa::monitor
