// libGPUPerfAPICUDA.so on a real GPU, against ground truth computed from the launches:
//   - a 256 MiB copy: FetchSize and WriteSize (DRAM bytes) within 2% of 256 MiB
//   - an FFMA loop: FFMAThreadInstructions exactly blocks * threads * iterations * chains
//   - shared-memory loads with a designed 8-way bank conflict (and a conflict-free control)
//   - an L2-resident re-read: L2 hit rate near 100%, almost no DRAM reads
//   - launch counts (warps, thread groups, threads) exactly as launched
//   - GPA's compute-table counters (VALUInsts, VFetchInsts, VWriteInsts, LDSInsts, VALUUtilization, ...):
//     exact or bounded by what the kernels do, and equal to their formulas over ncu's values (run.sh)
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
#include <execinfo.h>
#include <signal.h>
#include <unistd.h>

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

#define CUDA_OK(call)                                                                             \
  do {                                                                                            \
    cudaError_t e_ = (call);                                                                      \
    if (e_ != cudaSuccess) {                                                                      \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      std::exit(100);                                                                             \
    }                                                                                             \
  } while (0)

std::string g_log;
void CaptureLog(GpaLoggingType type, const char* message) {
  if (type & kGpaLoggingMessage) std::fprintf(stderr, "GPA: %s\n", message);
  if (type & kGpaLoggingError) {
    std::fprintf(stderr, "GPA error: %s\n", message);
    g_log += message;
    g_log += "\n";
  }
}

#define GPA_OK(call)                                                                             \
  do {                                                                                           \
    GpaStatus s_ = (call);                                                                       \
    if (s_ != kGpaStatusOk) {                                                                    \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, GpaGetStatusAsStr(s_)); \
      std::exit(101);                                                                            \
    }                                                                                            \
  } while (0)

struct Buffers {
  float4* copy_src = nullptr;
  float4* copy_dst = nullptr;
  float* ffma_out = nullptr;
  float* bank_out = nullptr;
  float4* l2_data = nullptr;
  float* l2_out = nullptr;
  float4* flush = nullptr;
  float* mix_in = nullptr;
  float* mix_out = nullptr;
  float* diverge_out = nullptr;
  float* l1_small = nullptr;
  float* l1_out = nullptr;

  Buffers() {
    CUDA_OK(cudaMalloc(&copy_src, kCopyBytes));
    CUDA_OK(cudaMalloc(&copy_dst, kCopyBytes));
    CUDA_OK(cudaMalloc(&ffma_out, sizeof(float) * kFfmaBlocks * kFfmaThreads));
    CUDA_OK(cudaMalloc(&bank_out, sizeof(float) * kBankBlocks * kBankThreads));
    CUDA_OK(cudaMalloc(&l2_data, kL2Bytes));
    CUDA_OK(cudaMalloc(&l2_out, sizeof(float) * kL2Blocks * kL2Threads));
    CUDA_OK(cudaMalloc(&flush, kFlushBytes));
    CUDA_OK(cudaMalloc(&mix_in, sizeof(float) * 8 * 256));
    CUDA_OK(cudaMalloc(&mix_out, sizeof(float) * 8 * 256));
    CUDA_OK(cudaMalloc(&diverge_out, sizeof(float) * kFfmaBlocks * kFfmaThreads));
    CUDA_OK(cudaMalloc(&l1_small, sizeof(float) * kL1ReuseFloats));
    CUDA_OK(cudaMalloc(&l1_out, sizeof(float) * kL1ReuseBlocks * kL1ReuseThreads));
    fill_kernel<<<1, 256>>>(reinterpret_cast<float4*>(l1_small), kL1ReuseFloats / 4, 2.5f);
    fill_kernel<<<1024, 256>>>(copy_src, kCopyVectors, 1.5f);
    fill_kernel<<<1024, 256>>>(copy_dst, kCopyVectors, 7.0f);  // poisoned: the copy must overwrite it
    fill_kernel<<<256, 256>>>(l2_data, kL2Vectors, 3.25f);
    fill_kernel<<<1024, 256>>>(flush, kFlushBytes / sizeof(float4), 0.25f);
    fill_kernel<<<2, 256>>>(reinterpret_cast<float4*>(mix_in), 8 * 256 / 4, 0.5f);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaDeviceSynchronize());
  }
  ~Buffers() {
    for (void* p : {static_cast<void*>(copy_src), static_cast<void*>(copy_dst), static_cast<void*>(ffma_out),
                    static_cast<void*>(bank_out), static_cast<void*>(l2_data), static_cast<void*>(l2_out),
                    static_cast<void*>(mix_in), static_cast<void*>(mix_out), static_cast<void*>(flush),
                    static_cast<void*>(diverge_out), static_cast<void*>(l1_small), static_cast<void*>(l1_out)}) {
      cudaFree(p);
    }
  }
};

// The truth kernels, one per sample, in this order (ncu's rows follow the same order). `prepare` runs
// before the sample begins (unmeasured).
struct TruthKernel {
  const char* name;
  std::function<void(Buffers&)> launch;
  std::function<void(Buffers&)> prepare;
};

void WarmL2(Buffers& b);
void FlushL2(Buffers& b);

