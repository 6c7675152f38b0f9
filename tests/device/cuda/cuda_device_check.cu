// libGPUPerfAPICUDA.so on a real GPU, against ground truth computed from the launches:
//   - a 256 MiB copy: FetchSize and WriteSize (DRAM bytes) within 2% of 256 MiB
//   - an FFMA loop: FFMAThreadInstructions exactly blocks * threads * iterations * chains
//   - shared-memory loads with a designed 8-way bank conflict (and a conflict-free control)
//   - an L2-resident re-read: L2 hit rate near 100%, almost no DRAM reads
//   - launch counts (warps, thread groups, threads) exactly as launched
//   - a session of >= 8 passes with 1000 samples per pass gives, sample by sample, the values of
//     single-counter sessions
//   - overhead: CPU cost of GpaBeginSample + GpaEndSample; profiled vs unprofiled wall time
// Raw CUPTI metrics of the four truth kernels are written to <results>/gpa_raw.csv for run.sh, which
// compares them with `ncu --metrics` on `cuda_device_check --workload` (the same kernels, same order).
//
// Usage: cuda_device_check [--results DIR]     all checks; exit code = number of failed checks
//        cuda_device_check --workload          the truth kernels only (for ncu)
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "gpu_performance_api/gpu_perf_api.h"
#include "gpu_performance_api/gpu_perf_api_cuda.h"
#include "kernels.cuh"

using namespace opengpa_device;
using Clock = std::chrono::steady_clock;

namespace {

int g_failures = 0;

void Check(bool ok, const std::string& what, const std::string& detail) {
  std::printf("%s  %-78s %s\n", ok ? "PASS" : "FAIL", what.c_str(), detail.c_str());
  std::fflush(stdout);
  if (!ok) ++g_failures;
}

#define CUDA_OK(call)                                                                           \
  do {                                                                                          \
    cudaError_t e_ = (call);                                                                    \
    if (e_ != cudaSuccess) {                                                                    \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      std::exit(100);                                                                           \
    }                                                                                           \
  } while (0)

std::string g_log;
void CaptureLog(GpaLoggingType type, const char* message) {
  if (type & kGpaLoggingError) {
    std::fprintf(stderr, "GPA error: %s\n", message);
    g_log += message;
    g_log += "\n";
  }
}

#define GPA_OK(call)                                                                              \
  do {                                                                                            \
    GpaStatus s_ = (call);                                                                        \
    if (s_ != kGpaStatusOk) {                                                                     \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, GpaGetStatusAsStr(s_)); \
      std::exit(101);                                                                             \
    }                                                                                             \
  } while (0)

struct Buffers {
  float4* copy_src = nullptr;
  float4* copy_dst = nullptr;
  float* ffma_out = nullptr;
  float* bank_out = nullptr;
  float4* l2_data = nullptr;
  float* l2_out = nullptr;
  float* mix_in = nullptr;
  float* mix_out = nullptr;

  Buffers() {
    CUDA_OK(cudaMalloc(&copy_src, kCopyBytes));
    CUDA_OK(cudaMalloc(&copy_dst, kCopyBytes));
    CUDA_OK(cudaMalloc(&ffma_out, sizeof(float) * kFfmaBlocks * kFfmaThreads));
    CUDA_OK(cudaMalloc(&bank_out, sizeof(float) * kBankBlocks * kBankThreads));
    CUDA_OK(cudaMalloc(&l2_data, kL2Bytes));
    CUDA_OK(cudaMalloc(&l2_out, sizeof(float) * kL2Blocks * kL2Threads));
    CUDA_OK(cudaMalloc(&mix_in, sizeof(float) * 8 * 256));
    CUDA_OK(cudaMalloc(&mix_out, sizeof(float) * 8 * 256));
    fill_kernel<<<1024, 256>>>(copy_src, kCopyVectors, 1.5f);
    fill_kernel<<<1024, 256>>>(copy_dst, kCopyVectors, 7.0f);  // poisoned: the copy must overwrite it
    fill_kernel<<<256, 256>>>(l2_data, kL2Vectors, 3.25f);
    fill_kernel<<<2, 256>>>(reinterpret_cast<float4*>(mix_in), 8 * 256 / 4, 0.5f);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaDeviceSynchronize());
  }
  ~Buffers() {
    for (void* p : {static_cast<void*>(copy_src), static_cast<void*>(copy_dst), static_cast<void*>(ffma_out),
                    static_cast<void*>(bank_out), static_cast<void*>(l2_data), static_cast<void*>(l2_out),
                    static_cast<void*>(mix_in), static_cast<void*>(mix_out)}) {
      cudaFree(p);
    }
  }
};

