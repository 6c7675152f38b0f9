// Device check of the real-time monitor (needs an NVIDIA GPU; run by tests/device/monitor/run.sh).
// Drives OpenGPA's monitor through its C API (libOpenGPAMonitor.so) while this program makes GPU work of a
// known size, and compares what the monitor saw with ground truth:
//   NVML  - utilisation idle vs busy, memory_used growth vs a 1 GiB cudaMalloc, PCIe RX/TX vs timed
//           pinned copies, energy deltas vs the integral of power;
//   PM    - SM activity of an FFMA kernel vs idle, DRAM bytes vs device-to-device copies of known size,
//           instruction counts vs ncu's count for one launch (passed in), sampling-interval sweep.
// Every check prints PASS/FAIL with the numbers; the exit code is the number of failed checks.
//
// Modes:  monitor_device_check [--ncu-fma N --ncu-inst N]   the checks
//         monitor_device_check --busy-seconds S               FFMA work only (a workload for other processes)
//         monitor_device_check --ffma-launches N              N launches of the reference kernel (for ncu)
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "gpu_performance_api/opengpa_monitor.h"
#include "workloads.cuh"

namespace {

int g_failures = 0;

void Check(bool ok, const char* what, const std::string& detail) {
  std::printf("%s  %-58s %s\n", ok ? "PASS" : "FAIL", what, detail.c_str());
  std::fflush(stdout);
  if (!ok) ++g_failures;
}

template <typename... Args>
std::string Format(const char* format, Args... args) {
  char buffer[512];
  std::snprintf(buffer, sizeof(buffer), format, args...);
  return buffer;
}

#define CUDA_OK(call)                                                                                    \
  do {                                                                                                   \
    cudaError_t e = (call);                                                                              \
    if (e != cudaSuccess) {                                                                              \
      std::fprintf(stderr, "%s failed: %s (%s:%d)\n", #call, cudaGetErrorString(e), __FILE__, __LINE__); \
      std::exit(100);                                                                                    \
    }                                                                                                    \
  } while (0)

uint64_t NowNs() {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count());
}

void SleepSeconds(double seconds) { std::this_thread::sleep_for(std::chrono::duration<double>(seconds)); }

void LogToStdout(GpaLoggingType, const char* message) {
  std::printf("[opengpa] %s\n", message);
  std::fflush(stdout);
}

// The reference FFMA launch: every SM full (8 blocks of 256 threads each), ~10 ms on an H100.
struct FfmaLaunch {
  int blocks = 0;
  int threads = 256;
  int iterations = 10000;
  float* out = nullptr;
  double WarpFfmaInstructions() const { return double(blocks) * threads / 32 * iterations * kFfmaPerIteration; }
};

FfmaLaunch MakeFfmaLaunch() {
  FfmaLaunch launch;
  cudaDeviceProp properties{};
  CUDA_OK(cudaGetDeviceProperties(&properties, 0));
  launch.blocks = properties.multiProcessorCount * 8;
  CUDA_OK(cudaMalloc(&launch.out, sizeof(float) * launch.blocks * launch.threads));
  return launch;
}

void RunFfma(const FfmaLaunch& launch, int launches) {
  for (int i = 0; i < launches; ++i) {
    FfmaKernel<<<launch.blocks, launch.threads>>>(launch.out, launch.iterations, 0.999f, 0.001f);
  }
  CUDA_OK(cudaGetLastError());
  CUDA_OK(cudaDeviceSynchronize());
}

// Launches in batches of 10 until `seconds` have passed; returns the number of launches.
int RunFfmaFor(const FfmaLaunch& launch, double seconds) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  int launches = 0;
  while (std::chrono::steady_clock::now() < end) {
    RunFfma(launch, 10);
    launches += 10;
  }
  return launches;
}

struct Record {
  uint64_t t;
  uint64_t duration;
  uint32_t counter;
  double value;
};

