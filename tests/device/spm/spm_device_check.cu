// Streaming counters (CUPTI PM sampling) through GPA 4's GpaSpm* on a live CUDA context (the H100), against work
// of known shape: a copy kernel that reads and writes kSpanCopies x 1 GiB, streamed at 100 us with FetchSize and
// WriteSize (dram__bytes_read.sum / 1024, dram__bytes_write.sum / 1024, per sample). The integral of each
// bandwidth series (bytes of a sample / its span, times its span, summed) must equal the bytes moved within 2 %.
//   1. GPA 4: GpaSpmBegin .. GpaSpmEnd, GpaSpmGetSampleResult's GpaSpmData, GpaSpmCalculateDerivedCounters, and
//      OpenGpaGetStreamingSamples/Info for each sample's span, the edges and the samples lost;
//   2. GPA v3's way (a streaming session's one sample) through the same table: GpaGetSampleResult's totals;
//   3. a 4 MiB hardware buffer (OpenGpaSetStreamingOptions): whatever it loses is reported, not silent.
// Prints PASS/FAIL lines and a table; the exit status is the number of failures.
#include <cuda.h>
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "gpu_performance_api/gpu_perf_api.h"
#include "gpu_performance_api/gpu_perf_api_cuda.h"
#include "gpu_performance_api/gpu_perf_api_interface_loader.h"
#include "gpu_performance_api/opengpa_ext.h"
#include "kernels.cuh"

GpaApiManager* GpaApiManager::gpa_api_manager_ = nullptr;
GpaFuncTableInfo* gpa_function_table_info = nullptr;

using namespace opengpa_device;