// The truth kernels, one per sample, in this order (ncu's rows follow the same order).
struct TruthKernel {
  const char* name;
  std::function<void(Buffers&)> launch;
};

std::vector<TruthKernel> TruthKernels() {
  return {
      {"copy", [](Buffers& b) { copy_kernel<<<kCopyBlocks, kCopyThreads>>>(b.copy_src, b.copy_dst, kCopyVectors); }},
      {"ffma", [](Buffers& b) { ffma_kernel<<<kFfmaBlocks, kFfmaThreads>>>(b.ffma_out, 1.0001f, 0.5f, kFfmaIterations); }},
      {"bank8", [](Buffers& b) { bank_conflict_kernel<<<kBankBlocks, kBankThreads>>>(b.bank_out, 8, kBankLoads); }},
      {"bank1", [](Buffers& b) { bank_conflict_kernel<<<kBankBlocks, kBankThreads>>>(b.bank_out, 1, kBankLoads); }},
      {"l2reread", [](Buffers& b) { l2_reread_kernel<<<kL2Blocks, kL2Threads>>>(b.l2_data, kL2Vectors, kL2Repeats, b.l2_out); }},
  };
}

// Unmeasured work before the truth samples of every pass: puts the L2 buffer in L2.
void WarmL2(Buffers& b) { l2_warm_kernel<<<kL2Blocks, kL2Threads>>>(b.l2_data, kL2Vectors, b.l2_out); }

CUcontext CurrentContext() {
  CUDA_OK(cudaFree(nullptr));
  CUcontext context = nullptr;
  if (cuCtxGetCurrent(&context) != CUDA_SUCCESS || context == nullptr) {
    std::fprintf(stderr, "no current CUDA context\n");
    std::exit(102);
  }
  return context;
}

GpaContextId OpenContext(CUcontext cu, GpaOpenContextFlags flags) {
  GpaCudaContextOpenInfo info = GPA_CUDA_CONTEXT_OPEN_INFO_INIT;
  info.context = cu;
  GpaContextId context = nullptr;
  GPA_OK(GpaOpenContext(&info, flags, &context));
  return context;
}

GpaUInt32 Index(GpaContextId context, const std::string& name) {
  GpaUInt32 index = 0;
  GPA_OK(GpaGetCounterIndex(context, name.c_str(), &index));
  return index;
}

// One session: enable `counters`, record `samples` (each a function launching its work) in every pass,
// and return values[sample][counter] as doubles.
struct SessionResult {
  GpaUInt32 passes = 0;
  std::vector<std::vector<double>> values;
  double wall_seconds = 0.0;
};