// A monitor through the C API, records collected after Stop.
class Session {
 public:
  Session(std::vector<const char*> counters, uint32_t interval_ms, uint64_t pm_interval_ns,
          uint64_t pm_buffer_bytes = 0) {
    OpenGpaMonitorConfig config{};
    config.pm_hardware_buffer_bytes = pm_buffer_bytes;
    config.struct_size = sizeof(config);
    config.interval_ms = interval_ms;
    config.counter_names = counters.data();
    config.counter_count = static_cast<GpaUInt32>(counters.size());
    config.pm_interval_ns = pm_interval_ns;
    config.record_capacity = 4u << 20;
    status_ = OpenGpaMonitorCreate(&config, &monitor_);
    if (status_ != kGpaStatusOk) return;
    GpaUInt32 count = 0;
    OpenGpaMonitorGetCounterCount(monitor_, &count);
    for (GpaUInt32 i = 0; i < count; ++i) {
      OpenGpaMonitorCounterInfo info{};
      OpenGpaMonitorGetCounterInfo(monitor_, i, &info);
      names_.push_back(info.name);
    }
  }
  ~Session() {
    if (monitor_ != nullptr) OpenGpaMonitorDestroy(monitor_);
  }
  GpaStatus Status() const { return status_; }
  OpenGpaMonitor Handle() const { return monitor_; }
  void Start() {
    start_ns_ = NowNs();
    OpenGpaMonitorStart(monitor_);
  }
  void Stop() {
    OpenGpaMonitorStop(monitor_);
    stop_ns_ = NowNs();
    std::vector<OpenGpaMonitorRecord> buffer(65536);
    for (GpaUInt32 count = 1; count > 0;) {
      OpenGpaMonitorRead(monitor_, buffer.data(), static_cast<GpaUInt32>(buffer.size()), &count);
      for (GpaUInt32 i = 0; i < count; ++i) {
        records_.push_back({buffer[i].timestamp_ns, buffer[i].duration_ns, buffer[i].counter_index, buffer[i].value});
      }
    }
  }
  int Index(const char* name) const {
    for (size_t i = 0; i < names_.size(); ++i) {
      if (names_[i] == name) return static_cast<int>(i);
    }
    return -1;
  }
  std::vector<Record> Of(const char* name, uint64_t from = 0, uint64_t to = UINT64_MAX) const {
    std::vector<Record> selected;
    const int index = Index(name);
    for (const Record& r : records_) {
      if (static_cast<int>(r.counter) == index && r.t >= from && r.t <= to) selected.push_back(r);
    }
    return selected;
  }
  double Mean(const char* name, uint64_t from, uint64_t to) const {
    const auto selected = Of(name, from, to);
    double sum = 0;
    for (const Record& r : selected) sum += r.value;
    return selected.empty() ? NAN : sum / selected.size();
  }
  double Sum(const char* name, uint64_t from = 0, uint64_t to = UINT64_MAX) const {
    double sum = 0;
    for (const Record& r : Of(name, from, to)) sum += r.value;
    return sum;
  }
  uint64_t StartNs() const { return start_ns_; }
  uint64_t StopNs() const { return stop_ns_; }
  const std::vector<Record>& Records() const { return records_; }

 private:
  GpaStatus status_ = kGpaStatusErrorFailed;
  OpenGpaMonitor monitor_ = nullptr;
  std::vector<std::string> names_;
  std::vector<Record> records_;
  uint64_t start_ns_ = 0;
  uint64_t stop_ns_ = 0;
};

constexpr uint64_t kMs = 1000000;

