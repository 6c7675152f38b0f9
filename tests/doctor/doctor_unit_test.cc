// The doctor's pieces without a driver: tolerances, how failed checks and GPA failures become causes with fixes, how
// a probe that did not report becomes a verdict, running a probe process, and the exit code.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "doctor_probe_run.h"
#include "doctor_report.h"
#include "gpa_failure_causes.h"
#include "probe_report.h"

namespace opengpa {
namespace {

using cli::BackendFromProbeRun;
using cli::DoctorExitCode;
using cli::ProbeRun;
using cli::RunProbeProcess;
using doctor::Check;
using doctor::ProbeReport;
using doctor::Tolerance;

bool HasCause(const ProbeReport& report, const std::string& id) {
  for (const auto& cause : report.Causes()) {
    if (cause.id == id) return true;
  }
  return false;
}

TEST(DoctorTolerance, ExactRelativeAndBoundedTimesHoldOnlyWhereTheySay) {
  EXPECT_TRUE(Tolerance::Exact().Holds(8192, 8192));
  EXPECT_FALSE(Tolerance::Exact().Holds(8191, 8192));
  EXPECT_TRUE(Tolerance::Relative(0.02).Holds(101.9, 100));
  EXPECT_FALSE(Tolerance::Relative(0.02).Holds(102.1, 100));
  EXPECT_TRUE(Tolerance::PositiveAtMost().Holds(5, 10));
  EXPECT_FALSE(Tolerance::PositiveAtMost().Holds(0, 10));
  EXPECT_FALSE(Tolerance::PositiveAtMost().Holds(11, 10));
  EXPECT_TRUE(Tolerance::AtLeast().Holds(10, 10));
  EXPECT_FALSE(Tolerance::AtLeast().Holds(9, 10));
  EXPECT_FALSE(Tolerance::Exact().Holds(std::nan(""), 0));
  EXPECT_FALSE(Tolerance::AtLeast().Holds(std::numeric_limits<double>::infinity(), 10));
  EXPECT_EQ(Tolerance::Relative(0.02).Text(), "within 2%");
}

TEST(DoctorProbeReport, CountersThatAllReadZeroWhileTheWorkloadRanAreOneCauseWithTheGivenFix) {
  ProbeReport report("vk");
  report.Compare({"dispatch", "", "items", 64, 64, Tolerance::Exact(), "the shader's count"});
  report.Compare({"dispatch", "CSThreads", "items", 0, 64, Tolerance::Exact(), "groups x size"});
  report.Compare({"dispatch", "GPUTime", "nanoseconds", 0, 1e6, Tolerance::PositiveAtMost(), "wall"});
  report.ExplainFailedChecks("the queries were dropped");
  ASSERT_EQ(report.Causes().size(), 1u);
  EXPECT_EQ(report.Causes()[0].id, "counters_read_zero");
  EXPECT_NE(report.Causes()[0].message.find("CSThreads, GPUTime"), std::string::npos);
  EXPECT_EQ(report.Causes()[0].fix, "the queries were dropped");
  EXPECT_EQ(report.Status(), "fail");
}

TEST(DoctorProbeReport, AWrongOrNonFiniteValueIsNamedWithItsTruthAndTolerance) {
  ProbeReport report("gl");
  report.Compare({"draw", "VSVerticesIn", "items", 299, 300, Tolerance::Exact(), "3 per triangle"});
  report.Compare({"draw", "PSPixelsIn", "items", std::nan(""), 2048, Tolerance::Exact(), "pixels"});
  report.Compare({"draw", "GPUTime", "nanoseconds", 10, 100, Tolerance::PositiveAtMost(), "wall"});
  report.ExplainFailedChecks("unused");
  ASSERT_EQ(report.Causes().size(), 2u);
  EXPECT_EQ(report.Causes()[0].id, "counter_differs_from_truth");
  EXPECT_NE(report.Causes()[0].message.find("VSVerticesIn of draw read 299, truth 300"), std::string::npos);
  EXPECT_EQ(report.Causes()[1].id, "counter_not_finite");
  const auto json = report.ToJson(1.0);
  EXPECT_TRUE(json["checks"][1]["measured"].is_null());
  EXPECT_EQ(json["status"], "fail");
}

TEST(DoctorProbeReport, ACauseAfterChecksThatHeldFailsTheBackendRatherThanMakingItUnusable) {
  ProbeReport report("monitor");
  report.Compare({"allocation", "memory_used_bytes", "bytes", 268435456, 268435456, Tolerance::Relative(0.02), "size"});
  report.AddCause({"profiling_not_permitted", "PM sampling refused", "the driver option"});
  EXPECT_EQ(report.Status(), "fail");
  EXPECT_EQ(report.ToJson(1.0)["checks"][0]["unit"], "bytes");
}

TEST(DoctorProbeReport, ACauseWithoutChecksMakesTheBackendUnusableAndAbsentWinsOverNothing) {
  ProbeReport unusable("cl");
  unusable.AddCause({"context_not_opened", "m", "f"});
  EXPECT_EQ(unusable.Status(), "unusable");
  ProbeReport absent("cuda");
  absent.MarkAbsent("no NVIDIA driver");
  EXPECT_EQ(absent.Status(), "absent");
  EXPECT_EQ(absent.ToJson(0)["reason"], "no NVIDIA driver");
}

TEST(DoctorCauses, CuptiRefusingAnUnprivilegedUserNamesTheDriverOptionAndTheCapability) {
  // The words libGPUPerfAPICUDA.so logs (src/nvidia/cupti_status.cc, CuptiFailure).
  const auto cause = doctor::ExplainGpaFailure(
      "GpaOpenContext", "GPA Error: Hardware Not Supported. (-20)",
      {"cuptiProfilerInitialize failed: CUPTI_ERROR_INSUFFICIENT_PRIVILEGES; profiling needs administrator rights"});
  EXPECT_EQ(cause.id, "profiling_not_permitted");
  for (const char* word : {"NVreg_RestrictProfilingToAdminUsers=0", "modprobe", "CAP_SYS_ADMIN", "ERR_NVGPUCTRPERM"}) {
    EXPECT_NE(cause.fix.find(word), std::string::npos) << word;
  }
  EXPECT_NE(cause.message.find("CUPTI_ERROR_INSUFFICIENT_PRIVILEGES"), std::string::npos);
}

TEST(DoctorCauses, AMissingCuptiIsNamedWhenTheCudaLibraryLoadsWithoutIt) {
  // libGPUPerfAPICUDA.so loads without CUPTI (issue 30) and its context's open says so (src/nvidia/cupti_loader.cc).
  const auto cause = doctor::ExplainGpaFailure(
      "GpaOpenContext", "GPA Error: Library Load Failed. (-28)",
      {"CUPTI (libcupti.so.13, part of the CUDA toolkit) could not be loaded, so NVIDIA's CUDA counters are "
       "unavailable; ... (libcupti.so.13: cannot open shared object file)"});
  EXPECT_EQ(cause.id, "cupti_not_found");
  EXPECT_NE(cause.fix.find("LD_LIBRARY_PATH"), std::string::npos) << cause.fix;
}

TEST(DoctorCauses, OtherRefusalsAreToldApartByGpasLog) {
  EXPECT_EQ(doctor::ExplainGpaFailure("GpaOpenContext", "s", {"x: CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED"}).id,
            "hardware_not_supported");
  EXPECT_EQ(doctor::ExplainGpaFailure("GpaBeginSession", "s", {"CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED"}).id,
            "counters_in_use");
  const auto unknown = doctor::ExplainGpaFailure("GpaOpenContext", "GPA Error: Failed. (-23)", {});
  EXPECT_EQ(unknown.id, "context_not_opened");
  EXPECT_NE(unknown.message.find("GPA logged nothing"), std::string::npos);
  EXPECT_EQ(doctor::ExplainGpaFailure("GpaEndSession", "s", {"y"}).id, "gpa_call_failed");
}

TEST(DoctorCauses, ALibraryThatDoesNotLoadNamesThePathsTriedAndAMissingCupti) {
  const auto cupti = doctor::ExplainLibraryNotLoaded(
      "libGPUPerfAPICUDA.so", {"/opt/lib/libGPUPerfAPICUDA.so"},
      "\n  /opt/lib/libGPUPerfAPICUDA.so: libcupti.so.13: cannot open shared object file", false);
  EXPECT_EQ(cupti.id, "cupti_not_found");
  EXPECT_NE(cupti.fix.find("LD_LIBRARY_PATH"), std::string::npos);
  const auto missing = doctor::ExplainLibraryNotLoaded("libGPUPerfAPIVK.so", {"/x/libGPUPerfAPIVK.so"},
                                                       "\n  /x/libGPUPerfAPIVK.so: No such file", true);
  EXPECT_EQ(missing.id, "gpa_library_not_found");
  EXPECT_NE(missing.message.find("/x/libGPUPerfAPIVK.so"), std::string::npos);
  EXPECT_NE(missing.fix.find("OPENGPA_LIBRARY_DIR"), std::string::npos);
}

TEST(DoctorProbeRun, AProbeMissingItsLoaderLibraryMeansTheApiIsAbsent) {
  ProbeRun run;
  run.started = true;
  run.exit_code = 127;
  run.err =
      "opengpa-doctor-vk: error while loading shared libraries: libvulkan.so.1: cannot open shared object "
      "file: No such file or directory\n";
  const auto entry = BackendFromProbeRun("vk", "/p/opengpa-doctor-vk", run);
  EXPECT_EQ(entry["status"], "absent");
  EXPECT_NE(entry["reason"].get<std::string>().find("libvulkan.so.1 (the Vulkan loader)"), std::string::npos);
}

TEST(DoctorProbeRun, ACrashAHangAndUnreadableOutputMakeTheApiUnusableWithTheProbesLastWords) {
  ProbeRun crashed;
  crashed.started = true;
  crashed.signal = 11;
  crashed.err = "driver: bad thing\n";
  auto entry = BackendFromProbeRun("gl", "/p/opengpa-doctor-gl", crashed);
  EXPECT_EQ(entry["status"], "unusable");
  EXPECT_EQ(entry["causes"][0]["id"], "probe_crashed");
  EXPECT_NE(entry["causes"][0]["message"].get<std::string>().find("driver: bad thing"), std::string::npos);
  ProbeRun hung;
  hung.started = true;
  hung.timed_out = true;
  EXPECT_EQ(BackendFromProbeRun("cl", "/p", hung)["causes"][0]["id"], "probe_timed_out");
  ProbeRun garbage;
  garbage.started = true;
  garbage.exit_code = 0;
  garbage.out = "not json\n";
  EXPECT_EQ(BackendFromProbeRun("cl", "/p", garbage)["causes"][0]["id"], "probe_output_unreadable");
  ProbeRun reported;
  reported.started = true;
  reported.exit_code = 0;
  reported.out = R"({"api":"cl","status":"pass","checks":[],"causes":[]})"
                 "\n";
  EXPECT_EQ(BackendFromProbeRun("cl", "/p", reported)["status"], "pass");
}

TEST(DoctorProbeRun, RunsAProcessKeepingItsOutputsExitCodeAndKillsItAtTheTimeLimit) {
  const ProbeRun run = RunProbeProcess({"/bin/sh", "-c", "echo out; echo err >&2; exit 3"}, 30);
  EXPECT_TRUE(run.started);
  EXPECT_EQ(run.out, "out\n");
  EXPECT_EQ(run.err, "err\n");
  EXPECT_EQ(run.exit_code, 3);
  const ProbeRun slow = RunProbeProcess({"/bin/sh", "-c", "sleep 30"}, 0.3);
  EXPECT_TRUE(slow.timed_out);
  EXPECT_LT(slow.seconds, 10);
  EXPECT_FALSE(RunProbeProcess({"/nonexistent/probe"}, 5).started);
}

TEST(DoctorExitCode, UnusableBeatsFailedBeatsPassedAndNothingPresentIsItsOwnCode) {
  auto backends = [](std::initializer_list<const char*> statuses) {
    nlohmann::json list = nlohmann::json::array();
    for (const char* status : statuses) list.push_back({{"status", status}});
    return list;
  };
  EXPECT_EQ(DoctorExitCode(backends({"absent", "pass"})), 0);
  EXPECT_EQ(DoctorExitCode(backends({"fail", "pass"})), 3);
  EXPECT_EQ(DoctorExitCode(backends({"fail", "unusable"})), 4);
  EXPECT_EQ(DoctorExitCode(backends({"absent", "absent"})), 5);
}

}  // namespace
}  // namespace opengpa
