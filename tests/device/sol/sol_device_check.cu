// Device check of the Speed-of-Light counters (catalogs/cuda_sol.json) on a real GPU (run by
// tests/device/sol/run.sh on the H100). Profiles kernels built to saturate one unit each
// (sol_kernels.cuh) through the GPA C API of libGPUPerfAPICUDA.so, one sample per kernel, in every rotation of
// the launch order (each kernel once first in its pass, once in every other position), and checks:
//   - GPUBottleneck names the designed unit: StreamCopy -> DRAM, FfmaLoop -> SM, both shared-memory
//     kernels -> L1/TEX, and a single warp (no unit near its peak) -> latency-bound;
//   - the designed unit's SOL is high (>= 60%) and GPUBottleneckSOL is the largest of the units' elapsed SOLs;
//   - the shared-memory kernels execute every load (SharedWavefronts against the count the kernel implies);
//   - SOL_PCIe (its own session) is high for a pinned host-to-device copy and ~0 for an FFMA kernel;
//   - with --ncu-csv, every SOL value agrees within 1 point with ncu's SpeedOfLight section and --metrics for
//     the same kernel (launched once each by --workload under ncu), printed side by side; with
//     --ncu-after-command/--ncu-after-csv, ncu runs again after the GPA sessions and a value within 1 point of
//     either run agrees (the kernels' own speed drifts by up to 1% between runs).
// Every check prints PASS/FAIL with the numbers; the exit code is the number of failures.
//
//   sol_device_check [--csv FILE] [--ncu-csv FILE [--ncu-after-command CMD --ncu-after-csv FILE]]
//   sol_device_check --workload                      each kernel launched once, no GPA (for ncu)
#include <cuda.h>
#include <cuda_runtime.h>

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
#include "sol_kernels.cuh"