std::vector<TruthKernel> TruthKernels() {
  return {
      {"copy", [](Buffers& b) { copy_kernel<<<kCopyBlocks, kCopyThreads>>>(b.copy_src, b.copy_dst, kCopyVectors); },
       FlushL2},
      {"ffma",
       [](Buffers& b) { ffma_kernel<<<kFfmaBlocks, kFfmaThreads>>>(b.ffma_out, 1.0001f, 0.5f, kFfmaIterations); }},
      {"bank8", [](Buffers& b) { bank_conflict_kernel<<<kBankBlocks, kBankThreads>>>(b.bank_out, 8, kBankLoads); }},
      {"bank1", [](Buffers& b) { bank_conflict_kernel<<<kBankBlocks, kBankThreads>>>(b.bank_out, 1, kBankLoads); }},
      {"l2reread",
       [](Buffers& b) { l2_reread_kernel<<<kL2Blocks, kL2Threads>>>(b.l2_data, kL2Vectors, kL2Repeats, b.l2_out); },
       WarmL2},
      // The copy again, followed in the same sample by an L2 write-back (reading 128 MiB of clean data): DRAM
      // writes happen when L2 evicts, so only then are all 256 MiB of the copy's writes inside the sample.
      {"copy+writeback",
       [](Buffers& b) {
         copy_kernel<<<kCopyBlocks, kCopyThreads>>>(b.copy_src, b.copy_dst, kCopyVectors);
         FlushL2(b);
       },
       FlushL2},
      {"diverge",
       [](Buffers& b) {
         diverge_kernel<<<kFfmaBlocks, kFfmaThreads>>>(b.diverge_out, 1.0001f, 0.5f, kFfmaIterations);
       }},
      {"l1reuse",
       [](Buffers& b) { l1_reuse_kernel<<<kL1ReuseBlocks, kL1ReuseThreads>>>(b.l1_small, b.l1_out, kL1ReuseReads); }},
      // the first 32 MiB of the flush buffer, which earlier work read through L2 only (never into L1)
      {"l1twice",
       [](Buffers& b) {
         l1_twice_kernel<<<kL1TwiceBlocks, kL1TwiceThreads>>>(b.flush, kL1TwiceBytes / sizeof(float4), b.l2_out);
       }},
      {"flat",
       [](Buffers& b) {
         flat_kernel<<<kFlatBlocks, kFlatThreads>>>(reinterpret_cast<const float*>(b.flush), b.bank_out, 1, kFlatLoads);
       }},
  };
}

// Writes back what earlier work left dirty in L2, so that the copy's DRAM writes are its own.
void FlushL2(Buffers& b) {
  l2_flush_kernel<<<kL2Blocks, kL2Threads>>>(b.flush, kFlushBytes / sizeof(float4), b.l2_out);
}

// Puts the L2 buffer in L2 right before the re-read (same launch shape, so the same SMs' L2 partitions).
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