SessionResult RunSession(GpaContextId context, const std::vector<std::string>& counters,
                         const std::vector<std::function<void()>>& samples,
                         const std::function<void()>& before_samples = {}) {
  const auto start = Clock::now();
  GpaSessionId session = nullptr;
  GPA_OK(GpaCreateSession(context, kGpaSessionSampleTypeDiscreteCounter, &session));
  for (const std::string& name : counters) GPA_OK(GpaEnableCounterByName(session, name.c_str()));
  SessionResult result;
  GPA_OK(GpaGetPassCount(session, &result.passes));
  GPA_OK(GpaBeginSession(session));
  for (GpaUInt32 pass = 0; pass < result.passes; ++pass) {
    GpaCommandListId list = nullptr;
    GPA_OK(GpaBeginCommandList(session, pass, GPA_NULL_COMMAND_LIST, kGpaCommandListNone, &list));
    if (before_samples) before_samples();
    for (GpaUInt32 id = 0; id < samples.size(); ++id) {
      GPA_OK(GpaBeginSample(id, list));
      samples[id]();
      GPA_OK(GpaEndSample(list));
    }
    GPA_OK(GpaEndCommandList(list));
  }
  CUDA_OK(cudaGetLastError());
  GPA_OK(GpaEndSession(session));
  while (GpaIsSessionComplete(session) == kGpaStatusResultNotReady) {
  }
  std::vector<GpaDataType> types;
  for (const std::string& name : counters) {
    GpaDataType type;
    GPA_OK(GpaGetCounterDataType(context, Index(context, name), &type));
    types.push_back(type);
  }
  size_t size = 0;
  for (GpaUInt32 id = 0; id < samples.size(); ++id) {
    GPA_OK(GpaGetSampleResultSize(session, id, &size));
    std::vector<GpaUInt64> raw(size / sizeof(GpaUInt64));
    GPA_OK(GpaGetSampleResult(session, id, size, raw.data()));
    std::vector<double> row;
    for (size_t i = 0; i < counters.size(); ++i) {
      if (types[i] == kGpaDataTypeFloat64) {
        double v;
        std::memcpy(&v, &raw[i], sizeof(v));
        row.push_back(v);
      } else {
        row.push_back(static_cast<double>(raw[i]));
      }
    }
    result.values.push_back(std::move(row));
  }
  GPA_OK(GpaDeleteSession(session));
  result.wall_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return result;
}

std::string Fmt(const char* format, double a, double b = 0, double c = 0) {
  char text[256];
  std::snprintf(text, sizeof(text), format, a, b, c);
  return text;
}

double RelativeDifference(double a, double b) {
  const double scale = std::max(std::fabs(a), std::fabs(b));
  return scale == 0.0 ? 0.0 : std::fabs(a - b) / scale;
}

// ---- Checks -------------------------------------------------------------------------------------

void CheckDevice(GpaContextId context) {
  const char* name = nullptr;
  GpaHwGeneration generation = kGpaHwGenerationNone;
  GpaUInt32 device_id = 0, revision = 0;
  GPA_OK(GpaGetDeviceName(context, &name));
  GPA_OK(GpaGetDeviceGeneration(context, &generation));
  GPA_OK(GpaGetDeviceAndRevisionId(context, &device_id, &revision));
  char detail[256];
  std::snprintf(detail, sizeof(detail), "\"%s\", device id 0x%04x rev %u", name, device_id, revision);
  Check(std::strstr(name, "(GH100)") != nullptr && generation == kGpaHwGenerationNvidia,
        "the device name carries CUPTI's chip and the generation is NVIDIA", detail);
}

