// GPA 4's streaming counters (GpaSpm*) on OpenGL (an EGL context) on an NVIDIA GPU: the GPU periodic sampler closes
// an interval every 100 us of GPU time while compute dispatches run, and the series must hold every thread and
// thread group they launched (the truth: the groups dispatched). OpenGL's own names (CSThreads, CSThreadGroups) are
// its pipeline statistics, queries that cannot stream, so the sampler's counters are enabled by their names (with
// kGpaOpenContextEnableHardwareCountersBit). Prints PASS/FAIL lines; exit 0 when all pass. Run by
// tests/device/graphics/run.sh; built with GPA 4's headers (include/v4), loading libGPUPerfAPIGL.so.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "gl_workloads.h"
#include "gpu_performance_api/gpu_perf_api.h"
#include "gpu_performance_api/gpu_perf_api_interface_loader.h"
#include "headless_gl.h"

GpaApiManager* GpaApiManager::gpa_api_manager_ = nullptr;
GpaFuncTableInfo* gpa_function_table_info = nullptr;

namespace {

constexpr GpaUInt32 kIntervalNs = 100000;
constexpr int kGroupsX = 256, kGroupsY = 64;  // of 8 x 4 threads
constexpr int kDispatches = 40;               // each finished, 1 ms apart
constexpr const char* kThreads = "sm__threads_launched_shader_cs.sum";
constexpr const char* kGroups = "gr__ctas_launched.sum";

int failures = 0;

void Check(bool ok, const std::string& what, const std::string& detail) {
  std::printf("%s  %s: %s\n", ok ? "PASS" : "FAIL", what.c_str(), detail.c_str());
  if (!ok) ++failures;
}

void LogGpa(GpaLoggingType, const char* message) { std::printf("  GPA: %s\n", message); }

double AsDouble(GpaUInt64 bits) {
  double value = 0;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

}  // namespace

int main() {
  std::string error;
  std::unique_ptr<opengpa::glwork::HeadlessGl> gl = opengpa::glwork::HeadlessGl::Create(256, 256, &error);
  if (gl == nullptr || !gl->MakeCurrent()) {
    std::printf("FAIL  EGL context: %s\n", error.c_str());
    return 1;
  }
  std::printf("renderer: %s\n", gl->renderer().c_str());
  opengpa::glwork::GlWorkloads workloads;
  if (!workloads.Build(&error)) {
    std::printf("FAIL  GL programs: %s\n", error.c_str());
    return 1;
  }
  if (GpaApiManager::Instance()->LoadApi(kGpaApiOpengl, OPENGPA_GL_LIBRARY) != kGpaStatusOk) {
    std::printf("FAIL  loading %s: %s\n", OPENGPA_GL_LIBRARY, GpaApiManager::Instance()->GetLastError().c_str());
    return 1;
  }
  const GpaFunctionTable& gpa = *GpaApiManager::Instance()->GetFunctionTable(kGpaApiOpengl);
  gpa.GpaRegisterLoggingCallback(kGpaLoggingErrorAndMessage, &LogGpa);
  if (gpa.GpaInitialize(kGpaInitializeDefaultBit) != kGpaStatusOk) return 1;
  GpaContextId context = nullptr;
  if (GpaStatus s = gpa.GpaOpenContext(gl->context(), kGpaOpenContextEnableHardwareCountersBit, &context);
      s != kGpaStatusOk) {
    std::printf("FAIL  GpaOpenContext: %d\n", s);
    return 1;
  }
  GpaContextSampleTypeFlags types = 0;
  gpa.GpaGetSupportedSampleTypes(context, &types);
  Check((types & kGpaContextSampleTypeStreamingCounter) != 0, "the context offers streaming",
        "sample types " + std::to_string(types));

  GpaSessionId refused = nullptr;
  if (gpa.GpaCreateSession(context, kGpaSessionSampleTypeStreamingCounter, &refused) == kGpaStatusOk) {
    const GpaStatus s = gpa.GpaEnableCounterByName(refused, "CSThreads");  // GL's statistic: a query
    Check(s == kGpaStatusErrorIncompatibleSampleTypes, "GL's CSThreads (a query) is refused in a stream",
          gpa.GpaGetStatusAsStr(s));
    gpa.GpaDeleteSession(refused);
  }

  GpaSessionId session = nullptr;
  GpaStatus s = gpa.GpaCreateSession(context, kGpaSessionSampleTypeStreamingCounter, &session);
  Check(s == kGpaStatusOk, "GpaCreateSession(streaming)", gpa.GpaGetStatusAsStr(s));
  if (s != kGpaStatusOk) return 1;
  for (const char* name : {kThreads, kGroups}) {
    s = gpa.GpaEnableCounterByName(session, name);
    Check(s == kGpaStatusOk, std::string("enable ") + name, gpa.GpaGetStatusAsStr(s));
  }
  gpa.GpaSpmSetSampleInterval(session, kIntervalNs);
  gpa.GpaSpmSetDuration(session, 500000000);
  if (gpa.GpaBeginSession(session) != kGpaStatusOk) return 1;
  s = gpa.GpaSpmBegin(session, nullptr);
  Check(s == kGpaStatusOk, "GpaSpmBegin", gpa.GpaGetStatusAsStr(s));
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < kDispatches; ++i) {
    workloads.Dispatch(kGroupsX, kGroupsY, 1);
    glFinish();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  const double wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  s = gpa.GpaSpmEnd(session, nullptr);
  Check(s == kGpaStatusOk, "GpaSpmEnd", gpa.GpaGetStatusAsStr(s));
  s = gpa.GpaEndSession(session);
  Check(s == kGpaStatusOk, "GpaEndSession", gpa.GpaGetStatusAsStr(s));

  size_t size = 0;
  s = gpa.GpaSpmGetSampleResultSize(session, &size);
  std::vector<GpaUInt64> buffer(size / 8 + 1);
  if (s == kGpaStatusOk) s = gpa.GpaSpmGetSampleResult(session, size, buffer.data());
  Check(s == kGpaStatusOk, "GpaSpmGetSampleResult", gpa.GpaGetStatusAsStr(s));
  if (s != kGpaStatusOk) return 1;
  auto* data = reinterpret_cast<GpaSpmData*>(buffer.data());
  const GpaUInt32 samples = data->number_of_timestamps;
  std::vector<GpaUInt64> derived(2 * static_cast<std::size_t>(samples));
  s = gpa.GpaSpmCalculateDerivedCounters(session, data, 2 * samples, derived.data());
  Check(s == kGpaStatusOk, "GpaSpmCalculateDerivedCounters", gpa.GpaGetStatusAsStr(s));
  double threads = 0, groups = 0;
  GpaUInt32 with_work = 0;
  bool ordered = true;
  for (GpaUInt32 t = 0; t < samples; ++t) {
    threads += AsDouble(derived[t]);
    groups += AsDouble(derived[samples + t]);
    with_work += AsDouble(derived[t]) > 0 ? 1 : 0;
    if (t > 0 && data->timestamps[t] <= data->timestamps[t - 1]) ordered = false;
  }
  const double expected_groups = double{kGroupsX} * kGroupsY * kDispatches;
  const double expected_threads =
      expected_groups * opengpa::glwork::GlWorkloads::kLocalSizeX * opengpa::glwork::GlWorkloads::kLocalSizeY;
  const double span_ms = samples > 1 ? (data->timestamps[samples - 1] - data->timestamps[0]) / 1e6 : 0;
  std::printf("  %u samples over %.1f ms (host: %.1f ms of work), %u with compute threads\n", samples, span_ms, wall_ms,
              with_work);
  Check(threads == expected_threads, "compute threads over the stream = threads dispatched",
        std::to_string(threads) + " of " + std::to_string(expected_threads));
  Check(groups == expected_groups, "thread groups over the stream = groups dispatched",
        std::to_string(groups) + " of " + std::to_string(expected_groups));
  Check(ordered, "timestamps increase", ordered ? "yes" : "no");
  const double expected_samples = span_ms * 1e6 / kIntervalNs;
  Check(samples > 0 && std::fabs(samples - 1 - expected_samples) <= 2 + 0.01 * expected_samples,
        "one sample per interval", std::to_string(samples) + " samples over " + std::to_string(span_ms) + " ms");
  Check(with_work >= kDispatches, "the dispatches are spread over samples", std::to_string(with_work));
  gpa.GpaDeleteSession(session);
  gpa.GpaCloseContext(context);
  gpa.GpaDestroy();
  std::printf("%s: %d failure(s)\n", failures == 0 ? "PASS" : "FAIL", failures);
  return failures == 0 ? 0 : 1;
}