namespace {

constexpr std::size_t kBufferBytes = 1ull << 30;  // 1 GiB read and 1 GiB written per copy
constexpr std::size_t kBufferVectors = kBufferBytes / sizeof(float4);
constexpr int kSpanCopies = 150;  // about 100 ms of copying on an H100
constexpr GpaUInt32 kIntervalNs = 100000;

int failures = 0;

void Check(bool ok, const std::string& what, const std::string& detail) {
  std::printf("%s  %s: %s\n", ok ? "PASS" : "FAIL", what.c_str(), detail.c_str());
  if (!ok) ++failures;
}

std::string Status(const GpaFunctionTable& gpa, GpaStatus status) {
  return std::to_string(status) + " (" + gpa.GpaGetStatusAsStr(status) + ")";
}

void LogGpa(GpaLoggingType, const char* message) { std::printf("  GPA: %s\n", message); }

struct Extensions {
  OpenGpaSetStreamingOptionsPtrType set_options = nullptr;
  OpenGpaGetStreamingInfoPtrType info = nullptr;
  OpenGpaGetStreamingSamplesPtrType samples = nullptr;
};

struct Stream {
  GpaStatus status = kGpaStatusOk;
  OpenGpaStreamingInfo info{};
  std::vector<GpaUInt64> start_ns, end_ns;
  std::vector<double> read_bytes, write_bytes;   // per sample, from the derived counters (KiB * 1024)
  double read_integral = 0, write_integral = 0;  // of the bandwidth series over time
  double peak_read_gbps = 0;
  double wall_ms = 0;
};

double RelativeError(double value, double expected) { return std::fabs(value - expected) / expected; }

void Copies(const float4* src, float4* dst, int copies) {
  for (int i = 0; i < copies; ++i) copy_kernel<<<kCopyBlocks * 2, kCopyThreads>>>(src, dst, kBufferVectors);
}

// A GPA 4 stream of `copies` copies: FetchSize and WriteSize at kIntervalNs, read back both ways.
Stream StreamCopies(const GpaFunctionTable& gpa, const Extensions& ext, GpaContextId context, const float4* src,
                    float4* dst, int copies, GpaUInt64 buffer_bytes) {
  Stream out;
  GpaSessionId session = nullptr;
  auto fail = [&](GpaStatus s, const char* step) {
    std::printf("  %s: %s\n", step, Status(gpa, s).c_str());
    out.status = s;
    if (session != nullptr) gpa.GpaDeleteSession(session);
    return out;
  };
  if (GpaStatus s = gpa.GpaCreateSession(context, kGpaSessionSampleTypeStreamingCounter, &session); s != kGpaStatusOk) {
    return fail(s, "GpaCreateSession");
  }
  if (GpaStatus s = gpa.GpaEnableCounterByName(session, "FetchSize"); s != kGpaStatusOk) return fail(s, "FetchSize");
  if (GpaStatus s = gpa.GpaEnableCounterByName(session, "WriteSize"); s != kGpaStatusOk) return fail(s, "WriteSize");
  if (GpaStatus s = gpa.GpaSpmSetSampleInterval(session, kIntervalNs); s != kGpaStatusOk) return fail(s, "interval");
  if (GpaStatus s = gpa.GpaSpmSetDuration(session, 200000000); s != kGpaStatusOk) return fail(s, "duration");
  if (buffer_bytes != 0) {
    if (GpaStatus s = ext.set_options(session, 0, buffer_bytes); s != kGpaStatusOk) return fail(s, "buffer");
  }
  if (GpaStatus s = gpa.GpaBeginSession(session); s != kGpaStatusOk) return fail(s, "GpaBeginSession");
  const auto t0 = std::chrono::steady_clock::now();
  if (GpaStatus s = gpa.GpaSpmBegin(session, nullptr); s != kGpaStatusOk) return fail(s, "GpaSpmBegin");
  Copies(src, dst, copies);
  if (GpaStatus s = gpa.GpaSpmEnd(session, nullptr); s != kGpaStatusOk) return fail(s, "GpaSpmEnd");
  out.wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  if (GpaStatus s = gpa.GpaEndSession(session); s != kGpaStatusOk) return fail(s, "GpaEndSession");

  size_t size = 0;
  if (GpaStatus s = gpa.GpaSpmGetSampleResultSize(session, &size); s != kGpaStatusOk) return fail(s, "result size");
  std::vector<GpaUInt64> buffer(size / 8 + 1);
  if (GpaStatus s = gpa.GpaSpmGetSampleResult(session, size, buffer.data()); s != kGpaStatusOk)
    return fail(s, "result");
  auto* data = reinterpret_cast<GpaSpmData*>(buffer.data());
  const GpaUInt32 samples = data->number_of_timestamps;
  std::vector<GpaUInt64> derived(2 * samples);
  if (GpaStatus s = gpa.GpaSpmCalculateDerivedCounters(session, data, 2 * samples, derived.data()); s != kGpaStatusOk) {
    return fail(s, "GpaSpmCalculateDerivedCounters");
  }
  if (GpaStatus s = ext.info(session, &out.info); s != kGpaStatusOk) return fail(s, "OpenGpaGetStreamingInfo");
  out.start_ns.resize(samples);
  out.end_ns.resize(samples);
  if (GpaStatus s = ext.samples(session, 0, samples, out.start_ns.data(), out.end_ns.data(), nullptr);
      s != kGpaStatusOk) {
    return fail(s, "OpenGpaGetStreamingSamples");
  }
  for (GpaUInt32 t = 0; t < samples; ++t) {
    double kib_read, kib_write;  // FetchSize and WriteSize are float64 counters
    std::memcpy(&kib_read, &derived[t], 8);
    std::memcpy(&kib_write, &derived[samples + t], 8);
    out.read_bytes.push_back(kib_read * 1024.0);
    out.write_bytes.push_back(kib_write * 1024.0);
    if (data->timestamps[t] != out.end_ns[t]) out.status = kGpaStatusErrorFailed;  // both say where samples end
    const double span_s = (out.end_ns[t] - out.start_ns[t]) * 1e-9;
    if (span_s <= 0) continue;
    const double read_bw = out.read_bytes.back() / span_s;  // the bandwidth series, bytes/s
    const double write_bw = out.write_bytes.back() / span_s;
    out.read_integral += read_bw * span_s;
    out.write_integral += write_bw * span_s;
    out.peak_read_gbps = std::max(out.peak_read_gbps, read_bw / 1e9);
  }
  gpa.GpaDeleteSession(session);
  return out;
}

void Report(const char* name, const Stream& s, double expected) {
  const double sampled_ms = (s.info.end_ns - s.info.begin_ns) / 1e6;
  const double first_edge_us = s.start_ns.empty() ? 0 : (s.start_ns.front() - s.info.begin_ns) / 1e3;
  const double last_edge_us = s.end_ns.empty() ? 0 : (static_cast<double>(s.info.end_ns) - s.end_ns.back()) / 1e3;
  std::printf("  %-22s samples %u, interval %llu ns, sampled %.2f ms, covered %.2f ms, lost %llu, overflows %llu\n",
              name, s.info.sample_count, static_cast<unsigned long long>(s.info.interval_ns), sampled_ms,
              s.info.covered_ns / 1e6, static_cast<unsigned long long>(s.info.lost_sample_count),
              static_cast<unsigned long long>(s.info.overflow_count));
  std::printf(
      "  %-22s edges: first sample starts %.1f us after the start, last ends %.1f us before the stop; "
      "wall %.1f ms; peak read %.0f GB/s\n",
      "", first_edge_us, last_edge_us, s.wall_ms, s.peak_read_gbps);
  std::printf("  %-22s read integral %.6e B (%.4f of %.6e), write integral %.6e B (%.4f)\n", "", s.read_integral,
              s.read_integral / expected, expected, s.write_integral, s.write_integral / expected);
}

}  // namespace

