// GPA 4's streaming counters (GpaSpm*) on Vulkan on an NVIDIA GPU: the GPU periodic sampler closes an interval every
// 100 us of GPU time while compute dispatches run, and the series must hold every thread and thread group they
// launched (the truth: the groups dispatched, and the invocations the shader counted itself), in samples that tile
// the span in time order. Also: what cannot be streamed is refused. Prints PASS/FAIL lines; exit 0 when all pass.
// Run by tests/device/graphics/run.sh; built with GPA 4's headers (include/v4), loading libGPUPerfAPIVK.so.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "gpu_objects.h"
#include "gpu_performance_api/gpu_perf_api.h"
#include "gpu_performance_api/gpu_perf_api_interface_loader.h"
#include "gpu_performance_api/gpu_perf_api_vk.h"
#include "vulkan_device.h"

GpaApiManager* GpaApiManager::gpa_api_manager_ = nullptr;
GpaFuncTableInfo* gpa_function_table_info = nullptr;

namespace {

using opengpa::vkwork::CountingCompute;
using opengpa::vkwork::DevicePreference;
using opengpa::vkwork::VulkanDevice;

constexpr GpaUInt32 kIntervalNs = 100000;
constexpr std::uint32_t kGroups = 1024;      // of 64 threads
constexpr std::uint32_t kIterations = 4096;  // per thread: a dispatch of about a millisecond
constexpr int kSubmissions = 40;             // each one dispatch, waited for, a 1 ms host gap after

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
  std::unique_ptr<VulkanDevice> device = VulkanDevice::Create(DevicePreference::kFastest, &error);
  if (device == nullptr) {
    std::printf("FAIL  Vulkan device: %s\n", error.c_str());
    return 1;
  }
  std::printf("device: %s\n", device->properties().deviceName);
  std::unique_ptr<CountingCompute> compute = CountingCompute::Create(*device, 64, &error);
  if (compute == nullptr) {
    std::printf("FAIL  compute pipeline: %s\n", error.c_str());
    return 1;
  }
  if (GpaApiManager::Instance()->LoadApi(kGpaApiVulkan, OPENGPA_VK_LIBRARY) != kGpaStatusOk) {
    std::printf("FAIL  loading libGPUPerfAPIVK.so from %s: %s\n", OPENGPA_VK_LIBRARY,
                GpaApiManager::Instance()->GetLastError().c_str());
    return 1;
  }
  const GpaFunctionTable& gpa = *GpaApiManager::Instance()->GetFunctionTable(kGpaApiVulkan);
  Check(gpa.major_version == 4, "GPA 4 table", "major version " + std::to_string(gpa.major_version));
  gpa.GpaRegisterLoggingCallback(kGpaLoggingErrorAndMessage, &LogGpa);
  if (gpa.GpaInitialize(kGpaInitializeDefaultBit) != kGpaStatusOk) return 1;
  GpaVkContextOpenInfo info = device->OpenInfo();
  GpaContextId context = nullptr;
  if (GpaStatus s = gpa.GpaOpenContext(&info, kGpaOpenContextDefaultBit, &context); s != kGpaStatusOk) {
    std::printf("FAIL  GpaOpenContext: %d\n", s);
    return 1;
  }
  GpaContextSampleTypeFlags types = 0;
  gpa.GpaGetSupportedSampleTypes(context, &types);
  Check((types & kGpaContextSampleTypeStreamingCounter) != 0, "the context offers streaming",
        "sample types 0x" + std::to_string(types));

  // What cannot be streamed: a timestamp counter.
  GpaSessionId refused = nullptr;
  if (gpa.GpaCreateSession(context, kGpaSessionSampleTypeStreamingCounter, &refused) == kGpaStatusOk) {
    const GpaStatus s = gpa.GpaEnableCounterByName(refused, "GPUTime");
    Check(s == kGpaStatusErrorIncompatibleSampleTypes, "GPUTime is refused in a stream",
          std::string("status ") + gpa.GpaGetStatusAsStr(s));
    gpa.GpaDeleteSession(refused);
  }