GpaContextId OpenContext(CUcontext cu, GpaOpenContextFlags flags, GpaUInt32 max_samples_per_pass = 0) {
  GpaCudaContextOpenInfo info = GPA_CUDA_CONTEXT_OPEN_INFO_INIT;
  info.context = cu;
  info.max_samples_per_pass = max_samples_per_pass;
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

struct Sample {
  std::function<void()> run;
  std::function<void()> prepare;  // optional, unmeasured
};

std::vector<Sample> TruthSamples(Buffers& buffers) {
  std::vector<Sample> samples;
  for (const TruthKernel& kernel : TruthKernels()) {
    Sample sample{[&buffers, kernel] { kernel.launch(buffers); }, {}};
    if (kernel.prepare) sample.prepare = [&buffers, kernel] { kernel.prepare(buffers); };
    samples.push_back(sample);
  }
  return samples;
}

struct Phases {
  double begin_session_ms = 0, record_ms = 0, end_session_ms = 0, results_ms = 0;
};

SessionResult RunSession(GpaContextId context, const std::vector<std::string>& counters,
                         const std::vector<Sample>& samples, Phases* phases = nullptr) {
  const auto start = Clock::now();
  GpaSessionId session = nullptr;
  GPA_OK(GpaCreateSession(context, kGpaSessionSampleTypeDiscreteCounter, &session));
  for (const std::string& name : counters) GPA_OK(GpaEnableCounterByName(session, name.c_str()));
  SessionResult result;
  GPA_OK(GpaGetPassCount(session, &result.passes));
  const auto t_begin = Clock::now();
  GPA_OK(GpaBeginSession(session));
  const auto t_record = Clock::now();
  for (GpaUInt32 pass = 0; pass < result.passes; ++pass) {
    GpaCommandListId list = nullptr;
    GPA_OK(GpaBeginCommandList(session, pass, GPA_NULL_COMMAND_LIST, kGpaCommandListNone, &list));
    for (GpaUInt32 id = 0; id < samples.size(); ++id) {
      if (samples[id].prepare) samples[id].prepare();
      GPA_OK(GpaBeginSample(id, list));
      samples[id].run();
      GPA_OK(GpaEndSample(list));
    }
    GPA_OK(GpaEndCommandList(list));
  }
  CUDA_OK(cudaGetLastError());
  const auto t_end = Clock::now();
  GPA_OK(GpaEndSession(session));
  while (GpaIsSessionComplete(session) == kGpaStatusResultNotReady) {
  }
  const auto t_results = Clock::now();
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
  const auto t_done = Clock::now();
  result.wall_seconds = std::chrono::duration<double>(t_done - start).count();
  if (phases != nullptr) {
    auto ms = [](Clock::time_point a, Clock::time_point b) {
      return std::chrono::duration<double, std::milli>(b - a).count();
    };
    phases->begin_session_ms = ms(t_begin, t_record);
    phases->record_ms = ms(t_record, t_end);
    phases->end_session_ms = ms(t_end, t_results);
    phases->results_ms = ms(t_results, t_done);
  }
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
  const std::vector<std::string> counters{"GPUTime",
                                          "ExecutionDuration",
                                          "GPUBusy",
                                          "CSBusy",
                                          "Wavefronts",
                                          "CSThreadGroups",
                                          "CSThreads",
                                          "WarpInstructions",
                                          "ThreadInstructions",
                                          "IPC",
                                          "AchievedOccupancy",
                                          "SMBusy",
                                          "FetchSize",
                                          "WriteSize",
                                          "DRAMThroughput",
                                          "L2Throughput",
                                          "L0CacheHit",
                                          "L2CacheHit",
                                          "L2SectorHit",
                                          "L2CacheRequestCount",
                                          "L2CacheHitCount",
                                          "L2CacheMissCount",
                                          "L2SectorCount",
                                          "FFMAThreadInstructions",
                                          "FMAPipeUtilization",
                                          "L1TEXDataPipeUtilization",
                                          "SharedLoadInstructions",
                                          "SharedWavefronts",
                                          "SharedBankConflicts",
                                          "SharedWavefrontsPerInstruction"};
  const auto kernels = TruthKernels();
  const SessionResult result = RunSession(context, counters, TruthSamples(buffers));
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
  const double mib256 = static_cast<double>(kCopyBytes) / 1024;  // FetchSize and WriteSize are kilobytes, as GPA's
  Check(RelativeDifference(value(0, "FetchSize"), mib256) < 0.02, "copy: FetchSize is 256 MiB (262144 KB) within 2%",
        Fmt("%.1f KB (%.3f%% off)", value(0, "FetchSize"), 100 * RelativeDifference(value(0, "FetchSize"), mib256)));
  std::printf(
      "copy alone: WriteSize %.1f KB (%.3f%% of 256 MiB): dirty lines still in L2 when the sample ends are "
      "written back after it\n",
      value(0, "WriteSize"), 100 * value(0, "WriteSize") / mib256);
  const double flush = static_cast<double>(kFlushBytes) / 1024;
  Check(RelativeDifference(value(5, "WriteSize"), mib256) < 0.02,
        "copy+writeback: WriteSize is the copy's 256 MiB within 2%",
        Fmt("%.1f KB (%.3f%% off)", value(5, "WriteSize"), 100 * RelativeDifference(value(5, "WriteSize"), mib256)));
  Check(RelativeDifference(value(5, "FetchSize"), mib256 + flush) < 0.02,
        "copy+writeback: FetchSize is 256 MiB + the 128 MiB write-back read, within 2%",
        Fmt("%.1f KB (%.3f%% off)", value(5, "FetchSize"),
            100 * RelativeDifference(value(5, "FetchSize"), mib256 + flush)));
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
  Check(std::fabs(value(3, "SharedWavefrontsPerInstruction") - 1.0) < 0.05 &&
            value(3, "SharedBankConflicts") < 0.01 * shared_loads,
        "bank1: no conflicts: 1 wavefront per instruction, conflicts < 1% of loads",
        Fmt("%.4f wavefronts/instruction, %.0f conflicts", value(3, "SharedWavefrontsPerInstruction"),
            value(3, "SharedBankConflicts")));
  const double l2_bytes = static_cast<double>(kL2Bytes) * kL2Repeats / 1024;
  Check(value(4, "L2SectorHit") > 95.0 && value(4, "FetchSize") < 0.02 * l2_bytes,
        "l2reread: L2SectorHit > 95% and DRAM reads < 2% of the bytes read",
        Fmt("L2SectorHit %.3f%%, FetchSize %.1f of %.0f KB read", value(4, "L2SectorHit"), value(4, "FetchSize"),
            l2_bytes));
  // Requests that miss in the SM's near L2 partition are served by the far one and count as misses there.
  Check(value(4, "L2CacheHit") > 80.0, "l2reread: L2CacheHit (requests, GPA's definition) > 80%",
        Fmt("%.3f%%", value(4, "L2CacheHit")));
  bool timing_ok = true;
  for (size_t s = 0; s < kernels.size(); ++s) {
    timing_ok = timing_ok && value(s, "GPUTime") > 0 && value(s, "GPUTime") <= value(s, "ExecutionDuration") * 1.01;
  }
  Check(timing_ok, "every sample: GPUTime (busy) > 0 and at most ExecutionDuration (the range)",
        Fmt("copy: GPUTime %.0f ns, ExecutionDuration %.0f ns", value(0, "GPUTime"), value(0, "ExecutionDuration")));
  const double copy_seconds = value(0, "GPUTime") * 1e-9;
  std::printf("copy bandwidth from GPUTime: %.1f GB/s (read + write)\n", 2 * mib256 * 1024 / copy_seconds / 1e9);
}

// GPA's compute-table counters (the ComputeUnit group and the GPA-named General/GlobalMemory/MemoryCache
// ones) on the truth kernels, against what the kernels do; written to gpa_derived.csv, which run.sh
// compares with the same formulas evaluated over ncu's metrics.
const std::vector<std::string>& ComputeTableCounters() {
  static const std::vector<std::string> counters{
      "Wavefronts", "VALUInsts", "SALUInsts",  "VFetchInsts",     "VWriteInsts",     "VALUUtilization",
      "VALUBusy",   "SALUBusy",  "LDSInsts",   "LDSBankConflict", "ALUStalledByLDS", "MemUnitStalled",
      "FetchSize",  "WriteSize", "L0CacheHit", "L2CacheHit",      "FlatVMemInsts",   "FlatLDSInsts"};
  return counters;
}

// L0CacheHit against designed L1 hit patterns, FlatLDSInsts and FlatVMemInsts against designed generic accesses.
template <typename Value>
void CheckCacheAndFlat(const Value& value) {
  enum { kCopy = 0, kBank8 = 2, kBank1 = 3, kL1Reuse = 7, kL1Twice = 8, kFlat = 9 };
  // l1reuse: each SM's L1 misses each of the array's 128 sectors once, or at worst once per resident warp (2 blocks
  // of 8 warps) when they race; every other load sector hits. The final stores (4 sectors per warp) count as misses.
  const double reuse_warps = kL1ReuseBlocks * (kL1ReuseThreads / 32.0);
  const double reuse_lookups = reuse_warps * kL1ReuseReads * 4 + reuse_warps * 4;
  const double array_sectors = kL1ReuseFloats * 4.0 / 32;
  const double reuse_best = 100.0 * (1.0 - (132 * array_sectors + reuse_warps * 4) / reuse_lookups);
  const double reuse_worst = 100.0 * (1.0 - (132 * 16 * array_sectors + reuse_warps * 4) / reuse_lookups);
  Check(value(kL1Reuse, "L0CacheHit") >= reuse_worst && value(kL1Reuse, "L0CacheHit") <= 100.0,
        "l1reuse: L0CacheHit between the races' worst case and 100% (each SM misses only first touches)",
        Fmt("%.3f%%, expected %.3f .. %.3f", value(kL1Reuse, "L0CacheHit"), reuse_worst, reuse_best));
  // l1twice: every load sector is looked up twice, the second time a hit; the stores (4 sectors per warp) miss.
  const double twice_load_sectors = 2.0 * kL1TwiceBytes / 32;
  const double twice_stores = kL1TwiceBlocks * (kL1TwiceThreads / 32.0) * 4;
  const double twice_expected = 100.0 * (twice_load_sectors / 2) / (twice_load_sectors + twice_stores);
  Check(std::fabs(value(kL1Twice, "L0CacheHit") - twice_expected) < 1.0,
        "l1twice: L0CacheHit is 50% of the load sectors (within 1 point)",
        Fmt("%.3f%%, expected %.3f%% (stores as misses) .. 50%%", value(kL1Twice, "L0CacheHit"), twice_expected));
  // flat: per warp, 1 generic store + kFlatLoads generic loads to shared memory, kFlatLoads loads + 1 store to global.
  const double flat_expected = kFlatLoads + 1.0;
  Check(value(kFlat, "FlatLDSInsts") == flat_expected && value(kFlat, "FlatVMemInsts") == flat_expected,
        "flat: FlatLDSInsts = FlatVMemInsts = 64 generic loads + 1 generic store per warp, exactly",
        Fmt("FlatLDSInsts %.4f, FlatVMemInsts %.4f, designed %.0f", value(kFlat, "FlatLDSInsts"),
            value(kFlat, "FlatVMemInsts"), flat_expected));
  Check(value(kFlat, "LDSInsts") == 0.0 && value(kFlat, "VFetchInsts") == 0.0 && value(kFlat, "VWriteInsts") == 0.0,
        "flat: no LDS/STS, LDG or STG (LDSInsts, VFetchInsts, VWriteInsts 0)",
        Fmt("LDSInsts %.4f, VFetchInsts %.4f, VWriteInsts %.4f", value(kFlat, "LDSInsts"), value(kFlat, "VFetchInsts"),
            value(kFlat, "VWriteInsts")));
  Check(value(kBank8, "FlatLDSInsts") == 0.0 && value(kBank1, "FlatLDSInsts") == 0.0 &&
            value(kCopy, "FlatVMemInsts") == 0.0,
        "bank8/bank1 (LDS only): FlatLDSInsts 0; copy (LDG/STG only): FlatVMemInsts 0",
        Fmt("%.4f, %.4f, %.4f", value(kBank8, "FlatLDSInsts"), value(kBank1, "FlatLDSInsts"),
            value(kCopy, "FlatVMemInsts")));
}

void CheckComputeTable(GpaContextId context, Buffers& buffers, const std::string& results) {
  const std::vector<std::string>& counters = ComputeTableCounters();
  const auto kernels = TruthKernels();
  const SessionResult result = RunSession(context, counters, TruthSamples(buffers));
  std::printf("compute-table session: %zu counters, %u passes\n", counters.size(), result.passes);
  std::ofstream csv(results + "/gpa_derived.csv");
  csv << "kernel,counter,value\n";
  for (size_t s = 0; s < kernels.size(); ++s) {
    for (size_t c = 0; c < counters.size(); ++c) {
      char text[64];
      std::snprintf(text, sizeof(text), "%.17g", result.values[s][c]);
      csv << kernels[s].name << "," << counters[c] << "," << text << "\n";
    }
  }
  std::printf("%-20s", "counter");
  for (const TruthKernel& k : kernels) std::printf("%15s", k.name);
  std::printf("\n");
  for (size_t c = 0; c < counters.size(); ++c) {
    std::printf("%-20s", counters[c].c_str());
    for (size_t s = 0; s < kernels.size(); ++s) std::printf("%15.7g", result.values[s][c]);
    std::printf("\n");
  }
  auto value = [&](size_t sample, const char* counter) {
    const size_t c = std::find(counters.begin(), counters.end(), counter) - counters.begin();
    return result.values[sample][c];
  };
  enum { kCopy = 0, kFfma = 1, kBank8 = 2, kBank1 = 3, kDiverge = 6, kL1Reuse = 7, kL1Twice = 8, kFlat = 9 };
  // copy: every thread moves whole float4s, warps stay full (the grid stride is a multiple of 32), so the
  // warp-level global loads and stores are the vectors / 32, spread over the launched warps.
  const double copy_warps = kCopyBlocks * (kCopyThreads / 32.0);
  const double copy_per_warp = (static_cast<double>(kCopyVectors) / 32) / copy_warps;
  Check(RelativeDifference(value(kCopy, "VFetchInsts"), copy_per_warp) < 1e-9 &&
            RelativeDifference(value(kCopy, "VWriteInsts"), copy_per_warp) < 1e-9,
        "copy: VFetchInsts = VWriteInsts = (vectors / 32) / warps exactly",
        Fmt("%.6f / %.6f per warp, expected %.6f", value(kCopy, "VFetchInsts"), value(kCopy, "VWriteInsts"),
            copy_per_warp));
  Check(value(kCopy, "Wavefronts") == copy_warps, "copy: Wavefronts is the launch's warps",
        Fmt("%.0f, launched %.0f", value(kCopy, "Wavefronts"), copy_warps));
  // ffma: one global store per thread, no load; the loop is iterations * 4 FFMAs, plus loop overhead.
  Check(value(kFfma, "VWriteInsts") == 1.0 && value(kFfma, "VFetchInsts") == 0.0,
        "ffma: VWriteInsts = 1 (one store per thread) and VFetchInsts = 0",
        Fmt("VWriteInsts %.6f, VFetchInsts %.6f", value(kFfma, "VWriteInsts"), value(kFfma, "VFetchInsts")));
  const double ffmas_per_warp = static_cast<double>(kFfmaIterations) * kFfmaChains;
  Check(value(kFfma, "VALUInsts") >= ffmas_per_warp && value(kFfma, "VALUInsts") < ffmas_per_warp * 1.25,
        "ffma: VALUInsts is the loop's iterations*4 FFMAs per warp plus < 25% loop overhead",
        Fmt("%.2f per warp, %.0f FFMAs", value(kFfma, "VALUInsts"), ffmas_per_warp));
  Check(std::fabs(value(kFfma, "VALUUtilization") - 100.0) < 0.01, "ffma: VALUUtilization 100% (no divergence)",
        Fmt("%.4f%%", value(kFfma, "VALUUtilization")));
  const double diverge_expected = 100.0 * kDivergeActiveLanes / 32;
  Check(value(kDiverge, "VALUUtilization") >= diverge_expected - 0.01 &&
            value(kDiverge, "VALUUtilization") < diverge_expected * 1.05,
        "diverge: VALUUtilization is 8 of 32 lanes = 25% (+ < 5% from the full-warp prologue)",
        Fmt("%.4f%%", value(kDiverge, "VALUUtilization")));
  Check(value(kFfma, "VALUBusy") > 50.0 && value(kFfma, "VALUBusy") <= 100.0 &&
            value(kCopy, "VALUBusy") < value(kFfma, "VALUBusy"),
        "ffma: VALUBusy > 50% (FMA-bound) and above the copy's",
        Fmt("ffma %.2f%%, copy %.2f%%", value(kFfma, "VALUBusy"), value(kCopy, "VALUBusy")));
  // bank kernels: 512 shared loads per thread plus 4 stores filling the 1024-word array (256 threads).
  const double lds_per_warp = kBankLoads + (32.0 * 32) / kBankThreads;
  for (int s : {kBank8, kBank1}) {
    Check(value(s, "LDSInsts") >= lds_per_warp && value(s, "LDSInsts") < lds_per_warp * 1.01,
          std::string(kernels[s].name) + ": LDSInsts is 512 loads + 4 stores per warp (+ < 1%)",
          Fmt("%.4f per warp, designed %.0f", value(s, "LDSInsts"), lds_per_warp));
  }
  Check(value(kBank8, "LDSBankConflict") > 10.0 && value(kBank1, "LDSBankConflict") < 1.0,
        "bank8: LDSBankConflict > 10% of cycles; bank1 (no conflicts) < 1%",
        Fmt("bank8 %.3f%%, bank1 %.4f%%", value(kBank8, "LDSBankConflict"), value(kBank1, "LDSBankConflict")));
  Check(value(kFfma, "LDSInsts") == 0.0 && value(kFfma, "LDSBankConflict") == 0.0,
        "ffma: no shared-memory instructions",
        Fmt("LDSInsts %.4f, LDSBankConflict %.4f%%", value(kFfma, "LDSInsts"), value(kFfma, "LDSBankConflict")));
  Check(RelativeDifference(value(kCopy, "FetchSize"), kCopyBytes / 1024.0) < 0.02,
        "copy: FetchSize 262144 KB (256 MiB) within 2%", Fmt("%.1f KB", value(kCopy, "FetchSize")));
  Check(value(kCopy, "MemUnitStalled") > value(kFfma, "MemUnitStalled"),
        "copy (memory-bound) stalls the memory unit more than ffma",
        Fmt("copy %.3f%%, ffma %.4f%%", value(kCopy, "MemUnitStalled"), value(kFfma, "MemUnitStalled")));
  CheckCacheAndFlat(value);
}

// The raw metrics compared with ncu; written to gpa_raw.csv.
const std::vector<std::string>& RawMetrics() {
  static const std::vector<std::string> metrics{
      "dram__bytes_read.sum", "dram__bytes_write.sum", "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum",
      "smsp__inst_executed.sum", "smsp__warps_launched.sum", "smsp__thread_inst_executed.sum",
      "smsp__inst_executed_op_shared_ld.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
      "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
      "lts__t_requests.sum", "lts__t_sectors.sum", "lts__t_sector_hit_rate.pct", "lts__t_request_hit_rate.pct",
      "gpu__time_duration.sum",
      // the metrics of the compute-table counters (ComputeTableCounters), so that run.sh can evaluate their
      // formulas over ncu's values
      "smsp__inst_executed_pipe_alu.sum", "smsp__inst_executed_pipe_fma.sum", "smsp__inst_executed_pipe_fp64.sum",
      "smsp__inst_executed_pipe_xu.sum", "smsp__inst_executed_pipe_uniform.sum", "smsp__inst_executed_op_global_ld.sum",
      "smsp__inst_executed_op_global_st.sum", "smsp__thread_inst_executed_pipe_alu_pred_on.sum",
      "smsp__thread_inst_executed_pipe_fma_pred_on.sum", "smsp__thread_inst_executed_pipe_fp64_pred_on.sum",
      "smsp__thread_inst_executed_pipe_xu_pred_on.sum", "smsp__cycles_elapsed.sum",
      "smsp__inst_executed_op_shared_st.sum", "smsp__inst_executed_op_shared_atom.sum",
      "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum", "l1tex__cycles_elapsed.sum",
      "smsp__warps_issue_stalled_mio_throttle.sum", "smsp__warps_active.sum",
      "l1tex__m_l1tex2xbar_req_cycles_stalled.sum", "l1tex__t_sector_hit_rate.pct",
      // FlatVMemInsts and FlatLDSInsts
      "smsp__inst_executed_op_generic_ld.sum", "smsp__inst_executed_op_generic_st.sum",
      "smsp__sass_inst_executed_op_shared_ld.sum", "smsp__sass_inst_executed_op_shared_st.sum",
      "smsp__sass_inst_executed_op_shared_atom.sum"};
  return metrics;
}

void CheckRawMetrics(GpaContextId context, Buffers& buffers, const std::string& results) {
  const auto kernels = TruthKernels();
  const SessionResult result = RunSession(context, RawMetrics(), TruthSamples(buffers));
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
        Fmt("%.3f (requests: %.3f)", result.values[4][12], result.values[4][13]));
}