void NvmlChecks(const FfmaLaunch& ffma) {
  std::printf("\n== NVML (interval 50 ms)\n");
  Session s({"nvml"}, 50, 0);
  if (s.Status() != kGpaStatusOk) return Check(false, "NVML monitor created", Format("status %d", s.Status()));
  GpaUInt32 devices = 0;
  OpenGpaMonitorGetDeviceCount(s.Handle(), &devices);
  OpenGpaMonitorDeviceInfo device{};
  OpenGpaMonitorGetDeviceInfo(s.Handle(), 0, &device);
  std::printf("devices: %u; GPU %u = %s %s\n", devices, device.index, device.name, device.uuid);

  const size_t kAllocation = size_t{1} << 30;
  const size_t kPinned = size_t{256} << 20;
  void* pinned = nullptr;
  void* staging = nullptr;
  CUDA_OK(cudaMallocHost(&pinned, kPinned));
  CUDA_OK(cudaMalloc(&staging, kPinned));
  std::memset(pinned, 1, kPinned);

  s.Start();
  SleepSeconds(1.0);
  const uint64_t busy_begin = NowNs();
  const int launches = RunFfmaFor(ffma, 2.0);
  const uint64_t busy_end = NowNs();
  SleepSeconds(0.6);
  const uint64_t before_alloc = NowNs();
  void* block = nullptr;
  CUDA_OK(cudaMalloc(&block, kAllocation));
  CUDA_OK(cudaMemset(block, 0, kAllocation));
  CUDA_OK(cudaDeviceSynchronize());
  const uint64_t after_alloc = NowNs();
  SleepSeconds(0.5);
  // PCIe: host-to-device then device-to-host, timed on the host around synchronised batches.
  auto copy_for = [&](cudaMemcpyKind kind, double seconds, uint64_t* begin, uint64_t* end) {
    size_t bytes = 0;
    *begin = NowNs();
    const auto stop = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < stop) {
      if (kind == cudaMemcpyHostToDevice)
        CUDA_OK(cudaMemcpy(staging, pinned, kPinned, kind));
      else
        CUDA_OK(cudaMemcpy(pinned, staging, kPinned, kind));
      bytes += kPinned;
    }
    *end = NowNs();
    return bytes;
  };
  uint64_t h2d_begin, h2d_end, d2h_begin, d2h_end;
  const size_t h2d_bytes = copy_for(cudaMemcpyHostToDevice, 1.2, &h2d_begin, &h2d_end);
  SleepSeconds(0.3);
  const size_t d2h_bytes = copy_for(cudaMemcpyDeviceToHost, 1.2, &d2h_begin, &d2h_end);
  SleepSeconds(0.3);
  s.Stop();
  CUDA_OK(cudaFree(block));
  CUDA_OK(cudaFree(staging));
  CUDA_OK(cudaFreeHost(pinned));

  std::printf("records: %zu over %.2f s; FFMA launches in the busy window: %d\n", s.Records().size(),
              (s.StopNs() - s.StartNs()) / 1e9, launches);
  const double idle_util = s.Mean("gpu_utilization_percent", s.StartNs() + 300 * kMs, busy_begin);
  const double busy_util = s.Mean("gpu_utilization_percent", busy_begin + 1000 * kMs, busy_end);
  Check(idle_util < 10 && busy_util > 90, "gpu_utilization_percent: idle < 10, FFMA-busy > 90",
        Format("idle %.1f %%, busy %.1f %%", idle_util, busy_util));
  const double idle_power = s.Mean("power_watts", s.StartNs() + 300 * kMs, busy_begin);
  const double busy_power = s.Mean("power_watts", busy_begin + 1000 * kMs, busy_end);
  Check(busy_power > idle_power + 50, "power_watts rises by > 50 W under FFMA load",
        Format("idle %.1f W, busy %.1f W", idle_power, busy_power));
  const double idle_clock = s.Mean("sm_clock_mhz", s.StartNs() + 300 * kMs, busy_begin);
  const double busy_clock = s.Mean("sm_clock_mhz", busy_begin + 1000 * kMs, busy_end);
  std::printf("info  sm_clock_mhz idle %.0f, busy %.0f; memory_clock_mhz %.0f; temperature %.0f C\n", idle_clock,
              busy_clock, s.Mean("memory_clock_mhz", busy_begin, busy_end),
              s.Mean("temperature_celsius", busy_begin, busy_end));

  const auto used_before = s.Of("memory_used_bytes", before_alloc - 400 * kMs, before_alloc);
  const auto used_after = s.Of("memory_used_bytes", after_alloc + 100 * kMs, after_alloc + 500 * kMs);
  if (used_before.empty() || used_after.empty()) {
    Check(false, "memory_used_bytes grows by the 1 GiB allocation", "no records around the allocation");
  } else {
    const double grown = used_after.back().value - used_before.back().value;
    Check(std::fabs(grown - double(kAllocation)) <= 4.0 * (1 << 20), "memory_used_bytes grows by 1 GiB +- 4 MiB",
          Format("grew %.3f MiB for a %.0f MiB cudaMalloc", grown / (1 << 20), double(kAllocation) / (1 << 20)));
  }
  const double total = s.Mean("memory_total_bytes", s.StartNs(), s.StopNs());
  std::printf("info  memory_total_bytes %.0f (%.1f GiB)\n", total, total / (1 << 30));

  auto pcie_check = [&](const char* counter, uint64_t begin, uint64_t end, size_t bytes, const char* what) {
    const double host_rate = bytes / ((end - begin) / 1e9);                       // bytes/s, timed on the host
    const double nvml_rate = s.Mean(counter, begin + 200 * kMs, end - 50 * kMs);  // "KB/s" as NVML reports
    const double ratio_1024 = nvml_rate * 1024 / host_rate;
    const double ratio_1000 = nvml_rate * 1000 / host_rate;
    Check(ratio_1024 > 0.7 && ratio_1024 < 1.3, what,
          Format("host-timed %.2f GB/s; NVML %.0f KB/s = %.2f GB/s if KB=1024 (ratio %.3f), %.2f GB/s if KB=1000 "
                 "(ratio %.3f)",
                 host_rate / 1e9, nvml_rate, nvml_rate * 1024 / 1e9, ratio_1024, nvml_rate * 1000 / 1e9, ratio_1000));
  };
  pcie_check("pcie_rx_kilobytes_per_second", h2d_begin, h2d_end, h2d_bytes,
             "pcie_rx matches host-to-device copy rate within 30 %");
  pcie_check("pcie_tx_kilobytes_per_second", d2h_begin, d2h_end, d2h_bytes,
             "pcie_tx matches device-to-host copy rate within 30 %");

  // Energy: NVML's own counter, differenced per tick, against the integral of the power readings.
  const auto power = s.Of("power_watts");
  const auto energy = s.Of("energy_joules");
  if (power.size() > 2 && !energy.empty()) {
    const uint64_t from = energy.front().t - energy.front().duration;
    const uint64_t to = energy.back().t;
    double integral = 0;
    for (size_t i = 1; i < power.size(); ++i) {
      if (power[i - 1].t < from || power[i].t > to) continue;
      integral += 0.5 * (power[i].value + power[i - 1].value) * (power[i].t - power[i - 1].t) / 1e9;
    }
    const double joules = s.Sum("energy_joules");
    Check(std::fabs(joules / integral - 1) < 0.15, "energy_joules within 15 % of the integral of power_watts",
          Format("energy %.1f J, integral of power %.1f J over %.2f s", joules, integral, (to - from) / 1e9));
  } else {
    Check(false, "energy_joules within 15 % of the integral of power_watts", "missing records");
  }
}

