// Device check of GPUTime and the per-time ratios (catalogs/cuda.json, docs/cuda.md "Time base"): a GPA sample
// must measure its own work, not the CUPTI range around it nor the front end's processing of the launch.
// Kernels of 5 us to 10 ms (full-grid FFMA loops), a DRAM-bound copy and a latency-bound single warp are profiled
// through libGPUPerfAPICUDA.so, one sample each, in every rotation of the launch order (each kernel once first
// in the pass, once in every other position) and once more on a non-blocking stream, plus multi-kernel samples
// (back to back; with a 300 us host gap between the kernels; 20 short launches of 1 and of 8 CTAs), a sample
// whose kernel comes 300 us after GpaBeginSample, an empty sample and copy-engine samples (informational). A
// warm-up session (rotation -1) comes first and is printed, not checked.
// Truth: the same launches' unprofiled durations from CUPTI's activity API (kernel_activity.h, medians of 9;
// what Nsight Systems shows). Printed beside it: ncu's gpu__time_duration of the same launches (--workload
// launches each once, run under ncu by run.sh), cudaEvent medians, the kernels' activity durations inside the
// GPA session, and the time base's parts (GR's busy time, the busiest SM's active time) from raw counters.
//   gputime_device_check --workload                   each kernel once (for ncu and opengpa profile)
//   gputime_device_check --describe                   the workload's kernels and their FFMA and byte counts (CSV)
//   gputime_device_check [--ncu-csv FILE] [--csv FILE]  the GPA measurement, checks against the truth
// Every check prints PASS/FAIL (INFO lines are not checks); the exit code is the number of failures.
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
#include "kernel_activity.h"

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
  return {{"ffma_5us", false, full, 256, 3},   {"ffma_20us", false, full, 256, 17},
          {"ffma_30us", false, full, 256, 26}, {"ffma_100us", false, full, 256, 93},
          {"ffma_1ms", false, full, 256, 940}, {"ffma_10ms", false, full, 256, 9400},
          {"copy_1GiB", true, full, 256, 0},   {"onewarp_75us", false, 1, 32, 1000}};
}

cudaStream_t g_stream = nullptr;  // the stream launches go to (the legacy default stream, or a non-blocking one)