void CheckCatalogCounters(GpaContextId context, Buffers& buffers, std::ofstream& table) {
  const std::vector<std::string> counters{
      "GPUTime", "ExecutionDuration", "GPUBusy", "CSBusy",
      "Wavefronts", "CSThreadGroups", "CSThreads", "WarpInstructions", "ThreadInstructions", "IPC",
      "AchievedOccupancy", "SMBusy", "FetchSize", "WriteSize", "DRAMThroughput", "MemUnitBusy",
      "L1CacheHit", "L2CacheHit", "L2CacheRequestCount", "L2CacheHitCount", "L2CacheMissCount", "L2SectorCount",
      "FFMAThreadInstructions", "FMAPipeUtilization", "SharedLoadInstructions", "SharedWavefronts",
      "SharedBankConflicts", "SharedWavefrontsPerInstruction"};
  std::vector<std::function<void()>> samples;
  const auto kernels = TruthKernels();
  for (const TruthKernel& kernel : kernels) samples.push_back([&buffers, kernel] { kernel.launch(buffers); });
  const SessionResult result = RunSession(context, counters, samples, [&buffers] { WarmL2(buffers); });
  std::printf("catalog session: %zu counters, %u passes\n", counters.size(), result.passes);
  table << "sample";
  for (const std::string& c : counters) table << "," << c;
  table << "\n";
  for (size_t s = 0; s < kernels.size(); ++s) {
    table << kernels[s].name;
    for (double v : result.values[s]) table << "," << v;
    table << "\n";
  }
  std::printf("%-32s", "counter");
  for (const TruthKernel& k : kernels) std::printf("%16s", k.name);
  std::printf("\n");
  for (size_t c = 0; c < counters.size(); ++c) {
    std::printf("%-32s", counters[c].c_str());
    for (size_t s = 0; s < kernels.size(); ++s) std::printf("%16.6g", result.values[s][c]);
    std::printf("\n");
  }
  auto value = [&](size_t sample, const char* counter) {
    const size_t c = std::find(counters.begin(), counters.end(), counter) - counters.begin();
    return result.values[sample][c];
  };
  const double mib256 = static_cast<double>(kCopyBytes);
  Check(RelativeDifference(value(0, "FetchSize"), mib256) < 0.02, "copy: FetchSize is 256 MiB within 2%",
        Fmt("%.0f bytes (%.3f%% off)", value(0, "FetchSize"), 100 * RelativeDifference(value(0, "FetchSize"), mib256)));
  Check(RelativeDifference(value(0, "WriteSize"), mib256) < 0.02, "copy: WriteSize is 256 MiB within 2%",
        Fmt("%.0f bytes (%.3f%% off)", value(0, "WriteSize"), 100 * RelativeDifference(value(0, "WriteSize"), mib256)));
  Check(value(1, "FFMAThreadInstructions") == static_cast<double>(kFfmaExpected),
        "ffma: FFMAThreadInstructions equals blocks*threads*iterations*4 exactly",
        Fmt("%.0f counted, %.0f launched", value(1, "FFMAThreadInstructions"), static_cast<double>(kFfmaExpected)));
  Check(value(1, "Wavefronts") == kFfmaBlocks * kFfmaThreads / 32.0 && value(1, "CSThreadGroups") == kFfmaBlocks &&
            value(1, "CSThreads") == kFfmaBlocks * kFfmaThreads,
        "ffma: warps, thread groups and threads are exactly the launch's",
        Fmt("%.0f warps, %.0f groups, %.0f threads", value(1, "Wavefronts"), value(1, "CSThreadGroups"),
            value(1, "CSThreads")));
  const double shared_loads = static_cast<double>(kBankBlocks) * (kBankThreads / 32) * kBankLoads;
  Check(value(2, "SharedLoadInstructions") >= shared_loads && value(2, "SharedLoadInstructions") < shared_loads * 1.01,
        "bank8: SharedLoadInstructions is blocks*warps*loads (+ <1%)",
        Fmt("%.0f counted, %.0f designed", value(2, "SharedLoadInstructions"), shared_loads));
  Check(std::fabs(value(2, "SharedWavefrontsPerInstruction") - 8.0) < 0.2,
        "bank8: SharedWavefrontsPerInstruction is the designed 8-way conflict (+-0.2, stores included)",
        Fmt("%.4f", value(2, "SharedWavefrontsPerInstruction")));
  Check(std::fabs(value(3, "SharedWavefrontsPerInstruction") - 1.0) < 0.05 && value(3, "SharedBankConflicts") < 0.01 * shared_loads,
        "bank1: no conflicts: 1 wavefront per instruction, conflicts < 1% of loads",
        Fmt("%.4f wavefronts/instruction, %.0f conflicts", value(3, "SharedWavefrontsPerInstruction"),
            value(3, "SharedBankConflicts")));
  const double l2_bytes = static_cast<double>(kL2Bytes) * kL2Repeats;
  Check(value(4, "L2CacheHit") > 95.0 && value(4, "FetchSize") < 0.02 * l2_bytes,
        "l2reread: L2CacheHit > 95% and DRAM reads < 2% of the bytes read",
        Fmt("L2CacheHit %.3f%%, FetchSize %.0f of %.0f bytes read", value(4, "L2CacheHit"), value(4, "FetchSize"), l2_bytes));
  bool timing_ok = true;
  for (size_t s = 0; s < kernels.size(); ++s) {
    timing_ok = timing_ok && value(s, "GPUTime") > 0 && value(s, "ExecutionDuration") <= value(s, "GPUTime") * 1.01;
  }
  Check(timing_ok, "every sample: GPUTime > 0 and ExecutionDuration <= GPUTime",
        Fmt("copy: GPUTime %.0f ns, ExecutionDuration %.0f ns", value(0, "GPUTime"), value(0, "ExecutionDuration")));
  const double copy_seconds = value(0, "GPUTime") * 1e-9;
  std::printf("copy bandwidth from GPUTime: %.1f GB/s (read + write)\n", 2 * mib256 / copy_seconds / 1e9);
}