void PmDefaultSetChecks(const FfmaLaunch& ffma, double ncu_inst_per_launch) {
  std::printf("\n== CUPTI PM sampling, default set (hardware interval 1 ms, decode every 100 ms)\n");
  const size_t kCopy = size_t{512} << 20;
  void* a = nullptr;
  void* b = nullptr;
  CUDA_OK(cudaMalloc(&a, kCopy));
  CUDA_OK(cudaMalloc(&b, kCopy));
  CUDA_OK(cudaMemset(a, 3, kCopy));
  CUDA_OK(cudaDeviceSynchronize());

  Session s({"pm"}, 100, 1000000);
  if (s.Status() != kGpaStatusOk)
    return Check(false, "PM monitor created (default set)", Format("status %d", s.Status()));
  s.Start();
  SleepSeconds(0.3);
  const uint64_t busy_begin = NowNs();
  const int launches = RunFfmaFor(ffma, 1.0);
  const uint64_t busy_end = NowNs();
  SleepSeconds(0.3);
  const int kCopies = 8;
  const uint64_t copy_begin = NowNs();
  for (int i = 0; i < kCopies; ++i) CUDA_OK(cudaMemcpyAsync(b, a, kCopy, cudaMemcpyDeviceToDevice));
  CUDA_OK(cudaDeviceSynchronize());
  const uint64_t copy_end = NowNs();
  SleepSeconds(0.3);
  s.Stop();

  const auto cycles = s.Of("gpc__cycles_elapsed.max");
  const double window = (s.StopNs() - s.StartNs()) / 1e9;
  double duration_sum = 0;
  uint64_t min_t = UINT64_MAX, max_t = 0;
  bool increasing = true;
  for (size_t i = 0; i < cycles.size(); ++i) {
    duration_sum += cycles[i].duration;
    min_t = std::min(min_t, cycles[i].t);
    max_t = std::max(max_t, cycles[i].t);
    if (i > 0 && cycles[i].t <= cycles[i - 1].t) increasing = false;
  }
  Check(cycles.size() > 0.9 * window * 1000 && cycles.size() < 1.1 * window * 1000,
        "about one sample per ms of monitoring",
        Format("%zu samples in %.3f s (mean span %.1f us)", cycles.size(), window,
               cycles.empty() ? 0.0 : duration_sum / cycles.size() / 1e3));
  Check(increasing && min_t + 20 * kMs >= s.StartNs() && max_t <= s.StopNs() + 20 * kMs,
        "sample timestamps increase and lie within Start..Stop (+-20 ms)",
        Format("first %+.1f ms after Start, last %+.1f ms after Stop", (double(min_t) - double(s.StartNs())) / 1e6,
               (double(max_t) - double(s.StopNs())) / 1e6));

  // SM activity per sample: active cycles (average over SMs) / elapsed cycles.
  auto active_fraction = [&](uint64_t from, uint64_t to) {
    const auto active = s.Of("sm__cycles_active.avg", from, to);
    const auto elapsed = s.Of("gpc__cycles_elapsed.max", from, to);
    double a_sum = 0, e_sum = 0;
    for (size_t i = 0; i < std::min(active.size(), elapsed.size()); ++i)
      a_sum += active[i].value, e_sum += elapsed[i].value;
    return e_sum > 0 ? a_sum / e_sum : NAN;
  };
  const double idle = active_fraction(s.StartNs() + 20 * kMs, busy_begin - 20 * kMs);
  const double busy = active_fraction(busy_begin + 50 * kMs, busy_end - 20 * kMs);
  Check(busy > 0.9 && idle < 0.05, "SM active fraction: FFMA-busy > 0.9, idle < 0.05",
        Format("busy %.3f, idle %.4f", busy, idle));
  const auto busy_cycles = s.Of("gpc__cycles_elapsed.max", busy_begin + 50 * kMs, busy_end - 20 * kMs);
  double mhz = 0;
  for (const Record& r : busy_cycles) mhz += r.value / (r.duration / 1e3);
  std::printf("info  GPC clock from gpc__cycles_elapsed.max / sample span while busy: %.0f MHz\n",
              busy_cycles.empty() ? 0.0 : mhz / busy_cycles.size());
  std::printf("info  sm__warps_active pct busy %.1f; dram__throughput pct, max over samples during the copies %.1f\n",
              s.Mean("sm__warps_active.avg.pct_of_peak_sustained_elapsed", busy_begin + 50 * kMs, busy_end - 20 * kMs),
              [&] {
                double peak = 0;
                for (const Record& r :
                     s.Of("dram__throughput.avg.pct_of_peak_sustained_elapsed", copy_begin, copy_end + 2 * kMs))
                  peak = std::max(peak, r.value);
                return peak;
              }());
  // Where the busy samples start and end against the host's clock: the accuracy of the timestamps.
  {
    const auto active = s.Of("sm__cycles_active.avg");
    const auto elapsed = s.Of("gpc__cycles_elapsed.max");
    uint64_t first = 0, last = 0;
    for (size_t i = 0; i < std::min(active.size(), elapsed.size()); ++i) {
      if (active[i].value > 0.5 * elapsed[i].value && active[i].t < copy_begin) {
        if (first == 0) first = active[i].t - active[i].duration;
        last = active[i].t;
      }
    }
    std::printf(
        "info  busy samples span %+.2f ms after the first launch .. %+.2f ms after the last kernel ended "
        "(host clock)\n",
        (double(first) - double(busy_begin)) / 1e6, (double(last) - double(busy_end)) / 1e6);
  }

  // DRAM bytes: 8 copies of 512 MiB read and write 4 GiB each (50 MB of L2 cannot hold them).
  const double expected = double(kCopies) * kCopy;
  const double read = s.Sum("dram__bytes_read.sum", copy_begin, copy_end + 50 * kMs);
  const double written = s.Sum("dram__bytes_write.sum", copy_begin, copy_end + 50 * kMs);
  Check(std::fabs(read / expected - 1) < 0.03 && std::fabs(written / expected - 1) < 0.03,
        "dram__bytes_read/write.sum = bytes copied within 3 %",
        Format("read %.4f GiB, written %.4f GiB, copied %.4f GiB (%.2f GB/s)", read / (1 << 30), written / (1 << 30),
               expected / (1 << 30), 2 * expected / ((copy_end - copy_begin) / 1e9) / 1e9));

  const double inst = s.Sum("sm__inst_executed.sum", busy_begin - 10 * kMs, busy_end + 50 * kMs);
  std::printf("info  sm__inst_executed.sum over all samples %.6g, in the FFMA window %.6g\n",
              s.Sum("sm__inst_executed.sum"), inst);
  if (ncu_inst_per_launch > 0) {
    const double expected_inst = ncu_inst_per_launch * launches;
    Check(std::fabs(inst / expected_inst - 1) < 0.02, "sm__inst_executed.sum = launches x ncu's count within 2 %",
          Format("PM %.6g, ncu %.6g x %d launches = %.6g (ratio %.5f)", inst, ncu_inst_per_launch, launches,
                 expected_inst, inst / expected_inst));
  } else {
    std::printf("info  sm__inst_executed.sum over %d launches: %.6g (no ncu count given)\n", launches, inst);
  }
  CUDA_OK(cudaFree(a));
  CUDA_OK(cudaFree(b));
}