namespace {

int g_failures = 0;

void Check(bool ok, const std::string& what, const std::string& detail) {
  std::printf("%s  %-62s %s\n", ok ? "PASS" : "FAIL", what.c_str(), detail.c_str());
  std::fflush(stdout);
  if (!ok) ++g_failures;
}

template <typename... Args>
std::string Format(const char* format, Args... args) {
  char buffer[1024];
  std::snprintf(buffer, sizeof(buffer), format, args...);
  return buffer;
}

#define CUDA_OK(call)                                                                                              \
  do {                                                                                                             \
    cudaError_t cuda_error_ = (call);                                                                              \
    if (cuda_error_ != cudaSuccess) {                                                                              \
      std::fprintf(stderr, "%s failed: %s (%s:%d)\n", #call, cudaGetErrorString(cuda_error_), __FILE__, __LINE__); \
      std::exit(100);                                                                                              \
    }                                                                                                              \
  } while (0)

#define GPA_OK(call)                                                                                              \
  do {                                                                                                            \
    GpaStatus gpa_status_ = (call);                                                                               \
    if (gpa_status_ != kGpaStatusOk) {                                                                            \
      std::fprintf(stderr, "%s failed: %s (%s:%d)\n", #call, GpaGetStatusAsStr(gpa_status_), __FILE__, __LINE__); \
      std::exit(101);                                                                                             \
    }                                                                                                             \
  } while (0)

void LogToStdout(GpaLoggingType, const char* message) {
  std::printf("[opengpa] %s\n", message);
  std::fflush(stdout);
}

// GPUBottleneck's values (cuda_sol.json documents the same mapping).
enum Unit { kSm = 0, kL1Tex = 1, kL2 = 2, kDram = 3, kLatencyBound = 4 };
const char* UnitName(int unit) {
  static const char* const kNames[] = {"SM", "L1/TEX", "L2", "DRAM", "latency-bound (no unit >= 60%)"};
  return unit >= 0 && unit <= 4 ? kNames[unit] : "?";
}

// One workload: a kernel launch and the unit it is built to saturate. `ncu_name` is the kernel's name
// as ncu prints it (up to the parameter list).
struct Workload {
  const char* label;
  const char* ncu_name;
  int expected_unit;
  int blocks;
  int threads;
};

struct Buffers {
  float4* in = nullptr;
  float4* out = nullptr;
  std::size_t float4_count = 0;
  float* results = nullptr;
  int sm_count = 0;
};

constexpr int kFfmaIterations = 2000;
constexpr int kSharedIterations = 2000;
constexpr int kCopyRepeats = 3;
constexpr int kLatencyIterations = 4000;

std::vector<Workload> MakeWorkloads(int sm_count) {
  const int full = sm_count * sol::kBlocksPerSm;
  // main() profiles them in every rotation of this order, so each kernel is once first in its pass (where
  // the sample's CUPTI range also holds the pass's start-up) and once in every other position.
  return {
      // One warp of the FFMA kernel: no unit of the GPU gets near its peak.
      {"OneWarpFfma", "FfmaLoop", kLatencyBound, 1, 32},
      {"StreamCopy", "StreamCopy", kDram, full, sol::kThreadsPerBlock},
      {"FfmaLoop", "FfmaLoop", kSm, full, sol::kThreadsPerBlock},
      {"SharedLoads128", "SharedLoads128", kL1Tex, full, sol::kThreadsPerBlock},
      {"SharedLoadsConflict4", "SharedLoadsConflict4", kL1Tex, full, sol::kThreadsPerBlock},
  };
}

void Launch(const Workload& w, const Buffers& b) {
  const std::string label = w.label;
  if (label == "StreamCopy") {
    sol::StreamCopy<<<w.blocks, w.threads>>>(b.in, b.out, b.float4_count, kCopyRepeats);
  } else if (label == "FfmaLoop") {
    sol::FfmaLoop<<<w.blocks, w.threads>>>(b.results, kFfmaIterations, 0.9999f, 1e-4f);
  } else if (label == "SharedLoads128") {
    sol::SharedLoads128<<<w.blocks, w.threads>>>(b.results, kSharedIterations);
  } else if (label == "SharedLoadsConflict4") {
    sol::SharedLoadsConflict4<<<w.blocks, w.threads>>>(b.results, kSharedIterations);
  } else if (label == "OneWarpFfma") {
    sol::FfmaLoop<<<w.blocks, w.threads>>>(b.results, kLatencyIterations, 0.9999f, 1e-4f);
  }
  CUDA_OK(cudaGetLastError());
}

__global__ void FillPattern(float4* data, std::size_t count) {
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const float f = static_cast<float>(i & 0xFFFFF);
    data[i] = make_float4(f, f + 1, f + 2, f + 3);
  }
}

Buffers Allocate(int sm_count) {
  Buffers b;
  b.sm_count = sm_count;
  b.float4_count = (std::size_t(1) << 30) / sizeof(float4);  // 1 GiB each way: 20x the H100's 50 MB L2
  CUDA_OK(cudaMalloc(&b.in, b.float4_count * sizeof(float4)));
  CUDA_OK(cudaMalloc(&b.out, b.float4_count * sizeof(float4)));
  CUDA_OK(cudaMalloc(&b.results, sizeof(float) * sm_count * sol::kBlocksPerSm * sol::kThreadsPerBlock));
  FillPattern<<<sm_count * 8, 256>>>(b.in, b.float4_count);
  CUDA_OK(cudaMemset(b.out, 0, b.float4_count * sizeof(float4)));
  CUDA_OK(cudaDeviceSynchronize());
  // Shared kernels use 8 KiB per block: 64 KiB per SM at 8 blocks; ask for the carveout that allows it.
  CUDA_OK(cudaFuncSetAttribute(sol::SharedLoads128, cudaFuncAttributePreferredSharedMemoryCarveout,
                               cudaSharedmemCarveoutMaxShared));
  CUDA_OK(cudaFuncSetAttribute(sol::SharedLoadsConflict4, cudaFuncAttributePreferredSharedMemoryCarveout,
                               cudaSharedmemCarveoutMaxShared));
  return b;
}

// The copy must have happened (every element), else a "DRAM-bound" reading would mean nothing.
void CheckCopy(const Buffers& b) {
  const std::size_t probes[] = {0, 1, 12345, b.float4_count / 2, b.float4_count - 1};
  bool ok = true;
  for (std::size_t i : probes) {
    float4 v;
    CUDA_OK(cudaMemcpy(&v, b.out + i, sizeof(v), cudaMemcpyDeviceToHost));
    const float f = static_cast<float>(i & 0xFFFFF);
    ok = ok && v.x == f && v.w == f + 3;
  }
  Check(ok, "StreamCopy copied the source (probed elements)", "");
}

// --- ncu CSV ---------------------------------------------------------------------------------------

std::vector<std::string> SplitCsvLine(const std::string& line) {
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

// ncu --csv (details page): one row per (launch, metric). Result: values[launch ID][metric name or label].
struct NcuResults {
  std::map<int, std::string> kernel_names;
  std::map<int, std::map<std::string, double>> values;
};

bool ReadNcuCsv(const std::string& path, NcuResults* out) {
  std::ifstream file(path);
  if (!file) return false;
  std::string line;
  std::vector<std::string> header;
  int id_col = -1, kernel_col = -1, metric_col = -1, value_col = -1;
  while (std::getline(file, line)) {
    if (line.empty() || line[0] != '"') continue;  // ncu's own "==PROF==" lines and the program's output
    std::vector<std::string> fields = SplitCsvLine(line);
    if (header.empty()) {
      header = fields;
      for (int i = 0; i < static_cast<int>(header.size()); ++i) {
        if (header[i] == "ID") id_col = i;
        if (header[i] == "Kernel Name") kernel_col = i;
        if (header[i] == "Metric Name") metric_col = i;
        if (header[i] == "Metric Value") value_col = i;
      }
      if (id_col < 0 || kernel_col < 0 || metric_col < 0 || value_col < 0) return false;
      continue;
    }
    if (static_cast<int>(fields.size()) <= std::max({id_col, kernel_col, metric_col, value_col})) continue;
    std::string number;
    for (char c : fields[value_col]) {
      if (c != ',') number += c;  // ncu may group thousands
    }
    char* end = nullptr;
    const double value = std::strtod(number.c_str(), &end);
    if (number.empty() || end == number.c_str()) continue;
    const int id = std::atoi(fields[id_col].c_str());
    out->kernel_names[id] = fields[kernel_col];
    out->values[id][fields[metric_col]] = value;
  }
  return !out->values.empty();
}

// --- GPA -----------------------------------------------------------------------------------------------

struct SolCounter {
  const char* gpa_name;
  const char* ncu_label;   // SpeedOfLight section's row
  const char* ncu_metric;  // the CUPTI metric ncu reads for that row
};

const SolCounter kSolCounters[] = {
    {"SOL_SM", "Compute (SM) Throughput", "sm__throughput.avg.pct_of_peak_sustained_elapsed"},
    {"SOL_Memory", "Memory Throughput", "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed"},
    {"SOL_L1TEX", "L1/TEX Cache Throughput", "l1tex__throughput.avg.pct_of_peak_sustained_active"},
    {"SOL_L2", "L2 Cache Throughput", "lts__throughput.avg.pct_of_peak_sustained_elapsed"},
    {"SOL_DRAM", "DRAM Throughput", "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed"},
};

// Within 1 percentage point (issue 20: a sample's SOL is over its busy time, as ncu's is over the kernel's).
bool Agrees(double gpa, double ncu) { return std::fabs(gpa - ncu) <= 1.0; }

// SOL_PCIe needs a session of its own (CUPTI cannot collect PCIe counters with SM counters): a 256 MiB
// copy from pinned host memory must drive the link, an FFMA kernel must leave it idle.
void CheckPcie(GpaContextId context, const Buffers& buffers) {
  const std::size_t bytes = std::size_t(256) << 20;
  void* host = nullptr;
  CUDA_OK(cudaMallocHost(&host, bytes));
  std::memset(host, 1, bytes);
  GpaSessionId session = nullptr;
  GPA_OK(GpaCreateSession(context, kGpaSessionSampleTypeDiscreteCounter, &session));
  const char* const names[] = {"SOL_PCIe", "PcieBytes", "ExecutionDuration"};
  for (const char* name : names) GPA_OK(GpaEnableCounterByName(session, name));
  GpaUInt32 passes = 0;
  GPA_OK(GpaGetPassCount(session, &passes));
  GPA_OK(GpaBeginSession(session));
  const Workload ffma = MakeWorkloads(buffers.sm_count)[2];
  for (GpaUInt32 pass = 0; pass < passes; ++pass) {
    GpaCommandListId list = nullptr;
    GPA_OK(GpaBeginCommandList(session, pass, GPA_NULL_COMMAND_LIST, kGpaCommandListNone, &list));
    GPA_OK(GpaBeginSample(0, list));
    CUDA_OK(cudaMemcpy(buffers.out, host, bytes, cudaMemcpyHostToDevice));
    GPA_OK(GpaEndSample(list));
    GPA_OK(GpaBeginSample(1, list));
    Launch(ffma, buffers);
    GPA_OK(GpaEndSample(list));
    GPA_OK(GpaEndCommandList(list));
  }
  GPA_OK(GpaEndSession(session));
  GpaStatus complete = kGpaStatusResultNotReady;
  for (int tries = 0; tries < 10000 && complete == kGpaStatusResultNotReady; ++tries)
    complete = GpaIsSessionComplete(session);
  GPA_OK(complete);
  double values[2][3] = {};
  for (GpaUInt32 sample = 0; sample < 2; ++sample) {
    GpaUInt64 raw[3] = {};
    GPA_OK(GpaGetSampleResult(session, sample, sizeof(raw), raw));
    for (GpaUInt32 e = 0; e < 3; ++e) {
      GpaUInt32 index = 0;
      GpaDataType type = kGpaDataTypeUint64;
      GPA_OK(GpaGetEnabledIndex(session, e, &index));
      GPA_OK(GpaGetCounterDataType(context, index, &type));
      const char* name = nullptr;
      GPA_OK(GpaGetCounterName(context, index, &name));
      double value = 0;
      if (type == kGpaDataTypeUint64) {
        value = static_cast<double>(raw[e]);
      } else {
        std::memcpy(&value, &raw[e], 8);
      }
      for (int n = 0; n < 3; ++n) {
        if (std::strcmp(name, names[n]) == 0) values[sample][n] = value;
      }
    }
  }
  std::printf("\nPCIe session (%u pass(es)):\n", passes);
  const char* const labels[] = {"256 MiB pinned H2D copy", "FfmaLoop"};
  for (int sample = 0; sample < 2; ++sample) {
    std::printf("  %-24s SOL_PCIe %6.2f%%  PcieBytes %12.0f  ExecutionDuration %9.1f us  (%.1f GB/s)\n", labels[sample],
                values[sample][0], values[sample][1], values[sample][2] / 1000.0,
                values[sample][2] > 0 ? values[sample][1] / values[sample][2] : 0.0);
  }
  Check(values[0][1] >= 0.95 * bytes, "PCIe: the copy's bytes crossed the link",
        Format("%.0f of %zu", values[0][1], bytes));
  Check(values[0][0] >= 30.0, "PCIe: the pinned copy drives SOL_PCIe to >= 30%", Format("%.2f%%", values[0][0]));
  Check(values[1][0] < 5.0, "PCIe: the FFMA kernel leaves SOL_PCIe below 5%", Format("%.2f%%", values[1][0]));
  GpaDeleteSession(session);
  CUDA_OK(cudaFreeHost(host));
}

int RunWorkloadOnly() {
  int sm_count = 0;
  CUDA_OK(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, 0));
  Buffers buffers = Allocate(sm_count);
  for (const Workload& w : MakeWorkloads(sm_count)) Launch(w, buffers);
  CUDA_OK(cudaDeviceSynchronize());
  std::printf("workload: %zu launches done\n", MakeWorkloads(sm_count).size());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // progress survives a crash when stdout is a pipe
  std::string csv_path, ncu_csv_path, ncu_after_csv_path, ncu_after_command;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--workload") return RunWorkloadOnly();
    if (arg == "--csv" && i + 1 < argc) {
      csv_path = argv[++i];
    } else if (arg == "--ncu-csv" && i + 1 < argc) {
      ncu_csv_path = argv[++i];
    } else if (arg == "--ncu-after-csv" && i + 1 < argc) {
      ncu_after_csv_path = argv[++i];
    } else if (arg == "--ncu-after-command" && i + 1 < argc) {
      ncu_after_command = argv[++i];
    } else {
      std::fprintf(
          stderr,
          "usage: %s [--csv FILE] [--ncu-csv FILE [--ncu-after-command CMD --ncu-after-csv FILE]] | --workload\n",
          argv[0]);
      return 2;
    }
  }

  cudaDeviceProp properties{};
  CUDA_OK(cudaGetDeviceProperties(&properties, 0));
  const int sm_count = properties.multiProcessorCount;
  std::printf("device: %s, %d SMs, compute capability %d.%d\n", properties.name, sm_count, properties.major,
              properties.minor);
  Buffers buffers = Allocate(sm_count);
  const std::vector<Workload> workloads = MakeWorkloads(sm_count);
  // Warm-up: module loading and first-launch costs stay out of the samples.
  for (const Workload& w : workloads) Launch(w, buffers);
  CUDA_OK(cudaDeviceSynchronize());

  GPA_OK(GpaRegisterLoggingCallback(kGpaLoggingError, &LogToStdout));
  GPA_OK(GpaInitialize(kGpaInitializeDefaultBit));
  GpaCudaContextOpenInfo info = GPA_CUDA_CONTEXT_OPEN_INFO_INIT;
  if (cuCtxGetCurrent(&info.context) != CUDA_SUCCESS || info.context == nullptr) {
    std::fprintf(stderr, "no current CUDA context\n");
    return 102;
  }
  GpaContextId context = nullptr;
  GPA_OK(GpaOpenContext(&info, kGpaOpenContextDefaultBit, &context));

  // The SpeedOfLight group, as the context exposes it.
  GpaUInt32 counter_count = 0;
  GPA_OK(GpaGetNumCounters(context, &counter_count));
  std::vector<std::string> group;
  for (GpaUInt32 i = 0; i < counter_count; ++i) {
    const char* group_name = nullptr;
    const char* name = nullptr;
    GPA_OK(GpaGetCounterGroup(context, i, &group_name));
    GPA_OK(GpaGetCounterName(context, i, &name));
    if (std::strcmp(group_name, "SpeedOfLight") == 0) group.emplace_back(name);
  }
  std::string group_list;
  for (const std::string& name : group) group_list += " " + name;
  Check(group.size() >= 8, "the context exposes the SpeedOfLight group",
        Format("%zu counters:%s", group.size(), group_list.c_str()));

  GpaSessionId session = nullptr;
  GPA_OK(GpaCreateSession(context, kGpaSessionSampleTypeDiscreteCounter, &session));
  for (const std::string& name : group) GPA_OK(GpaEnableCounterByName(session, name.c_str()));
  GpaUInt32 sol_passes = 0;
  GPA_OK(GpaGetPassCount(session, &sol_passes));
  std::printf("SpeedOfLight group: %zu counters in %u pass(es)\n", group.size(), sol_passes);
  // GPUTime for the table; SharedWavefronts (cuda.json) to prove the shared kernels execute every load.
  GPA_OK(GpaEnableCounterByName(session, "GPUTime"));
  GPA_OK(GpaEnableCounterByName(session, "SharedWavefronts"));
  GpaUInt32 passes = 0;
  GPA_OK(GpaGetPassCount(session, &passes));
  std::printf("with GPUTime and SharedWavefronts: %u pass(es)\n", passes);

  // ncu before and (optionally) after this program: the same kernels' speed drifts by up to 1% between runs
  // (the copy's DRAM throughput most), so a value agrees when it is within 1 point of either run.
  NcuResults ncu, ncu_after;
  std::vector<int> ids, ids_after;
  if (!ncu_csv_path.empty()) {
    Check(ReadNcuCsv(ncu_csv_path, &ncu), "ncu CSV read", ncu_csv_path);
    // ncu's launch IDs are in launch order, which is the workloads' order (--workload launches each once).
    for (const auto& [id, name] : ncu.kernel_names) ids.push_back(id);
    Check(ids.size() == workloads.size(), "ncu profiled one launch per workload", Format("%zu launches", ids.size()));
  }
  std::FILE* csv = csv_path.empty() ? nullptr : std::fopen(csv_path.c_str(), "w");
  if (csv != nullptr) std::fprintf(csv, "rotation,position,kernel,counter,value\n");
  // Every rotation of the launch order: in rotation r, sample s is workload (s + r) % n, so every kernel is
  // first in its pass once (the pass's start-up lands in its CUPTI range) and once in every other position.
  std::vector<std::vector<std::map<std::string, double>>> all_results;  // [rotation][workload]
  std::vector<std::vector<std::size_t>> all_orders;
  for (std::size_t rotation = 0; rotation < workloads.size(); ++rotation) {
    std::vector<std::size_t> order;
    for (std::size_t s = 0; s < workloads.size(); ++s) order.push_back((s + rotation) % workloads.size());
    std::printf("\n=== rotation %zu: %s first in the pass\n", rotation, workloads[order[0]].label);
    if (rotation > 0) {  // a session is recorded once: a fresh one with the same counters
      GpaDeleteSession(session);
      GPA_OK(GpaCreateSession(context, kGpaSessionSampleTypeDiscreteCounter, &session));
      for (const std::string& name : group) GPA_OK(GpaEnableCounterByName(session, name.c_str()));
      GPA_OK(GpaEnableCounterByName(session, "GPUTime"));
      GPA_OK(GpaEnableCounterByName(session, "SharedWavefronts"));
    }
    GPA_OK(GpaBeginSession(session));
    for (GpaUInt32 pass = 0; pass < passes; ++pass) {
      GpaCommandListId list = nullptr;
      GPA_OK(GpaBeginCommandList(session, pass, GPA_NULL_COMMAND_LIST, kGpaCommandListNone, &list));
      for (std::size_t s = 0; s < workloads.size(); ++s) {
        GPA_OK(GpaBeginSample(static_cast<GpaUInt32>(s), list));
        Launch(workloads[order[s]], buffers);
        GPA_OK(GpaEndSample(list));
      }
      GPA_OK(GpaEndCommandList(list));
    }
    GPA_OK(GpaEndSession(session));
    GpaStatus complete = kGpaStatusResultNotReady;
    for (int tries = 0; tries < 10000 && complete == kGpaStatusResultNotReady; ++tries) {
      complete = GpaIsSessionComplete(session);
    }
    GPA_OK(complete);
    CUDA_OK(cudaDeviceSynchronize());
    if (rotation == 0) CheckCopy(buffers);

    // Results: enabled counters in enable order, each 8 bytes.
    GpaUInt32 enabled = 0;
    GPA_OK(GpaGetNumEnabledCounters(session, &enabled));
    std::vector<std::string> names(enabled);
    std::vector<GpaDataType> types(enabled);
    for (GpaUInt32 e = 0; e < enabled; ++e) {
      GpaUInt32 index = 0;
      const char* name = nullptr;
      GPA_OK(GpaGetEnabledIndex(session, e, &index));
      GPA_OK(GpaGetCounterName(context, index, &name));
      GPA_OK(GpaGetCounterDataType(context, index, &types[e]));
      names[e] = name;
    }
    std::vector<std::map<std::string, double>> results(workloads.size());
    for (std::size_t s = 0; s < workloads.size(); ++s) {
      std::size_t size = 0;
      GPA_OK(GpaGetSampleResultSize(session, static_cast<GpaUInt32>(s), &size));
      std::vector<unsigned char> bytes(size);
      GPA_OK(GpaGetSampleResult(session, static_cast<GpaUInt32>(s), size, bytes.data()));
      const std::size_t w = order[s];
      for (GpaUInt32 e = 0; e < enabled; ++e) {
        double value = 0;
        if (types[e] == kGpaDataTypeUint64) {
          GpaUInt64 v = 0;
          std::memcpy(&v, bytes.data() + e * 8, 8);
          value = static_cast<double>(v);
        } else {
          std::memcpy(&value, bytes.data() + e * 8, 8);
        }
        results[w][names[e]] = value;
      }
    }

    // The table.
    std::printf("\n%-22s %10s %9s %9s %9s %9s %9s %9s  %s\n", "kernel", "GPUTime us", "SOL_SM", "SOL_Mem", "SOL_L1TEX",
                "SOL_L2", "SOL_DRAM", "BnSOL", "GPUBottleneck");
    for (std::size_t s = 0; s < workloads.size(); ++s) {
      auto& r = results[order[s]];
      std::printf("%-22s %10.1f %9.2f %9.2f %9.2f %9.2f %9.2f %9.2f  %d (%s); busiest %d\n", workloads[order[s]].label,
                  r["GPUTime"] / 1000.0, r["SOL_SM"], r["SOL_Memory"], r["SOL_L1TEX"], r["SOL_L2"], r["SOL_DRAM"],
                  r["GPUBottleneckSOL"], static_cast<int>(r["GPUBottleneck"]),
                  UnitName(static_cast<int>(r["GPUBottleneck"])), static_cast<int>(r["GPUBusiestUnit"]));
    }
    std::printf("\n");
    if (csv != nullptr) {
      for (std::size_t s = 0; s < workloads.size(); ++s) {
        for (const auto& [name, value] : results[order[s]]) {
          std::fprintf(csv, "%zu,%zu,%s,%s,%.6f\n", rotation, s, workloads[order[s]].label, name.c_str(), value);
        }
      }
    }
    // The bottleneck checks.
    for (std::size_t s = 0; s < workloads.size(); ++s) {
      auto& r = results[order[s]];
      const Workload& w = workloads[order[s]];
      const std::string where = Format("%s (rotation %zu, sample %zu)", w.label, rotation, s);
      if (w.expected_unit == kL1Tex) {
        // Every warp: iterations x 8 loads x 4 wavefronts (LDS.128: 4 quarter warps; LDS.32: 4-way conflict),
        // plus FillTile's 8 conflict-free stores per warp.
        const double warps = double(w.blocks) * w.threads / 32;
        const double expected = warps * kSharedIterations * 8 * 4 + warps * 8;
        Check(std::fabs(r["SharedWavefronts"] - expected) <= 0.001 * expected,
              Format("%s: executes every shared load (SharedWavefronts)", where.c_str()),
              Format("%.0f, expected %.0f", r["SharedWavefronts"], expected));
      }
      const int unit = static_cast<int>(r["GPUBottleneck"]);
      Check(unit == w.expected_unit, Format("%s: GPUBottleneck is %s", where.c_str(), UnitName(w.expected_unit)),
            Format("got %d (%s), GPUBottleneckSOL %.2f%%", unit, UnitName(unit), r["GPUBottleneckSOL"]));
      const double largest = std::max({r["SOL_SM"], r["SOL_L1TEX"], r["SOL_L2"], r["SOL_DRAM"]});
      if (w.expected_unit == kLatencyBound) {
        Check(r["GPUBottleneckSOL"] < 60.0 && largest < 60.0, Format("%s: every unit below 60%%", where.c_str()),
              Format("GPUBottleneckSOL %.2f%%, largest SOL %.2f%%", r["GPUBottleneckSOL"], largest));
      } else {
        Check(r["GPUBottleneckSOL"] >= 60.0, Format("%s: the limiting unit runs at >= 60%% of its peak", where.c_str()),
              Format("GPUBottleneckSOL %.2f%%", r["GPUBottleneckSOL"]));
        Check(static_cast<int>(r["GPUBusiestUnit"]) == w.expected_unit,
              Format("%s: GPUBusiestUnit agrees", where.c_str()), Format("%d", static_cast<int>(r["GPUBusiestUnit"])));
      }
      // GPUBottleneckSOL is the largest of SM, L2, DRAM (the same values as their SOL counters) and L1/TEX over the
      // sample's busy time, which is at most SOL_L1TEX (over L1's own active cycles, as ncu's) give or take the
      // difference between L1's active cycles and the sample's busy time (0.5 point).
      const double others = std::max({r["SOL_SM"], r["SOL_L2"], r["SOL_DRAM"]});
      Check(r["GPUBottleneckSOL"] >= others - 1e-9 && r["GPUBottleneckSOL"] <= largest + 0.5,
            Format("%s: GPUBottleneckSOL lies between max(SM, L2, DRAM) and the largest SOL", where.c_str()),
            Format("%.2f <= %.2f <= %.2f", others, r["GPUBottleneckSOL"], largest));
    }

    all_results.push_back(results);
    all_orders.push_back(order);
  }  // rotation
  if (csv != nullptr) std::fclose(csv);
  GpaDeleteSession(session);
  session = nullptr;
  CheckPcie(context, buffers);
  GpaCloseContext(context);
  GpaDestroy();

  // ncu once more, now that this process has released CUPTI: the kernels' own speed drifts by up to 1% between
  // runs (the copy's DRAM throughput most), so a value agrees when it is within 1 point of either ncu run.
  if (!ncu_after_command.empty()) {
    std::printf("\nrunning ncu again: %s\n", ncu_after_command.c_str());
    const int status = std::system(ncu_after_command.c_str());
    std::printf("ncu (after) exit status %d\n", status);
  }
  if (!ncu_after_csv_path.empty() && ReadNcuCsv(ncu_after_csv_path, &ncu_after)) {
    for (const auto& [id, name] : ncu_after.kernel_names) ids_after.push_back(id);
  }
  for (std::size_t rotation = 0; rotation < all_results.size(); ++rotation) {
    auto& results = all_results[rotation];
    const std::vector<std::size_t>& order = all_orders[rotation];
    std::printf("\n=== rotation %zu against ncu\n", rotation);
    // Side by side with ncu: the same value, now over the sample's busy time as ncu's is over the kernel.
    if (!ids.empty()) {
      std::printf("\n%-22s %-10s %9s %9s %9s %9s %7s\n", "kernel", "counter", "OpenGPA", "ncu SOL", "ncu metric",
                  "ncu after", "diff");
      for (std::size_t s = 0; s < workloads.size(); ++s) {
        const std::size_t wi = order[s];
        const Workload& w = workloads[wi];
        if (wi >= ids.size()) continue;
        const std::string where = Format("%s (rotation %zu, sample %zu)", w.label, rotation, s);
        const std::string& kernel = ncu.kernel_names[ids[wi]];
        Check(kernel.find(std::string(w.ncu_name) + "(") != std::string::npos,
              Format("ncu launch %d is %s", ids[wi], w.ncu_name), kernel);
        auto& values = ncu.values[ids[wi]];
        std::map<std::string, double> no_values;
        auto& after = wi < ids_after.size() ? ncu_after.values[ids_after[wi]] : no_values;
        std::printf("%-22s %-10s %9.1f %9.1f %9s %9.1f %+7.1f  (us: GPUTime vs ncu Duration)\n", w.label, "time",
                    results[wi]["GPUTime"] / 1e3, values["Duration"] / 1e3, "-",
                    after.count("Duration") ? after["Duration"] / 1e3 : NAN,
                    (results[wi]["GPUTime"] - values["Duration"]) / 1e3);
        for (const SolCounter& c : kSolCounters) {
          const double gpa = results[wi][c.gpa_name];
          const bool has_label = values.count(c.ncu_label) != 0;
          const bool has_metric = values.count(c.ncu_metric) != 0;
          const double reference = has_metric ? values[c.ncu_metric] : (has_label ? values[c.ncu_label] : NAN);
          const double reference_after = after.count(c.ncu_metric) ? after[c.ncu_metric] : NAN;
          std::printf("%-22s %-10s %9.2f %9s %9s %9.2f %+7.2f\n", w.label, c.gpa_name, gpa,
                      has_label ? Format("%.2f", values[c.ncu_label]).c_str() : "-",
                      has_metric ? Format("%.2f", values[c.ncu_metric]).c_str() : "-", reference_after,
                      gpa - reference);
          Check(has_label || has_metric, Format("%s %s: ncu reported it", where.c_str(), c.gpa_name), "");
          if (has_label) {
            Check(Agrees(gpa, values[c.ncu_label]) || (!std::isnan(reference_after) && Agrees(gpa, reference_after)),
                  Format("%s %s agrees with ncu's row", where.c_str(), c.gpa_name),
                  Format("%.2f vs %.2f (%s), after %.2f", gpa, values[c.ncu_label], c.ncu_label, reference_after));
          }
          if (has_metric) {
            Check(Agrees(gpa, values[c.ncu_metric]) || (!std::isnan(reference_after) && Agrees(gpa, reference_after)),
                  Format("%s %s agrees with ncu --metrics", where.c_str(), c.gpa_name),
                  Format("%.2f vs %.2f, after %.2f", gpa, values[c.ncu_metric], reference_after));
          }
        }
      }
    }
  }

  std::printf("\n%d failure(s)\n", g_failures);
  return g_failures;
}