// The raw metrics compared with ncu; written to gpa_raw.csv.
const std::vector<std::string>& RawMetrics() {
  static const std::vector<std::string> metrics{
      "dram__bytes_read.sum", "dram__bytes_write.sum", "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum",
      "smsp__inst_executed.sum", "smsp__warps_launched.sum", "smsp__thread_inst_executed.sum",
      "smsp__inst_executed_op_shared_ld.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
      "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
      "lts__t_requests.sum", "lts__t_sectors.sum", "lts__t_sector_hit_rate.pct", "lts__t_request_hit_rate.pct",
      "gpu__time_duration.sum"};
  return metrics;
}

void CheckRawMetrics(GpaContextId context, Buffers& buffers, const std::string& results) {
  std::vector<std::function<void()>> samples;
  const auto kernels = TruthKernels();
  for (const TruthKernel& kernel : kernels) samples.push_back([&buffers, kernel] { kernel.launch(buffers); });
  const SessionResult result = RunSession(context, RawMetrics(), samples, [&buffers] { WarmL2(buffers); });
  std::printf("raw-metric session: %zu CUPTI metrics, %u passes\n", RawMetrics().size(), result.passes);
  std::ofstream csv(results + "/gpa_raw.csv");
  csv << "kernel,metric,value\n";
  for (size_t s = 0; s < kernels.size(); ++s) {
    for (size_t m = 0; m < RawMetrics().size(); ++m) {
      char value[64];
      std::snprintf(value, sizeof(value), "%.17g", result.values[s][m]);
      csv << kernels[s].name << "," << RawMetrics()[m] << "," << value << "\n";
    }
  }
  const double wavefronts = result.values[2][7], loads = result.values[2][6];
  Check(std::fabs(wavefronts / loads - 8.0) < 0.01, "bank8 (raw): shared load wavefronts / load instructions = 8",
        Fmt("%.0f / %.0f = %.4f", wavefronts, loads, wavefronts / loads));
  Check(result.values[4][12] > 95.0, "l2reread (raw): lts__t_sector_hit_rate.pct > 95",
        Fmt("%.3f", result.values[4][12]));
}

