// GPA 4 on a live CUDA context (the H100): a client of include/v4 that loads libGPUPerfAPICUDA.so with the v4
// interface loader and checks, against ground truth, what the host-only tests cannot:
//   - the device limits from the live device, against Hopper's published shape: 132 SMs of 64 warp slots,
//     65536 32-bit registers and 228 KiB of shared memory each (H100 SXM5);
//   - a discrete session through the v4 table (counter queries by session): a 256 MiB copy's FetchSize within 2%;
//   - GpaAbortSession on a begun session, then the same session sampled again, then GpaResetSession;
//   - streaming sessions offered (CUPTI PM sampling; tests/device/spm checks them against known work) and SQTT
//     sessions refused (IncompatibleSampleTypes), as docs/gpa4.md says.
// Prints PASS/FAIL lines; the exit status is the number of failures.
#include <cuda.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#include "gpu_performance_api/gpu_perf_api.h"
#include "gpu_performance_api/gpu_perf_api_cuda.h"
#include "gpu_performance_api/gpu_perf_api_interface_loader.h"
#include "kernels.cuh"

GpaApiManager* GpaApiManager::gpa_api_manager_ = nullptr;
GpaFuncTableInfo* gpa_function_table_info = nullptr;

using namespace opengpa_device;

namespace {

int failures = 0;

void Check(bool ok, const std::string& what, const std::string& detail) {
  std::printf("%s  %s: %s\n", ok ? "PASS" : "FAIL", what.c_str(), detail.c_str());
  if (!ok) ++failures;
}

std::string Status(const GpaFunctionTable& gpa, GpaStatus status) {
  return std::to_string(status) + " (" + gpa.GpaGetStatusAsStr(status) + ")";
}

void LogGpa(GpaLoggingType, const char* message) { std::printf("  GPA: %s\n", message); }

// One pass per GpaGetPassCount: the copy as sample 0.
GpaStatus SampleCopy(const GpaFunctionTable& gpa, GpaSessionId session, const float4* src, float4* dst) {
  GpaUInt32 passes = 0;
  if (GpaStatus s = gpa.GpaGetPassCount(session, &passes); s != kGpaStatusOk) return s;
  for (GpaUInt32 pass = 0; pass < passes; ++pass) {
    GpaCommandListId list = nullptr;
    if (GpaStatus s = gpa.GpaBeginCommandList(session, pass, GPA_NULL_COMMAND_LIST, kGpaCommandListNone, &list);
        s != kGpaStatusOk) {
      return s;
    }
    if (GpaStatus s = gpa.GpaBeginSample(0, list); s != kGpaStatusOk) return s;
    copy_kernel<<<kCopyBlocks, kCopyThreads>>>(src, dst, kCopyVectors);
    if (GpaStatus s = gpa.GpaEndSample(list); s != kGpaStatusOk) return s;
    if (GpaStatus s = gpa.GpaEndCommandList(list); s != kGpaStatusOk) return s;
  }
  return kGpaStatusOk;
}

}  // namespace