int main(int argc, char** argv) {
  const char* library = argc > 1 ? argv[1] : "./libGPUPerfAPICUDA.so";
  if (cudaFree(nullptr) != cudaSuccess) return 100;
  CUcontext context = nullptr;
  if (cuCtxGetCurrent(&context) != CUDA_SUCCESS || context == nullptr) return 101;
  float4* src = nullptr;
  float4* dst = nullptr;
  if (cudaMalloc(&src, kBufferBytes) != cudaSuccess || cudaMalloc(&dst, kBufferBytes) != cudaSuccess) return 102;
  fill_kernel<<<kCopyBlocks, kCopyThreads>>>(src, kBufferVectors, 1.0f);
  Copies(src, dst, 2);  // warm: the first launch's set-up out of the span
  cudaDeviceSynchronize();
  const double expected = static_cast<double>(kBufferBytes) * kSpanCopies;

  GpaApiManager* manager = GpaApiManager::Instance();
  const GpaStatus loaded = manager->LoadApi(kGpaApiCuda, library);
  Check(loaded == kGpaStatusOk, "the v4 loader gets libGPUPerfAPICUDA.so's v4 table", manager->GetLastError());
  if (loaded != kGpaStatusOk) return failures;
  const GpaFunctionTable& gpa = *manager->GetFunctionTable(kGpaApiCuda);
  gpa.GpaRegisterLoggingCallback(kGpaLoggingError, LogGpa);
  Extensions ext;
  void* handle = dlopen(library, RTLD_NOW | RTLD_NOLOAD);
  ext.set_options = reinterpret_cast<OpenGpaSetStreamingOptionsPtrType>(dlsym(handle, "OpenGpaSetStreamingOptions"));
  ext.info = reinterpret_cast<OpenGpaGetStreamingInfoPtrType>(dlsym(handle, "OpenGpaGetStreamingInfo"));
  ext.samples = reinterpret_cast<OpenGpaGetStreamingSamplesPtrType>(dlsym(handle, "OpenGpaGetStreamingSamples"));
  Check(ext.set_options && ext.info && ext.samples, "the streaming extensions are exported", "");
  if (!ext.set_options || !ext.info || !ext.samples) return failures;

  if (GpaStatus s = gpa.GpaInitialize(kGpaInitializeDefaultBit); s != kGpaStatusOk) return 103;
  GpaCudaContextOpenInfo info = GPA_CUDA_CONTEXT_OPEN_INFO_INIT;
  info.context = context;
  GpaContextId gpa_context = nullptr;
  const GpaStatus opened = gpa.GpaOpenContext(&info, kGpaOpenContextDefaultBit, &gpa_context);
  Check(opened == kGpaStatusOk, "GpaOpenContext on the live context", Status(gpa, opened));
  if (opened != kGpaStatusOk) return failures;
  GpaContextSampleTypeFlags types = 0;
  gpa.GpaGetSupportedSampleTypes(gpa_context, &types);
  Check((types & kGpaContextSampleTypeStreamingCounter) != 0, "the live context offers streaming counters",
        "mask " + std::to_string(types));

  // 1. GPA 4.
  const Stream stream = StreamCopies(gpa, ext, gpa_context, src, dst, kSpanCopies, 0);
  Check(stream.status == kGpaStatusOk, "a GPA 4 stream over the copies", Status(gpa, stream.status));
  Report("GPA 4, default buffer", stream, expected);
  Check(RelativeError(stream.read_integral, expected) < 0.02, "integral of the DRAM read bandwidth = bytes read (2 %)",
        std::to_string(stream.read_integral / expected));
  Check(RelativeError(stream.write_integral, expected) < 0.02,
        "integral of the DRAM write bandwidth = bytes written (2 %)", std::to_string(stream.write_integral / expected));
  Check(stream.info.sample_count > 500, "samples at 100 us over the span", std::to_string(stream.info.sample_count));

  // 2. GPA v3's way: the session's one sample spans the stream; GpaGetSampleResult gives the totals.
  {
    GpaSessionId session = nullptr;
    GpaStatus s = gpa.GpaCreateSession(gpa_context, kGpaSessionSampleTypeStreamingCounter, &session);
    if (s == kGpaStatusOk) s = gpa.GpaEnableCounterByName(session, "FetchSize");
    if (s == kGpaStatusOk) s = gpa.GpaEnableCounterByName(session, "WriteSize");
    if (s == kGpaStatusOk) s = gpa.GpaBeginSession(session);
    GpaCommandListId list = nullptr;
    if (s == kGpaStatusOk) s = gpa.GpaBeginCommandList(session, 0, GPA_NULL_COMMAND_LIST, kGpaCommandListNone, &list);
    if (s == kGpaStatusOk) s = gpa.GpaBeginSample(0, list);
    if (s == kGpaStatusOk) {
      Copies(src, dst, kSpanCopies);
      s = gpa.GpaEndSample(list);
    }
    if (s == kGpaStatusOk) s = gpa.GpaEndCommandList(list);
    if (s == kGpaStatusOk) s = gpa.GpaEndSession(session);
    double totals[2] = {0, 0};
    if (s == kGpaStatusOk) s = gpa.GpaGetSampleResult(session, 0, sizeof totals, totals);
    Check(s == kGpaStatusOk, "GPA v3's streaming sample", Status(gpa, s));
    std::printf("  v3 sample: FetchSize %.6e B (%.4f), WriteSize %.6e B (%.4f)\n", totals[0] * 1024,
                totals[0] * 1024 / expected, totals[1] * 1024, totals[1] * 1024 / expected);
    Check(RelativeError(totals[0] * 1024, expected) < 0.02 && RelativeError(totals[1] * 1024, expected) < 0.02,
          "GPA v3's sample total = bytes moved (2 %)", "");
    if (session != nullptr) gpa.GpaDeleteSession(session);
  }

  // 3. A small buffer: loss, if any, is counted and logged.
  const Stream small = StreamCopies(gpa, ext, gpa_context, src, dst, kSpanCopies, 4ull << 20);
  std::printf("  4 MiB buffer: status %s\n", Status(gpa, small.status).c_str());
  if (small.status == kGpaStatusOk) Report("GPA 4, 4 MiB buffer", small, expected);
  const bool complete = small.status == kGpaStatusOk && RelativeError(small.read_integral, expected) < 0.02;
  Check(complete || small.status != kGpaStatusOk || small.info.lost_sample_count > 0 || small.info.overflow_count > 0,
        "what a small buffer loses is reported (an error status, lost samples or overflows), else the integral holds",
        "lost " + std::to_string(small.info.lost_sample_count) + ", integral " +
            std::to_string(small.read_integral / expected));

  gpa.GpaCloseContext(gpa_context);
  gpa.GpaDestroy();
  std::printf("%d checks failed\n", failures);
  return failures;
}