// >= 8 passes, 1000 samples per pass, against one session per counter.
void CheckMultiPass(GpaContextId context, Buffers& buffers) {
  const std::vector<std::string> candidates{
      "smsp__inst_executed.sum", "smsp__thread_inst_executed.sum", "smsp__warps_launched.sum",
      "smsp__inst_executed_pipe_fma.sum", "smsp__inst_executed_pipe_alu.sum", "smsp__inst_executed_pipe_lsu.sum",
      "smsp__inst_executed_pipe_fmaheavy.sum", "smsp__inst_executed_pipe_fmalite.sum", "smsp__inst_executed_pipe_cbu.sum",
      "smsp__inst_executed_pipe_adu.sum", "smsp__inst_executed_pipe_uniform.sum", "smsp__inst_executed_pipe_xu.sum",
      "smsp__inst_executed_op_global_ld.sum", "smsp__inst_executed_op_global_st.sum",
      "smsp__inst_executed_op_shared_ld.sum", "smsp__inst_executed_op_shared_st.sum",
      "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
      "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "sm__inst_executed_pipe_adu.sum",
      "sm__inst_executed_pipe_alu.sum", "sm__inst_executed_pipe_cbu.sum", "sm__inst_executed_pipe_fma.sum",
      "sm__inst_executed_pipe_fma_type_fp16.sum", "sm__inst_executed_pipe_fmaheavy.sum",
      "sm__inst_executed_pipe_lsu.sum", "sm__inst_executed_pipe_lsu_mem_shared_cmd_read.sum",
      "sm__inst_executed_pipe_tensor.sum", "sm__inst_executed_pipe_tensor_op_gmma.sum",
      "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"};
  // Add candidates until GpaGetPassCount reaches 8.
  std::vector<std::string> counters;
  GpaUInt32 passes = 0;
  for (const std::string& name : candidates) {
    GpaUInt32 index = 0;
    if (GpaGetCounterIndex(context, name.c_str(), &index) != kGpaStatusOk) continue;
    counters.push_back(name);
    GpaSessionId session = nullptr;
    GPA_OK(GpaCreateSession(context, kGpaSessionSampleTypeDiscreteCounter, &session));
    for (const std::string& c : counters) GPA_OK(GpaEnableCounterByName(session, c.c_str()));
    if (GpaGetPassCount(session, &passes) != kGpaStatusOk) {
      counters.pop_back();
    }
    GPA_OK(GpaDeleteSession(session));
    if (passes >= 8) break;
  }
  constexpr int kSamples = 1000;
  std::vector<std::function<void()>> samples;
  for (int i = 0; i < kSamples; ++i) {
    const int blocks = 1 + i % 7;
    const int iterations = 1 + (i * 13) % 97;
    samples.push_back([&buffers, blocks, iterations] {
      mix_kernel<<<blocks, 256>>>(buffers.mix_in, buffers.mix_out, iterations);
    });
  }
  const SessionResult multi = RunSession(context, counters, samples);
  std::printf("multi-pass session: %zu counters, %u passes, %d samples per pass, %.2f s\n", counters.size(),
              multi.passes, kSamples, multi.wall_seconds);
  Check(multi.passes >= 8, "the multi-pass session needs >= 8 passes", Fmt("%.0f passes", multi.passes));
  int mismatches = 0;
  double worst = 0.0;
  std::string worst_name;
  for (size_t c = 0; c < counters.size(); ++c) {
    const SessionResult single = RunSession(context, {counters[c]}, samples);
    for (int s = 0; s < kSamples; ++s) {
      const double d = RelativeDifference(multi.values[s][c], single.values[s][0]);
      if (d > 1e-9) ++mismatches;
      if (d > worst) {
        worst = d;
        worst_name = counters[c] + " sample " + std::to_string(s) + ": " + std::to_string(multi.values[s][c]) +
                     " vs " + std::to_string(single.values[s][0]);
      }
    }
  }
  Check(mismatches == 0, "every sample of the multi-pass session equals the single-counter sessions' value",
        std::to_string(counters.size() * kSamples) + " values, " + std::to_string(mismatches) + " differ" +
            (worst > 0 ? "; worst " + worst_name : ""));
  bool varied = false;
  for (int s = 1; s < kSamples; ++s) varied = varied || multi.values[s][0] != multi.values[0][0];
  Check(varied && multi.values[0][0] > 0, "samples differ from each other (the check can fail)",
        Fmt("sample 0: %.0f, sample 1: %.0f", multi.values[0][0], multi.values[1][0]));
}