int main(int argc, char** argv) {
  const char* library = argc > 1 ? argv[1] : "./libGPUPerfAPICUDA.so";
  if (cudaFree(nullptr) != cudaSuccess) return 100;
  CUcontext context = nullptr;
  if (cuCtxGetCurrent(&context) != CUDA_SUCCESS || context == nullptr) return 101;
  float4* src = nullptr;
  float4* dst = nullptr;
  if (cudaMalloc(&src, kCopyBytes) != cudaSuccess || cudaMalloc(&dst, kCopyBytes) != cudaSuccess) return 102;
  fill_kernel<<<kCopyBlocks, kCopyThreads>>>(src, kCopyVectors, 1.0f);
  cudaDeviceSynchronize();

  GpaApiManager* manager = GpaApiManager::Instance();
  const GpaStatus loaded = manager->LoadApi(kGpaApiCuda, library);
  Check(loaded == kGpaStatusOk, "the v4 loader gets libGPUPerfAPICUDA.so's v4 table", manager->GetLastError());
  if (loaded != kGpaStatusOk) return failures;
  const GpaFunctionTable& gpa = *manager->GetFunctionTable(kGpaApiCuda);
  Check(gpa.major_version == 4 && gpa.minor_version == sizeof(GpaFunctionTable), "table versions",
        std::to_string(gpa.major_version) + "." + std::to_string(gpa.minor_version));
  gpa.GpaRegisterLoggingCallback(kGpaLoggingError, LogGpa);
  gpa.GpaInitialize(kGpaInitializeDefaultBit);

  GpaCudaContextOpenInfo info = GPA_CUDA_CONTEXT_OPEN_INFO_INIT;
  info.context = context;
  GpaContextId gpa_context = nullptr;
  GpaStatus status = gpa.GpaOpenContext(&info, kGpaOpenContextDefaultBit, &gpa_context);
  Check(status == kGpaStatusOk, "GpaOpenContext on the live CUcontext", Status(gpa, status));
  if (status != kGpaStatusOk) return failures;
  const char* name = nullptr;
  gpa.GpaGetDeviceName(gpa_context, &name);
  std::printf("device: %s\n", name);

  GpaContextSampleTypeFlags types = 0;
  status = gpa.GpaGetSupportedSampleTypes(gpa_context, &types);
  Check(
      status == kGpaStatusOk && types == (kGpaContextSampleTypeDiscreteCounter | kGpaContextSampleTypeStreamingCounter),
      "sample types: discrete and streaming counters (no SQTT)",
      Status(gpa, status) + ", mask " + std::to_string(types));

  // Device limits against Hopper's published shape; the driver's attributes printed beside.
  int sms = 0, threads = 0, registers = 0, shared = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  cudaDeviceGetAttribute(&threads, cudaDevAttrMaxThreadsPerMultiProcessor, 0);
  cudaDeviceGetAttribute(&registers, cudaDevAttrMaxRegistersPerMultiprocessor, 0);
  cudaDeviceGetAttribute(&shared, cudaDevAttrMaxSharedMemoryPerMultiprocessor, 0);
  std::printf("driver: %d SMs, %d threads, %d registers, %d shared bytes per SM\n", sms, threads, registers, shared);
  const bool h100_sxm = std::strstr(name, "H100 80GB HBM3") != nullptr;
  GpaUInt32 wave_slots = 0, vgprs = 0, lds = 0;
  const GpaStatus s1 = gpa.GpaGetDeviceMaxWaveSlots(gpa_context, &wave_slots);
  const GpaStatus s2 = gpa.GpaGetDeviceMaxVgprs(gpa_context, &vgprs);
  const GpaStatus s3 = gpa.GpaGetDeviceMaxLdsBytes(gpa_context, &lds);
  const GpaUInt32 sm_count = h100_sxm ? 132u : static_cast<GpaUInt32>(sms);
  Check(s1 == kGpaStatusOk && wave_slots == sm_count * 64, "GpaGetDeviceMaxWaveSlots = SMs x 64 warps",
        std::to_string(wave_slots) + " (expected " + std::to_string(sm_count * 64) + ")");
  Check(s2 == kGpaStatusOk && vgprs == sm_count * 65536u, "GpaGetDeviceMaxVgprs = SMs x 65536 registers",
        std::to_string(vgprs) + " (expected " + std::to_string(sm_count * 65536u) + ")");
  Check(s3 == kGpaStatusOk && lds == sm_count * 228u * 1024u, "GpaGetDeviceMaxLdsBytes = SMs x 228 KiB",
        std::to_string(lds) + " (expected " + std::to_string(sm_count * 228u * 1024u) + ")");

  // A discrete session through the v4 table.
  GpaSessionId session = nullptr;
  status = gpa.GpaCreateSession(gpa_context, kGpaSessionSampleTypeDiscreteCounter, &session);
  Check(status == kGpaStatusOk, "GpaCreateSession (discrete)", Status(gpa, status));
  GpaUInt32 fetch = 0;
  status = gpa.GpaGetCounterIndex(session, "FetchSize", &fetch);
  Check(status == kGpaStatusOk, "GpaGetCounterIndex(session, FetchSize)", Status(gpa, status));
  GpaUsageType usage = kGpaUsageTypeLast;
  gpa.GpaGetCounterUsageType(session, fetch, &usage);
  gpa.GpaEnableCounter(session, fetch);

  // Begun, one pass recorded with an open sample, then aborted: the session is as before GpaBeginSession.
  status = gpa.GpaBeginSession(session);
  GpaCommandListId list = nullptr;
  gpa.GpaBeginCommandList(session, 0, GPA_NULL_COMMAND_LIST, kGpaCommandListNone, &list);
  gpa.GpaBeginSample(0, list);
  copy_kernel<<<kCopyBlocks, kCopyThreads>>>(src, dst, kCopyVectors);
  const GpaStatus aborted = gpa.GpaAbortSession(session);
  Check(status == kGpaStatusOk && aborted == kGpaStatusOk, "GpaAbortSession stops a begun session with an open sample",
        Status(gpa, aborted));

  status = gpa.GpaBeginSession(session);
  if (status == kGpaStatusOk) status = SampleCopy(gpa, session, src, dst);
  if (status == kGpaStatusOk) status = gpa.GpaEndSession(session);
  Check(status == kGpaStatusOk, "the aborted session begun and sampled again", Status(gpa, status));
  GpaUInt64 raw = 0;
  status = gpa.GpaGetSampleResult(session, 0, sizeof raw, &raw);
  double kilobytes = 0;
  std::memcpy(&kilobytes, &raw, sizeof kilobytes);  // FetchSize is a float64 in kilobytes, as GPA's
  const double expected = static_cast<double>(kCopyBytes) / 1024;
  Check(status == kGpaStatusOk && std::fabs(kilobytes - expected) / expected < 0.02,
        "copy: FetchSize 262144 KB (256 MiB) within 2%",
        std::to_string(kilobytes) + " KB, usage " + std::to_string(usage));

  status = gpa.GpaResetSession(session);
  GpaUInt32 enabled = 1;
  gpa.GpaGetNumEnabledCounters(session, &enabled);
  Check(status == kGpaStatusOk && enabled == 0, "GpaResetSession leaves no counter enabled", std::to_string(enabled));

  GpaSessionId other = nullptr;
  const GpaStatus streaming = gpa.GpaCreateSession(gpa_context, kGpaSessionSampleTypeStreamingCounter, &other);
  if (streaming == kGpaStatusOk) gpa.GpaDeleteSession(other);
  const GpaStatus sqtt = gpa.GpaCreateSession(gpa_context, kGpaSessionSampleTypeSqtt, &other);
  Check(streaming == kGpaStatusOk && sqtt == kGpaStatusErrorIncompatibleSampleTypes,
        "streaming sessions created, SQTT sessions refused", Status(gpa, streaming) + ", " + Status(gpa, sqtt));

  gpa.GpaDeleteSession(session);
  gpa.GpaCloseContext(gpa_context);
  gpa.GpaDestroy();
  manager->UnloadApi(kGpaApiCuda);
  GpaApiManager::DeleteInstance();
  std::printf("failures: %d\n", failures);
  return failures;
}