void PmFmaCountCheck(const FfmaLaunch& ffma, double ncu_fma_per_launch) {
  std::printf("\n== CUPTI PM sampling, FMA-pipe instructions of a known kernel\n");
  Session s({"gpc__cycles_elapsed.max", "sm__inst_executed_pipe_fma.sum"}, 100, 1000000);
  if (s.Status() != kGpaStatusOk) return Check(false, "PM monitor created (fma pipe)", Format("status %d", s.Status()));
  const int kLaunches = 50;
  s.Start();
  SleepSeconds(0.1);
  RunFfma(ffma, kLaunches);
  SleepSeconds(0.1);
  s.Stop();
  const double fma = s.Sum("sm__inst_executed_pipe_fma.sum");
  const double expected = ffma.WarpFfmaInstructions() * kLaunches;
  Check(
      fma >= expected && fma < expected * 1.01, "sm__inst_executed_pipe_fma.sum = 50 x the kernel's FFMAs (+1 %)",
      Format("PM %.6g, source %.6g (%d blocks x %d threads / 32 x %d iterations x %d FFMA x %d launches), ratio %.5f",
             fma, expected, ffma.blocks, ffma.threads, ffma.iterations, kFfmaPerIteration, kLaunches, fma / expected));
  if (ncu_fma_per_launch > 0) {
    Check(std::fabs(fma / (ncu_fma_per_launch * kLaunches) - 1) < 0.01,
          "sm__inst_executed_pipe_fma.sum = 50 x ncu's count (1 %)",
          Format("ncu %.6g per launch, ratio %.5f", ncu_fma_per_launch, fma / (ncu_fma_per_launch * kLaunches)));
  }
}