// >= 8 passes, 1000 samples per pass, against one session per counter.
void CheckMultiPass(GpaContextId context, Buffers& buffers) {
  // Counts that do not depend on timing (not the FMA heavy/lite split, which the scheduler picks at run time).
  const std::vector<std::string> candidates{
      "smsp__inst_executed.sum", "smsp__thread_inst_executed.sum", "smsp__warps_launched.sum",
      "smsp__inst_executed_pipe_fma.sum", "smsp__inst_executed_pipe_alu.sum", "smsp__inst_executed_pipe_lsu.sum",
      "smsp__inst_executed_pipe_cbu.sum", "smsp__inst_executed_pipe_adu.sum", "smsp__inst_executed_pipe_uniform.sum",
      "smsp__inst_executed_pipe_xu.sum", "smsp__inst_executed_op_global_ld.sum", "smsp__inst_executed_op_global_st.sum",
      "smsp__inst_executed_op_shared_ld.sum", "smsp__inst_executed_op_shared_st.sum",
      "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", "smsp__sass_thread_inst_executed_op_integer_pred_on.sum",
      "smsp__sass_thread_inst_executed_op_memory_pred_on.sum", "smsp__sass_thread_inst_executed_op_control_pred_on.sum",
      "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
      "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
      "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
      // Not sm__inst_executed_pipe_adu: on the H100 it read 384 in one session and 392 in another for the same
      // launch (1 sample in 1000), while smsp__inst_executed_pipe_adu agreed everywhere.
      "sm__inst_executed_pipe_alu.sum", "sm__inst_executed_pipe_cbu.sum", "sm__inst_executed_pipe_fma.sum",
      "sm__inst_executed_pipe_fma_type_fp16.sum", "sm__inst_executed_pipe_fp64.sum", "sm__inst_executed_pipe_ipa.sum",
      "sm__inst_executed_pipe_lsu.sum", "sm__inst_executed_pipe_lsu_mem_lg_cmd_read.sum",
      "sm__inst_executed_pipe_lsu_mem_shared_cmd_read.sum", "sm__inst_executed_pipe_lsu_ops_generic_cmd_read.sum",
      "sm__inst_executed_pipe_tensor.sum", "sm__inst_executed_pipe_tensor_op_dmma.sum",
      "sm__inst_executed_pipe_tensor_op_gmma.sum", "sm__inst_executed_pipe_tensor_op_hmma.sum",
      "sm__inst_executed_pipe_uniform.sum", "sm__inst_executed_pipe_xu.sum", "sm__warps_launched.sum",
      "sm__ctas_launched.sum", "smsp__threads_launched.sum"};
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
  std::vector<Sample> samples;
  for (int i = 0; i < kSamples; ++i) {
    const int blocks = 1 + i % 7;
    const int iterations = 1 + (i * 13) % 97;
    samples.push_back(
        {[&buffers, blocks, iterations] { mix_kernel<<<blocks, 256>>>(buffers.mix_in, buffers.mix_out, iterations); },
         {}});
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
    int differ = 0;
    for (int s = 0; s < kSamples; ++s) {
      const double d = RelativeDifference(multi.values[s][c], single.values[s][0]);
      if (d > 1e-9) ++mismatches, ++differ;
      if (d > worst) {
        worst = d;
        worst_name = counters[c] + " sample " + std::to_string(s) + ": " + std::to_string(multi.values[s][c]) + " vs " +
                     std::to_string(single.values[s][0]);
      }
    }
    std::printf("  %-56s sample 0: %12.0f  sample 999: %12.0f  differing samples: %d\n", counters[c].c_str(),
                multi.values[0][c], multi.values[kSamples - 1][c], differ);
  }
  Check(mismatches == 0, "every sample of the multi-pass session equals the single-counter sessions' value",
        std::to_string(counters.size() * kSamples) + " values, " + std::to_string(mismatches) + " differ" +
            (worst > 0 ? "; worst " + worst_name : ""));
  bool varied = false;
  for (int s = 1; s < kSamples; ++s) varied = varied || multi.values[s][0] != multi.values[0][0];
  Check(varied && multi.values[0][0] > 0, "samples differ from each other (the check can fail)",
        Fmt("sample 0: %.0f, sample 1: %.0f", multi.values[0][0], multi.values[1][0]));
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

// CPU cost of GpaBeginSample + GpaEndSample (the launch between them is not timed), on a context that
// reserves `capacity` samples per pass.
void MeasureSampleCost(CUcontext cu, GpaUInt32 capacity, Buffers& buffers, std::ofstream& report) {
  GpaCudaContextOpenInfo info = GPA_CUDA_CONTEXT_OPEN_INFO_INIT;
  info.context = cu;
  info.max_samples_per_pass = capacity;
  GpaContextId context = nullptr;
  GPA_OK(GpaOpenContext(&info, kGpaOpenContextDefaultBit, &context));
  GpaSessionId session = nullptr;
  GPA_OK(GpaCreateSession(context, kGpaSessionSampleTypeDiscreteCounter, &session));
  for (const char* c : {"GPUTime", "Wavefronts", "FetchSize", "L2CacheHit"}) GPA_OK(GpaEnableCounterByName(session, c));
  GpaUInt32 passes = 0;
  GPA_OK(GpaGetPassCount(session, &passes));
  const auto t0 = Clock::now();
  GPA_OK(GpaBeginSession(session));
  const auto t1 = Clock::now();
  const GpaUInt32 samples = std::min<GpaUInt32>(capacity, 1000);
  std::vector<double> begin_ns, end_ns, pair_ns;
  for (GpaUInt32 pass = 0; pass < passes; ++pass) {
    GpaCommandListId list = nullptr;
    GPA_OK(GpaBeginCommandList(session, pass, GPA_NULL_COMMAND_LIST, kGpaCommandListNone, &list));
    for (GpaUInt32 id = 0; id < samples; ++id) {
      auto a = Clock::now();
      GPA_OK(GpaBeginSample(id, list));
      auto b = Clock::now();
      mix_kernel<<<1, 256>>>(buffers.mix_in, buffers.mix_out, 4);
      auto c = Clock::now();
      GPA_OK(GpaEndSample(list));
      auto d = Clock::now();
      begin_ns.push_back(std::chrono::duration<double, std::nano>(b - a).count());
      end_ns.push_back(std::chrono::duration<double, std::nano>(d - c).count());
      pair_ns.push_back(begin_ns.back() + end_ns.back());
    }
    GPA_OK(GpaEndCommandList(list));
  }
  const auto t2 = Clock::now();
  GPA_OK(GpaEndSession(session));
  const auto t3 = Clock::now();
  GPA_OK(GpaDeleteSession(session));
  GPA_OK(GpaCloseContext(context));
  auto ms = [](Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
  };
  char line[512];
  std::snprintf(line, sizeof(line),
                "capacity %u samples/pass, %u samples, %u pass: GpaBeginSample median %.1f us, GpaEndSample median "
                "%.1f us, pair median %.1f us; GpaBeginSession %.1f ms, recording %.1f ms, GpaEndSession %.1f ms",
                capacity, samples, passes, Median(begin_ns) / 1e3, Median(end_ns) / 1e3, Median(pair_ns) / 1e3,
                ms(t0, t1), ms(t1, t2), ms(t2, t3));
  std::printf("overhead: %s\n", line);
  report << "sample_cost: " << line << "\n";
}

void CheckOverhead(CUcontext cu, GpaContextId context, Buffers& buffers, std::ofstream& report) {
  for (GpaUInt32 capacity : {64u, 256u, 1024u}) MeasureSampleCost(cu, capacity, buffers, report);

  // Profiled vs unprofiled wall time of the truth workload (5 kernels) repeated 10 times, 1 sample per kernel.
  const std::vector<std::string> defaults{"GPUTime",   "GPUBusy",   "Wavefronts", "IPC",
                                          "FetchSize", "WriteSize", "L0CacheHit", "L2CacheHit"};
  const auto truth = TruthSamples(buffers);
  auto workload = [&] {
    for (int r = 0; r < 10; ++r) {
      for (const Sample& sample : truth) {
        if (sample.prepare) sample.prepare();
        sample.run();
      }
    }
  };
  workload();
  CUDA_OK(cudaDeviceSynchronize());
  std::vector<double> plain;
  for (int rep = 0; rep < 5; ++rep) {
    const auto t0 = Clock::now();
    workload();
    CUDA_OK(cudaDeviceSynchronize());
    plain.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
  }
  std::vector<Sample> samples;
  for (int r = 0; r < 10; ++r) samples.insert(samples.end(), truth.begin(), truth.end());
  std::vector<double> whole, record, begin, end;
  GpaUInt32 passes = 0;
  for (int rep = 0; rep < 5; ++rep) {
    Phases phases;
    const SessionResult r = RunSession(context, defaults, samples, &phases);
    whole.push_back(r.wall_seconds * 1e3);
    record.push_back(phases.record_ms);
    begin.push_back(phases.begin_session_ms);
    end.push_back(phases.end_session_ms);
    passes = r.passes;
  }
  char line[512];
  std::snprintf(line, sizeof(line),
                "workload of 50 kernels: unprofiled %.2f ms; profiled (%u pass, 50 samples) recording %.2f ms (x%.2f), "
                "GpaBeginSession %.1f ms, GpaEndSession %.1f ms, whole session %.1f ms (x%.1f); medians of 5",
                Median(plain), passes, Median(record), Median(record) / Median(plain), Median(begin), Median(end),
                Median(whole), Median(whole) / Median(plain));
  std::printf("overhead: %s\n", line);
  report << "workload_wall: " << line << "\n";
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

// A crash prints the stack (addresses inside libGPUPerfAPICUDA.so map to functions with nm on its build).
void PrintStackAndExit(int signal_number) {
  void* frames[64];
  const int count = backtrace(frames, 64);
  std::fprintf(stderr, "signal %d; stack:\n", signal_number);
  backtrace_symbols_fd(frames, count, STDERR_FILENO);
  _exit(128 + signal_number);
}

int main(int argc, char** argv) {
  signal(SIGSEGV, PrintStackAndExit);
  signal(SIGABRT, PrintStackAndExit);
  std::string results = ".";
  bool workload_only = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--workload") == 0) workload_only = true;
    if (std::strcmp(argv[i], "--results") == 0 && i + 1 < argc) results = argv[++i];
  }
  CUcontext cu = CurrentContext();
  Buffers buffers;
  if (workload_only) {
    for (const TruthKernel& k : TruthKernels()) {
      if (k.prepare) k.prepare(buffers);
      k.launch(buffers);
    }
    CUDA_OK(cudaDeviceSynchronize());
    return 0;
  }

  GPA_OK(GpaRegisterLoggingCallback(kGpaLoggingErrorAndMessage, &CaptureLog));
  GPA_OK(GpaInitialize(kGpaInitializeDefaultBit));
  GpaContextId context = OpenContext(cu, kGpaOpenContextDefaultBit);
  CheckDevice(context);
  std::ofstream table(results + "/gpa_counters.csv");
  CheckCatalogCounters(context, buffers, table);
  CheckComputeTable(context, buffers, results);
  CheckMisuse(context, buffers);
  std::ofstream report(results + "/overhead.txt");
  CheckOverhead(cu, context, buffers, report);
  GPA_OK(GpaCloseContext(context));

  GpaContextId raw = OpenContext(cu, kGpaOpenContextEnableHardwareCountersBit, 1024);  // 1000 samples per pass
  CheckRawMetrics(raw, buffers, results);
  CheckMultiPass(raw, buffers);
  GPA_OK(GpaCloseContext(raw));
  GPA_OK(GpaDestroy());
  std::printf("failures: %d\n", g_failures);
  return g_failures;
}