  GpaSessionId session = nullptr;
  GpaStatus s = gpa.GpaCreateSession(context, kGpaSessionSampleTypeStreamingCounter, &session);
  Check(s == kGpaStatusOk, "GpaCreateSession(streaming)", gpa.GpaGetStatusAsStr(s));
  if (s != kGpaStatusOk) return 1;
  for (const char* name : {"CSThreads", "CSThreadGroups"}) {
    s = gpa.GpaEnableCounterByName(session, name);
    Check(s == kGpaStatusOk, std::string("enable ") + name, gpa.GpaGetStatusAsStr(s));
  }
  gpa.GpaSpmSetSampleInterval(session, kIntervalNs);
  gpa.GpaSpmSetDuration(session, 500000000);
  if (gpa.GpaBeginSession(session) != kGpaStatusOk) return 1;
  compute->ResetInvocations();
  s = gpa.GpaSpmBegin(session, nullptr);
  Check(s == kGpaStatusOk, "GpaSpmBegin", gpa.GpaGetStatusAsStr(s));
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < kSubmissions; ++i) {
    VkCommandBuffer command_buffer = device->AllocateCommandBuffer(VK_COMMAND_BUFFER_LEVEL_PRIMARY);
    VkCommandBufferBeginInfo begin{};
    begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
    vkBeginCommandBuffer(command_buffer, &begin);
    compute->Dispatch(command_buffer, kGroups, 1, 1, kIterations);
    if (i + 1 == kSubmissions) compute->RecordHostReadBarrier(command_buffer);
    vkEndCommandBuffer(command_buffer);
    device->SubmitAndWait({command_buffer});
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  const double wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  s = gpa.GpaSpmEnd(session, nullptr);
  Check(s == kGpaStatusOk, "GpaSpmEnd", gpa.GpaGetStatusAsStr(s));
  s = gpa.GpaEndSession(session);
  Check(s == kGpaStatusOk, "GpaEndSession", gpa.GpaGetStatusAsStr(s));

  size_t size = 0;
  s = gpa.GpaSpmGetSampleResultSize(session, &size);
  Check(s == kGpaStatusOk && size > 0, "GpaSpmGetSampleResultSize", std::to_string(size) + " bytes");
  std::vector<GpaUInt64> buffer(size / 8 + 1);
  s = gpa.GpaSpmGetSampleResult(session, size, buffer.data());
  Check(s == kGpaStatusOk, "GpaSpmGetSampleResult", gpa.GpaGetStatusAsStr(s));
  if (s != kGpaStatusOk) return 1;
  auto* data = reinterpret_cast<GpaSpmData*>(buffer.data());
  const GpaUInt32 samples = data->number_of_timestamps;
  std::vector<GpaUInt64> derived(2 * static_cast<std::size_t>(samples));
  s = gpa.GpaSpmCalculateDerivedCounters(session, data, 2 * samples, derived.data());
  Check(s == kGpaStatusOk, "GpaSpmCalculateDerivedCounters", gpa.GpaGetStatusAsStr(s));

  // The raw series too: one float64 per hardware counter and sample (docs/gpa4.md).
  const auto* raw = reinterpret_cast<const double*>(data->counter_data_16bit);
  for (GpaUInt32 c = 0; c < data->number_of_spm_counter_info; ++c) {
    double sum = 0;
    for (GpaUInt32 t = 0; t < samples; ++t) sum += raw[data->spm_counter_info[c].data_offset + t];
    std::printf("  raw hardware counter %u: %.0f over the stream\n", data->spm_counter_info[c].event_index, sum);
  }
  double threads = 0, groups = 0;
  GpaUInt32 with_work = 0;
  bool ordered = true;
  for (GpaUInt32 t = 0; t < samples; ++t) {
    const double sample_threads = AsDouble(derived[t]);
    threads += sample_threads;
    groups += AsDouble(derived[samples + t]);
    with_work += sample_threads > 0 ? 1 : 0;
    if (t > 0 && data->timestamps[t] <= data->timestamps[t - 1]) ordered = false;
  }
  const double expected_threads = 64.0 * kGroups * kSubmissions;
  const double expected_groups = static_cast<double>(kGroups) * kSubmissions;
  const double span_ms = samples > 1 ? (data->timestamps[samples - 1] - data->timestamps[0]) / 1e6 : 0;
  std::printf("  %u samples over %.1f ms (host: %.1f ms of work), %u with compute threads\n", samples, span_ms, wall_ms,
              with_work);
  Check(compute->Invocations() == expected_threads, "the shader counted its invocations",
        std::to_string(compute->Invocations()) + " of " + std::to_string(expected_threads));
  Check(threads == expected_threads, "CSThreads over the stream = threads dispatched",
        std::to_string(threads) + " of " + std::to_string(expected_threads));
  Check(groups == expected_groups, "CSThreadGroups over the stream = groups dispatched",
        std::to_string(groups) + " of " + std::to_string(expected_groups));
  Check(ordered, "timestamps increase", ordered ? "yes" : "no");
  const double expected_samples = span_ms * 1e6 / kIntervalNs;
  Check(samples > 0 && std::fabs(samples - 1 - expected_samples) <= 2 + 0.01 * expected_samples,
        "one sample per interval", std::to_string(samples) + " samples over " + std::to_string(span_ms) + " ms");
  Check(span_ms >= 0.9 * wall_ms, "the series spans the work", std::to_string(span_ms) + " ms");
  Check(with_work >= kSubmissions, "the dispatches are spread over samples", std::to_string(with_work));
  gpa.GpaDeleteSession(session);
  gpa.GpaCloseContext(context);
  gpa.GpaDestroy();
  std::printf("%s: %d failure(s)\n", failures == 0 ? "PASS" : "FAIL", failures);
  return failures == 0 ? 0 : 1;
}