// The same 30 launches sampled at several hardware intervals: sample count, SM activity, and the
// instruction total against ncu's count (does anything get lost at sample boundaries?).
void PmIntervalSweep(const FfmaLaunch& ffma, double ncu_inst_per_launch) {
  std::printf("\n== CUPTI PM sampling, interval sweep (3 metrics, 30 FFMA launches each)\n");
  const int kLaunches = 30;
  for (uint64_t interval_ns : {10000000ull, 1000000ull, 100000ull, 20000ull}) {
    Session s({"gpc__cycles_elapsed.max", "sm__cycles_active.avg", "sm__inst_executed.sum"}, 100, interval_ns);
    if (s.Status() != kGpaStatusOk) {
      Check(false, "PM monitor created",
            Format("interval %llu ns: status %d", (unsigned long long)interval_ns, s.Status()));
      continue;
    }
    s.Start();
    SleepSeconds(0.05);
    const uint64_t begin = NowNs();
    RunFfma(ffma, kLaunches);
    const uint64_t end = NowNs();
    SleepSeconds(0.05);
    s.Stop();
    const auto elapsed = s.Of("gpc__cycles_elapsed.max");
    const double window = (s.StopNs() - s.StartNs()) / 1e9;
    const double expected = window * 1e9 / interval_ns;
    double active = 0, cycles = 0;
    for (const Record& r : s.Of("sm__cycles_active.avg", begin + interval_ns, end - interval_ns)) active += r.value;
    for (const Record& r : s.Of("gpc__cycles_elapsed.max", begin + interval_ns, end - interval_ns)) cycles += r.value;
    const double inst = s.Sum("sm__inst_executed.sum");
    const std::string detail =
        Format("%zu samples in %.3f s (expected %.0f); SM active while busy %.3f; inst / (ncu x 30) = %.5f",
               elapsed.size(), window, expected, cycles > 0 ? active / cycles : NAN,
               ncu_inst_per_launch > 0 ? inst / (ncu_inst_per_launch * kLaunches) : NAN);
    if (interval_ns < 100000) {  // beyond what one decode a second can keep (documented limit)
      std::printf("info  interval %llu us: %s\n", (unsigned long long)(interval_ns / 1000), detail.c_str());
      continue;
    }
    Check(elapsed.size() > 0.8 * expected && elapsed.size() < 1.1 * expected,
          Format("interval %llu us: sample count as expected (0.8..1.1)", (unsigned long long)(interval_ns / 1000))
              .c_str(),
          detail);
  }
}