void CheckOverhead(GpaContextId context, Buffers& buffers, std::ofstream& report) {
  // CPU cost of GpaBeginSample + GpaEndSample (the launch between them is not timed).
  const std::vector<std::string> defaults{"GPUTime", "GPUBusy", "Wavefronts", "IPC", "FetchSize", "WriteSize",
                                          "L1CacheHit", "L2CacheHit"};
  GpaSessionId session = nullptr;
  GPA_OK(GpaCreateSession(context, kGpaSessionSampleTypeDiscreteCounter, &session));
  for (const std::string& c : defaults) GPA_OK(GpaEnableCounterByName(session, c.c_str()));
  GpaUInt32 passes = 0;
  GPA_OK(GpaGetPassCount(session, &passes));
  GPA_OK(GpaBeginSession(session));
  std::vector<double> begin_ns, end_ns;
  for (GpaUInt32 pass = 0; pass < passes; ++pass) {
    GpaCommandListId list = nullptr;
    GPA_OK(GpaBeginCommandList(session, pass, GPA_NULL_COMMAND_LIST, kGpaCommandListNone, &list));
    for (GpaUInt32 id = 0; id < 1000; ++id) {
      auto t0 = Clock::now();
      GPA_OK(GpaBeginSample(id, list));
      auto t1 = Clock::now();
      mix_kernel<<<1, 256>>>(buffers.mix_in, buffers.mix_out, 4);
      auto t2 = Clock::now();
      GPA_OK(GpaEndSample(list));
      auto t3 = Clock::now();
      begin_ns.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count());
      end_ns.push_back(std::chrono::duration<double, std::nano>(t3 - t2).count());
    }
    GPA_OK(GpaEndCommandList(list));
  }
  GPA_OK(GpaEndSession(session));
  GPA_OK(GpaDeleteSession(session));
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  std::vector<double> pair(begin_ns.size());
  for (size_t i = 0; i < pair.size(); ++i) pair[i] = begin_ns[i] + end_ns[i];
  const std::string cost = Fmt("GpaBeginSample median %.0f ns, GpaEndSample median %.0f ns, pair median %.0f ns",
                               median(begin_ns), median(end_ns), median(pair));
  std::printf("overhead: %s (%u pass, %zu pairs)\n", cost.c_str(), passes, pair.size());
  report << "sample_pair_cpu: " << cost << "\n";

  // Profiled vs unprofiled wall time of the truth workload repeated 10 times.
  const auto kernels = TruthKernels();
  auto workload = [&] {
    WarmL2(buffers);
    for (int r = 0; r < 10; ++r) {
      for (const TruthKernel& k : kernels) k.launch(buffers);
    }
  };
  workload();
  CUDA_OK(cudaDeviceSynchronize());
  std::vector<double> plain;
  for (int rep = 0; rep < 5; ++rep) {
    const auto t0 = Clock::now();
    workload();
    CUDA_OK(cudaDeviceSynchronize());
    plain.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
  }
  std::vector<std::function<void()>> samples;
  for (int r = 0; r < 10; ++r) {
    for (const TruthKernel& k : kernels) samples.push_back([&buffers, k] { k.launch(buffers); });
  }
  std::vector<double> profiled;
  GpaUInt32 profiled_passes = 0;
  for (int rep = 0; rep < 5; ++rep) {
    const SessionResult r = RunSession(context, defaults, samples, [&buffers] { WarmL2(buffers); });
    profiled.push_back(r.wall_seconds);
    profiled_passes = r.passes;
  }
  const double p = median(plain), q = median(profiled);
  const std::string wall = Fmt("unprofiled %.2f ms, profiled %.2f ms (ratio %.3f)", p * 1e3, q * 1e3, q / p) +
                           " with " + std::to_string(profiled_passes) + " pass(es), 50 samples, whole session";
  std::printf("overhead: %s\n", wall.c_str());
  report << "workload_wall: " << wall << "\n";
}