// Launches `k`; returns 1, the number of kernels launched (the sample's count of activity records).
int Launch(const Kernel& k, const Buffers& b) {
  if (k.copy) {
    Copy<<<k.blocks, k.threads, 0, g_stream>>>(b.in, b.out, b.count);
  } else {
    FfmaLoop<<<k.blocks, k.threads, 0, g_stream>>>(b.results, k.iterations, 0.9999f, 1e-4f);
  }
  CUDA_OK(cudaGetLastError());
  return 1;
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

// The GPA counters checked, then raw CUPTI metrics (hardware counters) printed to the CSV: the time base's parts.
const char* const kCounters[] = {"GPUTime",
                                 "ExecutionDuration",
                                 "GPUBusy",
                                 "SMBusy",
                                 "DRAMThroughput",
                                 "gr__cycles_active.avg",
                                 "gr__cycles_elapsed.avg",
                                 "sm__cycles_active.max",
                                 "sm__cycles_elapsed.max",
                                 "gpu__time_duration.sum"};
constexpr int kCounterCount = sizeof(kCounters) / sizeof(kCounters[0]);

struct Sample {
  std::string label;
  int rotation;
  int position;
  double values[kCounterCount];
  int launches = 0;        // the sample's kernel launches of the sample's kernel launches
  double activity_ns = 0;  // their durations as CUPTI's activity API saw them, in the session
};

// Rotations 0..n-1 run on the legacy default stream; this one repeats rotation 0 on a non-blocking stream.
constexpr int kStreamRotationOffset = 100;
constexpr int kTinyRepeats = 20;
constexpr const char* kTinyPrefix = "20x ";

}  // namespace

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  std::string ncu_path, csv_path;
  bool workload = false, describe = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--workload")
      workload = true;
    else if (arg == "--describe")
      describe = true;
    else if (arg == "--ncu-csv" && i + 1 < argc)
      ncu_path = argv[++i];
    else if (arg == "--csv" && i + 1 < argc)
      csv_path = argv[++i];
    else {
      std::fprintf(stderr, "usage: %s [--ncu-csv FILE] [--csv FILE] | --workload | --describe\n", argv[0]);
      return 2;
    }
  }
  int sm_count = 0;
  CUDA_OK(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, 0));
  const std::vector<Kernel> kernels = Kernels(sm_count);
  const int n = static_cast<int>(kernels.size());
  constexpr std::size_t kCopyBytes = std::size_t(1) << 30;  // 1 GiB each way: 20x the H100's L2
  if (describe) {  // the workload's launches and what each must count (replay_check.py's truth)
    std::printf("label,blocks,threads,ffma_thread_instructions,bytes_read,bytes_written\n");
    for (const Kernel& k : kernels) {
      // FfmaLoop: 8 accumulators x 16 unrolled FFMAs per iteration in every thread; Copy: the buffers once.
      const double ffma = k.copy ? 0.0 : 128.0 * k.iterations * k.blocks * k.threads;
      std::printf("%s,%d,%d,%.0f,%zu,%zu\n", k.label, k.blocks, k.threads, ffma, k.copy ? kCopyBytes : 0,
                  k.copy ? kCopyBytes : 0);
    }
    return 0;
  }
  Buffers b;
  b.count = kCopyBytes / sizeof(float4);
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
  const bool activity = KernelActivity::Start({"FfmaLoop", "4Copy"});
  for (const Kernel& k : kernels) Launch(k, b);  // warm-up
  CUDA_OK(cudaDeviceSynchronize());

  // CUPTI activity medians, no profiler: each launch alone (synchronized), as an unprofiled program runs it.
  std::vector<double> activity_us(n, NAN);
  for (int i = 0; i < n && activity; ++i) {
    KernelActivity::Take();
    for (int r = 0; r < 9; ++r) {
      Launch(kernels[i], b);
      CUDA_OK(cudaDeviceSynchronize());
    }
    std::vector<double> t = KernelActivity::Take();
    if (t.size() != 9) {
      std::printf("CUPTI activity: %zu records for 9 launches of %s\n", t.size(), kernels[i].label);
      continue;
    }
    std::sort(t.begin(), t.end());
    activity_us[i] = t[4] / 1e3;
  }

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
  GPA_OK(GpaOpenContext(&info, kGpaOpenContextEnableHardwareCountersBit, &context));

  const Kernel& k100 = kernels[3];
  // Samples of many short launches back to back: one CTA each (which SMs the launches land on is the
  // scheduler's choice), and 8 CTAs each.
  const std::vector<Kernel> tiny_kernels = {{"tiny_1cta", false, 1, 32, 60}, {"tiny_8cta", false, 8, 256, 60}};
  std::vector<double> tiny_activity_us;
  for (const Kernel& tiny : tiny_kernels) {
    KernelActivity::Take();
    for (int r = 0; r < 9; ++r) {
      Launch(tiny, b);
      CUDA_OK(cudaDeviceSynchronize());
    }
    std::vector<double> t = KernelActivity::Take();
    std::sort(t.begin(), t.end());
    tiny_activity_us.push_back(t.size() == 9 ? t[4] / 1e3 : NAN);
  }
  std::vector<Sample> samples;
  // Rotation -1 is a warm-up session, printed and not checked: in two runs the first GPA session of the process
  // had one sample after a host sleep 3.8-4.5 us over (the kernel itself ran slower: SMBusy 94 instead of 97).
  cudaStream_t non_blocking = nullptr;
  CUDA_OK(cudaStreamCreateWithFlags(&non_blocking, cudaStreamNonBlocking));
  std::vector<int> rotations;
  for (int rotation = -1; rotation < n; ++rotation) rotations.push_back(rotation);
  rotations.push_back(kStreamRotationOffset);
  for (const int rotation : rotations) {
    g_stream = rotation >= kStreamRotationOffset ? non_blocking : nullptr;
    const int first = rotation >= kStreamRotationOffset ? 0 : std::max(rotation, 0);
    GpaSessionId session = nullptr;
    GPA_OK(GpaCreateSession(context, kGpaSessionSampleTypeDiscreteCounter, &session));
    for (const char* name : kCounters) GPA_OK(GpaEnableCounterByName(session, name));
    GpaUInt32 passes = 0;
    GPA_OK(GpaGetPassCount(session, &passes));
    GPA_OK(GpaBeginSession(session));
    std::vector<std::string> labels;
    std::vector<int> launches;  // per sample of the last pass: its kernel launches
    for (GpaUInt32 pass = 0; pass < passes; ++pass) {
      GpaCommandListId list = nullptr;
      GPA_OK(GpaBeginCommandList(session, pass, GPA_NULL_COMMAND_LIST, kGpaCommandListNone, &list));
      labels.clear();
      launches.clear();
      GpaUInt32 id = 0;
      for (int i = 0; i < n; ++i) {
        const Kernel& k = kernels[(i + first) % n];
        GPA_OK(GpaBeginSample(id++, list));
        launches.push_back(Launch(k, b));
        GPA_OK(GpaEndSample(list));
        labels.push_back(k.label);
      }
      GPA_OK(GpaBeginSample(id++, list));
      launches.push_back(Launch(k100, b));
      launches.back() += Launch(k100, b);
      GPA_OK(GpaEndSample(list));
      labels.push_back("2x ffma_100us back to back");
      GPA_OK(GpaBeginSample(id++, list));
      launches.push_back(Launch(k100, b));
      CUDA_OK(cudaDeviceSynchronize());
      usleep(300);
      launches.back() += Launch(k100, b);
      GPA_OK(GpaEndSample(list));
      labels.push_back("2x ffma_100us, 300 us host gap");
      GPA_OK(GpaBeginSample(id++, list));
      usleep(300);
      launches.push_back(Launch(k100, b));
      GPA_OK(GpaEndSample(list));
      labels.push_back("300 us host sleep, ffma_100us");
      for (const Kernel& tiny : tiny_kernels) {
        GPA_OK(GpaBeginSample(id++, list));
        launches.push_back(0);
        for (int r = 0; r < kTinyRepeats; ++r) launches.back() += Launch(tiny, b);
        GPA_OK(GpaEndSample(list));
        labels.push_back(std::string(kTinyPrefix) + tiny.label);
      }
      GPA_OK(GpaBeginSample(id++, list));
      GPA_OK(GpaEndSample(list));
      launches.push_back(0);
      labels.push_back("empty");
      GPA_OK(GpaBeginSample(id++, list));
      CUDA_OK(cudaMemcpyAsync(b.out, b.in, std::size_t(256) << 20, cudaMemcpyDeviceToDevice, g_stream));
      GPA_OK(GpaEndSample(list));
      launches.push_back(0);
      labels.push_back("cudaMemcpy D2D 256 MiB");
      GPA_OK(GpaBeginSample(id++, list));
      CUDA_OK(cudaMemcpyAsync(b.out, b.host, std::size_t(64) << 20, cudaMemcpyHostToDevice, g_stream));
      GPA_OK(GpaEndSample(list));
      launches.push_back(0);
      labels.push_back("cudaMemcpy H2D 64 MiB pinned");
      GPA_OK(GpaEndCommandList(list));
    }
    GPA_OK(GpaEndSession(session));
    GpaStatus complete = kGpaStatusResultNotReady;
    while (complete == kGpaStatusResultNotReady) complete = GpaIsSessionComplete(session);
    GPA_OK(complete);
    // The activity records of every pass's launches: the last pass's are the last ones.
    const std::vector<double> in_session = KernelActivity::Take();
    int per_pass = 0;
    for (int count : launches) per_pass += count;
    std::size_t next = in_session.size() >= static_cast<std::size_t>(per_pass) ? in_session.size() - per_pass : 0;
    if (activity && in_session.size() != static_cast<std::size_t>(per_pass) * passes) {
      std::printf("CUPTI activity: %zu records in a session of %u x %d launches\n", in_session.size(), passes,
                  per_pass);
    }
    for (std::size_t s = 0; s < labels.size(); ++s) {
      GpaUInt64 raw[kCounterCount] = {};
      GPA_OK(GpaGetSampleResult(session, static_cast<GpaUInt32>(s), sizeof(raw), raw));
      Sample sample{labels[s], rotation, static_cast<int>(s), {}, launches[s], 0};
      for (int launch = 0; launch < launches[s]; ++launch) {
        sample.activity_ns += next < in_session.size() ? in_session[next++] : NAN;
      }
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
    std::printf("rotation %d: %u pass(es), first in pass: %s%s\n", rotation, passes, kernels[first].label,
                g_stream ? ", on a non-blocking stream" : "");
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

  const int i100 = index_of(k100.label);
  // The work's own duration: `per_kernel(k)` for a sample of kernel k, twice the 100 us kernel's for the
  // two-kernel samples, once for the host-sleep one; NAN for samples with no kernel.
  auto truth_of = [&](const Sample& s, auto per_kernel) {
    const int k = index_of(s.label);
    if (k >= 0) return per_kernel(k);
    if (s.label.rfind("2x", 0) == 0) return 2 * per_kernel(i100);
    if (s.label.rfind("300 us", 0) == 0) return per_kernel(i100);
    return std::nan("");
  };
  // A sample of repeated short launches: its truth is the launches' unprofiled activity durations summed.
  auto tiny_truth = [&](const Sample& s) {
    for (std::size_t t = 0; t < tiny_kernels.size(); ++t) {
      if (s.label == std::string(kTinyPrefix) + tiny_kernels[t].label) return 1e3 * kTinyRepeats * tiny_activity_us[t];
    }
    return std::nan("");
  };
  auto activity_truth = [&](int k) { return 1e3 * activity_us[k]; };
  auto ncu_truth = [&](int k) { return ncu_value(k, "gpu__time_duration.sum"); };

  std::printf(
      "\ntruth = the kernels' unprofiled CUPTI activity duration (median of 9); in-session = their activity "
      "duration inside the GPA session\n");
  std::printf("%-32s %3s %3s %10s %9s %9s %9s %9s %10s %9s %8s %8s %8s %8s %8s %8s\n", "sample", "rot", "pos",
              "GPUTime", "truth", "GPUTime-t", "ncu-t", "event-t", "in-sess-t", "ExecDur-t", "GRbusy-t", "SMmax-t",
              "GPUBusy", "SMBusy", "ncuSM%", "DRAM%");
  std::FILE* csv = csv_path.empty() ? nullptr : std::fopen(csv_path.c_str(), "w");
  if (csv) {
    std::fprintf(csv, "sample,rotation,position");
    for (const char* c : kCounters) std::fprintf(csv, ",%s", c);
    std::fprintf(csv, ",in_session_activity_ns,activity_truth_ns,ncu_truth_ns\n");
  }
  for (const Sample& s : samples) {
    const int k = index_of(s.label);
    double truth = truth_of(s, activity_truth);
    if (std::isnan(truth)) truth = tiny_truth(s);
    const double ncu_time = truth_of(s, ncu_truth);
    // The time base's parts: GR's busy time (idle range subtracted) and the busiest SM's active time.
    const double gr_time = s.values[5] / s.values[6] * s.values[9], sm_time = s.values[7] / s.values[8] * s.values[9];
    const double event = truth_of(s, [&](int kernel) { return 1e3 * event_us[kernel]; });
    const double gpu_time = s.values[0], duration = s.values[1];
    const double ncu_sm =
        k >= 0 ? 100 * ncu_value(k, "sm__cycles_active.avg") / ncu_value(k, "sm__cycles_elapsed.avg") : NAN;
    std::printf(
        "%-32s %3d %3d %10.2f %9.2f %+9.2f %+9.2f %+9.2f %+10.2f %+9.2f %+8.2f %+8.2f %8.2f %8.2f %8.2f %8.2f\n",
        s.label.c_str(), s.rotation, s.position, gpu_time / 1e3, truth / 1e3, (gpu_time - truth) / 1e3,
        (ncu_time - truth) / 1e3, (event - truth) / 1e3, (s.activity_ns - truth) / 1e3, (duration - truth) / 1e3,
        (gr_time - truth) / 1e3, (sm_time - truth) / 1e3, s.values[2], s.values[3], ncu_sm, s.values[4]);
    if (csv) {
      std::fprintf(csv, "%s,%d,%d", s.label.c_str(), s.rotation, s.position);
      for (double v : s.values) std::fprintf(csv, ",%.3f", v);
      std::fprintf(csv, ",%.0f,%.0f,%.0f\n", s.activity_ns, truth, ncu_time);
    }
  }
  if (csv) std::fclose(csv);
  std::printf("\n");
  // The checks: GPUTime within 2% or 1 us of the work's own unprofiled duration (CUPTI activity), in every
  // position and on a non-blocking stream too; SMBusy within 1 point of ncu's for kernels of 1 ms and more; the
  // DRAM-bound copy's DRAMThroughput within 1 point of ncu's. The samples of 20 short launches are printed as
  // INFO: the busiest SM misses each launch's CTA ramp and drain (docs/cuda.md).
  if (activity) Check(true, "CUPTI activity API records the kernels", "");
  for (const Sample& s : samples) {
    const int k = index_of(s.label);
    const double truth = truth_of(s, activity_truth);
    const double tiny = tiny_truth(s);
    if (!std::isnan(tiny) && s.rotation >= 0) {
      std::printf("INFO  %-70s %s\n", Format("GPUTime %s (rotation %d)", s.label.c_str(), s.rotation).c_str(),
                  Format("%.2f us vs %.2f us (%+.2f, %+.1f%%)", s.values[0] / 1e3, tiny / 1e3,
                         (s.values[0] - tiny) / 1e3, 100 * (s.values[0] - tiny) / tiny)
                      .c_str());
    }
    if (std::isnan(truth) || s.rotation < 0) continue;
    const double tolerance = std::max(0.02 * truth, 1000.0);
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