// How the GPU-side buffer size drives decode cost and loss, and what one record takes (a buffer too
// small for a tick's records loses samples, which the monitor logs as gaps).
void PmBufferStudy(const FfmaLaunch& ffma, double ncu_inst_per_launch) {
  std::printf("\n== CUPTI PM sampling, hardware buffer size study (decode every 100 ms, 40 FFMA launches)\n");
  struct Case {
    uint64_t interval_ns;
    uint64_t buffer;
    bool default_set;
  };
  const Case cases[] = {{1000000, 64u << 20, true}, {1000000, 8u << 20, true}, {1000000, 4u << 20, true},
                        {100000, 64u << 20, true},  {100000, 8u << 20, true},  {100000, 4u << 20, false}};
  for (const Case& c : cases) {
    std::vector<const char*> counters = {"pm"};
    if (!c.default_set) counters = {"gpc__cycles_elapsed.max", "sm__cycles_active.avg", "sm__inst_executed.sum"};
    Session s(counters, 100, c.interval_ns, c.buffer);
    std::printf("-- interval %llu us, buffer %llu KiB, %s\n", (unsigned long long)(c.interval_ns / 1000),
                (unsigned long long)(c.buffer >> 10), c.default_set ? "default set (9 metrics)" : "3 metrics");
    if (s.Status() != kGpaStatusOk) {
      std::printf("info  not created: status %d\n", s.Status());
      continue;
    }
    s.Start();
    SleepSeconds(0.05);
    RunFfma(ffma, 40);
    SleepSeconds(0.05);
    s.Stop();
    const double window = (s.StopNs() - s.StartNs()) / 1e9;
    std::printf("info  %zu samples in %.3f s (expected %.0f); inst / (ncu x 40) = %.5f\n",
                s.Of("gpc__cycles_elapsed.max").size(), window, window * 1e9 / c.interval_ns,
                ncu_inst_per_launch > 0 ? s.Sum("sm__inst_executed.sum") / (ncu_inst_per_launch * 40) : NAN);
  }
}