void CheckMisuse(GpaContextId context, Buffers& buffers) {
  GpaSessionId session = nullptr;
  GPA_OK(GpaCreateSession(context, kGpaSessionSampleTypeDiscreteCounter, &session));
  for (const char* name : {"GPUTime", "L2CacheHit", "FFMAThreadInstructions", "TensorPipeUtilization"}) {
    GPA_OK(GpaEnableCounterByName(session, name));
  }
  GpaUInt32 passes = 0;
  GPA_OK(GpaGetPassCount(session, &passes));
  GPA_OK(GpaBeginSession(session));
  GpaCommandListId list = nullptr;
  const GpaStatus wrong_type =
      GpaBeginCommandList(session, 0, reinterpret_cast<void*>(0x10), kGpaCommandListPrimary, &list);
  Check(wrong_type == kGpaStatusErrorInvalidParameter, "a command list other than GPA_NULL_COMMAND_LIST is refused",
        GpaGetStatusAsStr(wrong_type));
  const GpaStatus out_of_order = GpaBeginCommandList(session, 1, GPA_NULL_COMMAND_LIST, kGpaCommandListNone, &list);
  Check(passes > 1 && out_of_order == kGpaStatusErrorInvalidParameter,
        "pass 1 before pass 0 is refused (CUPTI replays passes in order)",
        std::to_string(passes) + " passes; " + GpaGetStatusAsStr(out_of_order));
  bool pending_seen = false;
  for (GpaUInt32 pass = 0; pass < passes; ++pass) {
    GPA_OK(GpaBeginCommandList(session, pass, GPA_NULL_COMMAND_LIST, kGpaCommandListNone, &list));
    GPA_OK(GpaBeginSample(0, list));
    ffma_kernel<<<kFfmaBlocks, kFfmaThreads>>>(buffers.ffma_out, 1.0001f, 0.5f, 64 * kFfmaIterations);
    GPA_OK(GpaEndSample(list));
    GPA_OK(GpaEndCommandList(list));
    // The kernel runs for milliseconds: right after GpaEndCommandList the pass is usually not done yet.
    pending_seen = pending_seen || GpaIsPassComplete(session, pass) == kGpaStatusResultNotReady;
    CUDA_OK(cudaDeviceSynchronize());
    const GpaStatus done = GpaIsPassComplete(session, pass);
    Check(done == kGpaStatusOk, "GpaIsPassComplete is OK once the pass's work finished",
          "pass " + std::to_string(pass) + ": " + GpaGetStatusAsStr(done));
  }
  std::printf("GpaIsPassComplete returned not-ready right after a pass: %s\n", pending_seen ? "yes" : "no");
  GPA_OK(GpaEndSession(session));
  const GpaStatus session_done = GpaIsSessionComplete(session);
  Check(session_done == kGpaStatusOk, "after GpaEndSession the session is complete", GpaGetStatusAsStr(session_done));
  GPA_OK(GpaDeleteSession(session));
}

}  // namespace

int main(int argc, char** argv) {
  std::string results = ".";
  bool workload_only = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--workload") == 0) workload_only = true;
    if (std::strcmp(argv[i], "--results") == 0 && i + 1 < argc) results = argv[++i];
  }
  CUcontext cu = CurrentContext();
  Buffers buffers;
  if (workload_only) {
    WarmL2(buffers);
    for (const TruthKernel& k : TruthKernels()) k.launch(buffers);
    CUDA_OK(cudaDeviceSynchronize());
    return 0;
  }

  GPA_OK(GpaRegisterLoggingCallback(kGpaLoggingError, &CaptureLog));
  GPA_OK(GpaInitialize(kGpaInitializeDefaultBit));
  GpaContextId context = OpenContext(cu, kGpaOpenContextDefaultBit);
  CheckDevice(context);
  std::ofstream table(results + "/gpa_counters.csv");
  CheckCatalogCounters(context, buffers, table);
  CheckMisuse(context, buffers);
  std::ofstream report(results + "/overhead.txt");
  CheckOverhead(context, buffers, report);
  GPA_OK(GpaCloseContext(context));

  GpaContextId raw = OpenContext(cu, kGpaOpenContextEnableHardwareCountersBit);
  CheckRawMetrics(raw, buffers, results);
  CheckMultiPass(raw, buffers);
  GPA_OK(GpaCloseContext(raw));
  GPA_OK(GpaDestroy());
  std::printf("failures: %d\n", g_failures);
  return g_failures;
}
