// Device check of GPUTime and the per-time ratios (catalogs/cuda.json, docs/cuda.md "Time base"): a GPA sample
// must measure its own work, not the CUPTI range around it. Kernels of 5 us to 10 ms (full-grid FFMA loops),
// a DRAM-bound copy and a latency-bound single warp are profiled through libGPUPerfAPICUDA.so, one sample each,
// in every rotation of the launch order (each kernel once first in the pass, once in every other position),
// plus multi-kernel samples (back to back; with a 300 us host gap between the kernels), a sample whose kernel
// comes 300 us after GpaBeginSample, an empty sample and copy-engine samples (informational). A warm-up session
// (rotation -1) comes first and is printed, not checked.
// Truth: ncu's gpu__time_duration of the same launches (--workload launches each once, run under ncu by
// run.sh) and cudaEvent medians measured here without the profiler.
//   gputime_device_check --workload                   each kernel once (for ncu)
//   gputime_device_check [--ncu-csv FILE] [--csv FILE]  the GPA measurement, checks against ncu
// Every check prints PASS/FAIL; the exit code is the number of failures.
#include <cuda.h>
#include <cuda_runtime.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "gpu_performance_api/gpu_perf_api.h"
#include "gpu_performance_api/gpu_perf_api_cuda.h"

#define CUDA_OK(call)                                                                              \
  do {                                                                                             \
    cudaError_t e_ = (call);                                                                       \
    if (e_ != cudaSuccess) {                                                                       \
      std::fprintf(stderr, "%s: %s (%s:%d)\n", #call, cudaGetErrorString(e_), __FILE__, __LINE__); \
      std::exit(100);                                                                              \
    }                                                                                              \
  } while (0)
#define GPA_OK(call)                                                                              \
  do {                                                                                            \
    GpaStatus s_ = (call);                                                                        \
    if (s_ != kGpaStatusOk) {                                                                     \
      std::fprintf(stderr, "%s: %s (%s:%d)\n", #call, GpaGetStatusAsStr(s_), __FILE__, __LINE__); \
      std::exit(101);                                                                             \
    }                                                                                             \
  } while (0)

namespace {

int g_failures = 0;
void Check(bool ok, const std::string& what, const std::string& detail) {
  std::printf("%s  %-70s %s\n", ok ? "PASS" : "FAIL", what.c_str(), detail.c_str());
  if (!ok) ++g_failures;
}
template <typename... Args>
std::string Format(const char* format, Args... args) {
  char buffer[512];
  std::snprintf(buffer, sizeof(buffer), format, args...);
  return buffer;
}

__global__ void FfmaLoop(float* out, int iterations, float m, float k) {
  const float seed = static_cast<float>(threadIdx.x) * 1e-3f;
  float a0 = seed, a1 = seed + 1, a2 = seed + 2, a3 = seed + 3, a4 = seed + 4, a5 = seed + 5, a6 = seed + 6,
        a7 = seed + 7;
  for (int it = 0; it < iterations; ++it) {
#pragma unroll
    for (int u = 0; u < 16; ++u) {
      a0 = fmaf(a0, m, k);
      a1 = fmaf(a1, m, k);
      a2 = fmaf(a2, m, k);
      a3 = fmaf(a3, m, k);
      a4 = fmaf(a4, m, k);
      a5 = fmaf(a5, m, k);
      a6 = fmaf(a6, m, k);
      a7 = fmaf(a7, m, k);
    }
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;
}

__global__ void Copy(const float4* __restrict__ in, float4* __restrict__ out, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    out[i] = in[i];
  }
}

// One kernel launch. FFMA iterations are fixed numbers (not calibrated at run time) so that the launches
// ncu profiles are the same as the ones GPA profiles.
struct Kernel {
  const char* label;
  bool copy;
  int blocks;
  int threads;
  int iterations;
};

struct Buffers {
  float* results = nullptr;
  float4* in = nullptr;
  float4* out = nullptr;
  std::size_t count = 0;
  void* host = nullptr;
};

std::vector<Kernel> Kernels(int sm_count) {
  const int full = sm_count * 8;  // 8 blocks of 256 threads per SM: one full wave on sm_90
  return {{"ffma_5us", false, full, 256, 3},     {"ffma_20us", false, full, 256, 17},
          {"ffma_100us", false, full, 256, 93},  {"ffma_1ms", false, full, 256, 940},
          {"ffma_10ms", false, full, 256, 9400}, {"copy_1GiB", true, full, 256, 0},
          {"onewarp_75us", false, 1, 32, 1000}};
}

void Launch(const Kernel& k, const Buffers& b) {
  if (k.copy) {
    Copy<<<k.blocks, k.threads>>>(b.in, b.out, b.count);
  } else {
    FfmaLoop<<<k.blocks, k.threads>>>(b.results, k.iterations, 0.9999f, 1e-4f);
  }
  CUDA_OK(cudaGetLastError());
}

// --- ncu CSV (details page, --print-units base) ---
std::vector<std::string> SplitCsv(const std::string& line) {
  std::vector<std::string> fields;
  std::string field;
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.push_back(field);
      field.clear();
    } else if (c != '\r') {
      field += c;
    }
  }
  fields.push_back(field);
  return fields;
}

// values[launch ID][metric]
std::map<int, std::map<std::string, double>> ReadNcu(const std::string& path) {
  std::map<int, std::map<std::string, double>> values;
  std::ifstream file(path);
  std::string line;
  int id = -1, metric = -1, value = -1;
  while (std::getline(file, line)) {
    if (line.empty() || line[0] != '"') continue;
    const std::vector<std::string> f = SplitCsv(line);
    if (id < 0) {
      for (int i = 0; i < static_cast<int>(f.size()); ++i) {
        if (f[i] == "ID") id = i;
        if (f[i] == "Metric Name") metric = i;
        if (f[i] == "Metric Value") value = i;
      }
      continue;
    }
    if (static_cast<int>(f.size()) <= std::max({id, metric, value})) continue;
    std::string number;
    for (char c : f[value]) {
      if (c != ',') number += c;
    }
    values[std::atoi(f[id].c_str())][f[metric]] = std::strtod(number.c_str(), nullptr);
  }
  return values;
}

const char* const kCounters[] = {"GPUTime", "ExecutionDuration", "GPUBusy", "SMBusy", "DRAMThroughput"};
constexpr int kCounterCount = sizeof(kCounters) / sizeof(kCounters[0]);

struct Sample {
  std::string label;
  int rotation;
  int position;
  double values[kCounterCount];
};

}  // namespace

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  std::string ncu_path, csv_path;
  bool workload = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--workload")
      workload = true;
    else if (arg == "--ncu-csv" && i + 1 < argc)
      ncu_path = argv[++i];
    else if (arg == "--csv" && i + 1 < argc)
      csv_path = argv[++i];
    else {
      std::fprintf(stderr, "usage: %s [--ncu-csv FILE] [--csv FILE] | --workload\n", argv[0]);
      return 2;
    }
  }
  int sm_count = 0;
  CUDA_OK(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, 0));
  const std::vector<Kernel> kernels = Kernels(sm_count);
  const int n = static_cast<int>(kernels.size());
  Buffers b;
  b.count = (std::size_t(1) << 30) / sizeof(float4);  // 1 GiB each way: 20x the H100's L2
  CUDA_OK(cudaMalloc(&b.results, sizeof(float) * sm_count * 8 * 256));
  CUDA_OK(cudaMalloc(&b.in, b.count * sizeof(float4)));
  CUDA_OK(cudaMalloc(&b.out, b.count * sizeof(float4)));
  CUDA_OK(cudaMemset(b.in, 1, b.count * sizeof(float4)));
  CUDA_OK(cudaMallocHost(&b.host, std::size_t(64) << 20));
  std::memset(b.host, 1, std::size_t(64) << 20);
  CUDA_OK(cudaDeviceSynchronize());
  if (workload) {  // ncu: each kernel once, in the order of Kernels()
    for (const Kernel& k : kernels) Launch(k, b);
    CUDA_OK(cudaDeviceSynchronize());
    return 0;
  }
  for (const Kernel& k : kernels) Launch(k, b);  // warm-up
  CUDA_OK(cudaDeviceSynchronize());

  // cudaEvent medians, no profiler.
  std::vector<double> event_us(n);
  cudaEvent_t e0, e1;
  CUDA_OK(cudaEventCreate(&e0));
  CUDA_OK(cudaEventCreate(&e1));
  for (int i = 0; i < n; ++i) {
    std::vector<float> t;
    for (int r = 0; r < 9; ++r) {
      CUDA_OK(cudaEventRecord(e0));
      Launch(kernels[i], b);
      CUDA_OK(cudaEventRecord(e1));
      CUDA_OK(cudaEventSynchronize(e1));
      float ms = 0;
      CUDA_OK(cudaEventElapsedTime(&ms, e0, e1));
      t.push_back(ms * 1000);
    }
    std::sort(t.begin(), t.end());
    event_us[i] = t[4];
  }

  GPA_OK(GpaInitialize(kGpaInitializeDefaultBit));
  GpaCudaContextOpenInfo info = GPA_CUDA_CONTEXT_OPEN_INFO_INIT;
  if (cuCtxGetCurrent(&info.context) != CUDA_SUCCESS || info.context == nullptr) return 102;
  info.max_samples_per_pass = 16;
  GpaContextId context = nullptr;
  GPA_OK(GpaOpenContext(&info, kGpaOpenContextDefaultBit, &context));

  const Kernel& k100 = kernels[2];
  std::vector<Sample> samples;
  // Rotation -1 is a warm-up session, printed and not checked: in two runs the first GPA session of the process
  // had one sample after a host sleep 3.8-4.5 us over (the kernel itself ran slower: SMBusy 94 instead of 97).
  for (int rotation = -1; rotation < n; ++rotation) {
    GpaSessionId session = nullptr;
    GPA_OK(GpaCreateSession(context, kGpaSessionSampleTypeDiscreteCounter, &session));
    for (const char* name : kCounters) GPA_OK(GpaEnableCounterByName(session, name));
    GpaUInt32 passes = 0;
    GPA_OK(GpaGetPassCount(session, &passes));
    GPA_OK(GpaBeginSession(session));
    std::vector<std::string> labels;
    for (GpaUInt32 pass = 0; pass < passes; ++pass) {
      GpaCommandListId list = nullptr;
      GPA_OK(GpaBeginCommandList(session, pass, GPA_NULL_COMMAND_LIST, kGpaCommandListNone, &list));
      labels.clear();
      GpaUInt32 id = 0;
      for (int i = 0; i < n; ++i) {
        const Kernel& k = kernels[(i + std::max(rotation, 0)) % n];
        GPA_OK(GpaBeginSample(id++, list));
        Launch(k, b);
        GPA_OK(GpaEndSample(list));
        labels.push_back(k.label);
      }
      GPA_OK(GpaBeginSample(id++, list));
      Launch(k100, b);
      Launch(k100, b);
      GPA_OK(GpaEndSample(list));
      labels.push_back("2x ffma_100us back to back");
      GPA_OK(GpaBeginSample(id++, list));
      Launch(k100, b);
      CUDA_OK(cudaDeviceSynchronize());
      usleep(300);
      Launch(k100, b);
      GPA_OK(GpaEndSample(list));
      labels.push_back("2x ffma_100us, 300 us host gap");
      GPA_OK(GpaBeginSample(id++, list));
      usleep(300);
      Launch(k100, b);
      GPA_OK(GpaEndSample(list));
      labels.push_back("300 us host sleep, ffma_100us");
      GPA_OK(GpaBeginSample(id++, list));
      GPA_OK(GpaEndSample(list));
      labels.push_back("empty");
      GPA_OK(GpaBeginSample(id++, list));
      CUDA_OK(cudaMemcpy(b.out, b.in, std::size_t(256) << 20, cudaMemcpyDeviceToDevice));
      GPA_OK(GpaEndSample(list));
      labels.push_back("cudaMemcpy D2D 256 MiB");
      GPA_OK(GpaBeginSample(id++, list));
      CUDA_OK(cudaMemcpy(b.out, b.host, std::size_t(64) << 20, cudaMemcpyHostToDevice));
      GPA_OK(GpaEndSample(list));
      labels.push_back("cudaMemcpy H2D 64 MiB pinned");
      GPA_OK(GpaEndCommandList(list));
    }
    GPA_OK(GpaEndSession(session));
    GpaStatus complete = kGpaStatusResultNotReady;
    while (complete == kGpaStatusResultNotReady) complete = GpaIsSessionComplete(session);
    GPA_OK(complete);
    for (std::size_t s = 0; s < labels.size(); ++s) {
      GpaUInt64 raw[kCounterCount] = {};
      GPA_OK(GpaGetSampleResult(session, static_cast<GpaUInt32>(s), sizeof(raw), raw));
      Sample sample{labels[s], rotation, static_cast<int>(s), {}};
      for (int e = 0; e < kCounterCount; ++e) {
        GpaUInt32 index = 0;
        GpaDataType type = kGpaDataTypeUint64;
        const char* name = nullptr;
        GPA_OK(GpaGetEnabledIndex(session, e, &index));
        GPA_OK(GpaGetCounterDataType(context, index, &type));
        GPA_OK(GpaGetCounterName(context, index, &name));
        double v = 0;
        if (type == kGpaDataTypeUint64)
          v = static_cast<double>(raw[e]);
        else
          std::memcpy(&v, &raw[e], 8);
        for (int c = 0; c < kCounterCount; ++c) {
          if (std::strcmp(name, kCounters[c]) == 0) sample.values[c] = v;
        }
      }
      samples.push_back(sample);
    }
    std::printf("rotation %d: %u pass(es), first in pass: %s\n", rotation, passes,
                kernels[std::max(rotation, 0)].label);
    GpaDeleteSession(session);
  }
  GpaCloseContext(context);
  GpaDestroy();

  std::map<int, std::map<std::string, double>> ncu;
  if (!ncu_path.empty()) ncu = ReadNcu(ncu_path);
  std::vector<int> ids;
  for (const auto& entry : ncu) ids.push_back(entry.first);
  if (!ncu_path.empty())
    Check(static_cast<int>(ids.size()) == n, "ncu profiled one launch per kernel", Format("%zu", ids.size()));
  auto ncu_value = [&](int kernel, const char* metric) {
    if (kernel >= static_cast<int>(ids.size())) return std::nan("");
    auto& m = ncu[ids[kernel]];
    return m.count(metric) ? m[metric] : std::nan("");
  };
  auto index_of = [&](const std::string& label) {
    for (int i = 0; i < n; ++i) {
      if (label == kernels[i].label) return i;
    }
    return -1;
  };

  std::printf("\n%-32s %3s %3s %10s %10s %10s %9s %9s %8s %8s %8s %8s\n", "sample", "rot", "pos", "GPUTime", "truth",
              "GPUTime-t", "ExecDur-t", "event", "GPUBusy", "SMBusy", "ncuSM%", "DRAM%");
  std::FILE* csv = csv_path.empty() ? nullptr : std::fopen(csv_path.c_str(), "w");
  if (csv) {
    std::fprintf(csv, "sample,rotation,position");
    for (const char* c : kCounters) std::fprintf(csv, ",%s", c);
    std::fprintf(csv, ",truth_ns\n");
  }
  const double t100 = ncu_value(2, "gpu__time_duration.sum");
  for (const Sample& s : samples) {
    const int k = index_of(s.label);
    double truth = NAN;
    if (k >= 0)
      truth = ncu_value(k, "gpu__time_duration.sum");
    else if (s.label.rfind("2x", 0) == 0)
      truth = 2 * t100;
    else if (s.label.rfind("300 us", 0) == 0)
      truth = t100;
    const double gpu_time = s.values[0], duration = s.values[1];
    const double ncu_sm =
        k >= 0 ? 100 * ncu_value(k, "sm__cycles_active.avg") / ncu_value(k, "sm__cycles_elapsed.avg") : NAN;
    std::printf("%-32s %3d %3d %10.2f %10.2f %+10.2f %+9.2f %9.2f %8.2f %8.2f %8.2f %8.2f\n", s.label.c_str(),
                s.rotation, s.position, gpu_time / 1e3, truth / 1e3, (gpu_time - truth) / 1e3, (duration - truth) / 1e3,
                k >= 0 ? event_us[k] : NAN, s.values[2], s.values[3], ncu_sm, s.values[4]);
    if (csv) {
      std::fprintf(csv, "%s,%d,%d", s.label.c_str(), s.rotation, s.position);
      for (double v : s.values) std::fprintf(csv, ",%.3f", v);
      std::fprintf(csv, ",%.0f\n", truth);
    }
  }
  if (csv) std::fclose(csv);
  std::printf("\n");
  // The checks: GPUTime within 2% or 2 us of the work's own duration, in every position; SMBusy within 1 point
  // of ncu's for kernels of 1 ms and more; the DRAM-bound copy's DRAMThroughput within 1 point of ncu's.
  for (const Sample& s : samples) {
    const int k = index_of(s.label);
    double truth = NAN;
    if (k >= 0)
      truth = ncu_value(k, "gpu__time_duration.sum");
    else if (s.label.rfind("2x", 0) == 0)
      truth = 2 * t100;
    else if (s.label.rfind("300 us", 0) == 0)
      truth = t100;
    if (std::isnan(truth) || s.rotation < 0) continue;
    const double tolerance = std::max(0.02 * truth, 2000.0);
    Check(std::fabs(s.values[0] - truth) <= tolerance,
          Format("GPUTime %s (rotation %d, position %d)", s.label.c_str(), s.rotation, s.position),
          Format("%.2f us vs %.2f us (%+.2f, tolerance %.2f)", s.values[0] / 1e3, truth / 1e3,
                 (s.values[0] - truth) / 1e3, tolerance / 1e3));
    if (k >= 0 && truth >= 1e6 && !kernels[k].copy) {
      const double ncu_sm = 100 * ncu_value(k, "sm__cycles_active.avg") / ncu_value(k, "sm__cycles_elapsed.avg");
      Check(std::fabs(s.values[3] - ncu_sm) <= 1.0, Format("SMBusy %s (rotation %d)", s.label.c_str(), s.rotation),
            Format("%.2f vs ncu %.2f", s.values[3], ncu_sm));
    }
    if (k >= 0 && kernels[k].copy) {
      const double ncu_dram = ncu_value(k, "dram__throughput.avg.pct_of_peak_sustained_elapsed");
      Check(std::fabs(s.values[4] - ncu_dram) <= 1.0,
            Format("DRAMThroughput %s (rotation %d)", s.label.c_str(), s.rotation),
            Format("%.2f vs ncu %.2f", s.values[4], ncu_dram));
    }
  }
  std::printf("\n%d failure(s)\n", g_failures);
  return g_failures;
}