// SM-side counters of one sample per DecodeData call come out near zero during continuous work. The
// source decodes every 100 ms whatever the monitor's tick: how many samples of 1.2 s of FFMA read
// idle, and when (they should follow the decodes, not the ticks)?
void PmDropoutStudy(const FfmaLaunch& ffma) {
  for (uint32_t tick_ms : {100u, 500u}) {
    std::printf(
        "\n== CUPTI PM sampling, 2 ms samples, monitor tick %u ms (decode every 100 ms whatever the tick), 1.2 s of "
        "FFMA\n",
        tick_ms);
    Session s({"gpc__cycles_elapsed.max", "sm__cycles_active.avg", "sm__inst_executed.sum"}, tick_ms, 2000000);
    if (s.Status() != kGpaStatusOk) continue;
    s.Start();
    const uint64_t begin = NowNs();
    RunFfma(ffma, 120);
    const uint64_t end = NowNs();
    s.Stop();
    const auto elapsed = s.Of("gpc__cycles_elapsed.max", begin + 4 * kMs, end - 2 * kMs);
    const auto active = s.Of("sm__cycles_active.avg", begin + 4 * kMs, end - 2 * kMs);
    std::string dropouts;
    int count = 0;
    for (size_t i = 0; i < std::min(elapsed.size(), active.size()); ++i) {
      if (active[i].value < 0.5 * elapsed[i].value) {
        ++count;
        dropouts += Format(" %.1f", (double(active[i].t) - double(s.StartNs())) / 1e6);
      }
    }
    std::printf("info  %d of %zu busy samples read SM-idle; they end at (ms after Start):%s\n", count,
                std::min(elapsed.size(), active.size()), dropouts.c_str());
  }
}

}  // namespace

int main(int argc, char** argv) {
  double busy_seconds = 0;
  int ffma_launches = 0;
  double ncu_fma = 0, ncu_inst = 0;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--busy-seconds")
      busy_seconds = std::atof(argv[i + 1]);
    else if (flag == "--ffma-launches")
      ffma_launches = std::atoi(argv[i + 1]);
    else if (flag == "--ncu-fma")
      ncu_fma = std::atof(argv[i + 1]);
    else if (flag == "--ncu-inst")
      ncu_inst = std::atof(argv[i + 1]);
  }
  CUDA_OK(cudaFree(nullptr));  // the context first: its memory is not part of what the checks measure
  const FfmaLaunch ffma = MakeFfmaLaunch();
  if (ffma_launches > 0) {
    RunFfma(ffma, ffma_launches);
    std::printf("%d launches of FfmaKernel<<<%d, %d>>>(iterations %d): %.6g warp FFMA each\n", ffma_launches,
                ffma.blocks, ffma.threads, ffma.iterations, ffma.WarpFfmaInstructions());
    return 0;
  }
  if (busy_seconds > 0) {
    std::printf("busy: %d launches\n", RunFfmaFor(ffma, busy_seconds));
    return 0;
  }
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // a crash must not swallow what was already printed
  OpenGpaMonitorRegisterLoggingCallback(kGpaLoggingErrorAndMessage, LogToStdout);
  NvmlChecks(ffma);
  PmDefaultSetChecks(ffma, ncu_inst);
  PmFmaCountCheck(ffma, ncu_fma);
  PmIntervalSweep(ffma, ncu_inst);
  PmBufferStudy(ffma, ncu_inst);
  PmDropoutStudy(ffma);
  std::printf("\n%d check(s) failed\n", g_failures);
  return g_failures;
}
