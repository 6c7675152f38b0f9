// opengpa-doctor-monitor: libOpenGPAMonitor.so (gpu_performance_api/opengpa_monitor.h, the C API a user calls) on
// the GPU of CUDA device 0, while the probe makes work of known size with the monitor's own device-check kernel
// (tests/device/monitor/workloads.cuh, shared, not copied):
//   NVML, 50 ms ticks: memory_used_bytes grows by a 256 MiB cudaMalloc + memset (within 2%: the driver's page
//     granularity); gpu_utilization_percent is 100 (within 10%) while FfmaKernel keeps every SM busy for 1.2 s;
//     energy_joules (NVML's energy counter, differenced per tick) agrees with the integral of power_watts within 15%
//     over a window that ends 1.2 s after the work (NVML averages power over 1 s on Hopper and newer, so the average
//     lags a load step; measured on the H100: 416 J against 341 J when the window closed 0.1 s after the work)
//   CUPTI PM sampling (not --quick): sm__inst_executed_pipe_fma.sum over 20 launches of FfmaKernel = the source's
//     count (blocks x warps x iterations x 128 FFMA per iteration), within 1%
// The monitor library is looked for where the GPA libraries are (--library-dir, else beside opengpa, else the
// loader's path). NVML or CUDA missing makes the monitor absent; PM sampling refused (profiling restricted to
// admins, another profiler) is a cause after NVML's checks, which still work without privileges.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "gpa_failure_causes.h"
#include "gpu_performance_api/opengpa_monitor.h"
#include "loaded_modules.h"
#include "platform/dynamic_library.h"
#include "probe_main.h"
#include "workloads.cuh"

namespace opengpa::doctor {
namespace {

constexpr char kMonitorLibrary[] = "libOpenGPAMonitor.so";
constexpr std::uint64_t kMs = 1000000;
constexpr std::size_t kAllocation = std::size_t{256} << 20;
constexpr double kBusySeconds = 1.2;
constexpr double kPowerAveragingSeconds = 1.0;  // NVML's power_watts window on Hopper and newer
constexpr int kPmLaunches = 20;
constexpr int kFfmaIterations = 10000;  // about 10 ms per launch on an H100
constexpr int kFfmaThreads = 256;

void CudaCheck(cudaError_t result, const char* call) {
  if (result != cudaSuccess) throw std::runtime_error(std::string(call) + ": " + cudaGetErrorString(result));
}

std::uint64_t NowNs() {
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count());
}

void Sleep(double seconds) { std::this_thread::sleep_for(std::chrono::duration<double>(seconds)); }

// The monitor's C API, resolved from the loaded library.
struct MonitorApi {
  decltype(&OpenGpaMonitorRegisterLoggingCallback) register_logging = nullptr;
  decltype(&OpenGpaMonitorCreate) create = nullptr;
  decltype(&OpenGpaMonitorDestroy) destroy = nullptr;
  decltype(&OpenGpaMonitorGetCounterCount) counter_count = nullptr;
  decltype(&OpenGpaMonitorGetCounterInfo) counter_info = nullptr;
  decltype(&OpenGpaMonitorGetDeviceCount) device_count = nullptr;
  decltype(&OpenGpaMonitorGetDeviceInfo) device_info = nullptr;
  decltype(&OpenGpaMonitorStart) start = nullptr;
  decltype(&OpenGpaMonitorStop) stop = nullptr;
  decltype(&OpenGpaMonitorRead) read = nullptr;

  // The first function the library lacks; "" when it has them all.
  std::string Resolve(const DynamicLibrary& library) {
    const std::pair<const char*, bool> found[] = {
        {"OpenGpaMonitorRegisterLoggingCallback",
         library.Resolve("OpenGpaMonitorRegisterLoggingCallback", &register_logging)},
        {"OpenGpaMonitorCreate", library.Resolve("OpenGpaMonitorCreate", &create)},
        {"OpenGpaMonitorDestroy", library.Resolve("OpenGpaMonitorDestroy", &destroy)},
        {"OpenGpaMonitorGetCounterCount", library.Resolve("OpenGpaMonitorGetCounterCount", &counter_count)},
        {"OpenGpaMonitorGetCounterInfo", library.Resolve("OpenGpaMonitorGetCounterInfo", &counter_info)},
        {"OpenGpaMonitorGetDeviceCount", library.Resolve("OpenGpaMonitorGetDeviceCount", &device_count)},
        {"OpenGpaMonitorGetDeviceInfo", library.Resolve("OpenGpaMonitorGetDeviceInfo", &device_info)},
        {"OpenGpaMonitorStart", library.Resolve("OpenGpaMonitorStart", &start)},
        {"OpenGpaMonitorStop", library.Resolve("OpenGpaMonitorStop", &stop)},
        {"OpenGpaMonitorRead", library.Resolve("OpenGpaMonitorRead", &read)},
    };
    for (const auto& [name, ok] : found) {
      if (!ok) return name;
    }
    return {};
  }
};

std::mutex log_mutex;
std::vector<std::string> monitor_log;
bool verbose_log = false;

void KeepMonitorLog(GpaLoggingType type, const char* message) {
  const std::string text = message ? message : "";
  if ((type & kGpaLoggingError) != 0) {
    std::lock_guard<std::mutex> lock(log_mutex);
    monitor_log.push_back(text);
  }
  if (verbose_log) std::fprintf(stderr, "OpenGPA monitor: %s\n", text.c_str());
}

std::vector<std::string> TakeLog() {
  std::lock_guard<std::mutex> lock(log_mutex);
  return std::exchange(monitor_log, {});
}

std::string StatusText(GpaStatus status) {
  switch (status) {
    case kGpaStatusErrorLibLoadFailed: return "kGpaStatusErrorLibLoadFailed";
    case kGpaStatusErrorCounterNotFound: return "kGpaStatusErrorCounterNotFound";
    case kGpaStatusErrorHardwareNotSupported: return "kGpaStatusErrorHardwareNotSupported";
    case kGpaStatusErrorNotEnoughPasses: return "kGpaStatusErrorNotEnoughPasses";
    default: return "GpaStatus " + std::to_string(static_cast<int>(status));
  }
}

struct Record {
  std::uint64_t t;
  double value;
};

// One monitor over one GPU, its records kept after Stop, by counter name.
class MonitorRun {
 public:
  MonitorRun(const MonitorApi& api, std::vector<const char*> counters, GpaUInt32 interval_ms,
             const GpaUInt32* device_index)
      : api_(api) {
    OpenGpaMonitorConfig config{};
    config.struct_size = sizeof config;
    config.interval_ms = interval_ms;
    config.counter_names = counters.data();
    config.counter_count = static_cast<GpaUInt32>(counters.size());
    config.device_indices = device_index;
    config.device_count = device_index != nullptr ? 1 : 0;
    config.pm_interval_ns = kMs;
    config.record_capacity = 1u << 20;
    status_ = api_.create(&config, &monitor_);
    if (status_ != kGpaStatusOk) {
      monitor_ = nullptr;
      return;
    }
    GpaUInt32 count = 0;
    api_.counter_count(monitor_, &count);
    for (GpaUInt32 i = 0; i < count; ++i) {
      OpenGpaMonitorCounterInfo info{};
      api_.counter_info(monitor_, i, &info);
      names_.push_back(info.name != nullptr ? info.name : "");
    }
  }
  ~MonitorRun() {
    if (monitor_ != nullptr) api_.destroy(monitor_);
  }
  MonitorRun(const MonitorRun&) = delete;
  MonitorRun& operator=(const MonitorRun&) = delete;

  GpaStatus Status() const { return status_; }
  OpenGpaMonitor Handle() const { return monitor_; }
  void Start() {
    if (const GpaStatus status = api_.start(monitor_); status != kGpaStatusOk) {
      throw std::runtime_error("OpenGpaMonitorStart returned " + StatusText(status));
    }
  }
  // Stops and keeps the records of GPU `device` (the monitor's index).
  void Stop(GpaUInt32 device) {
    api_.stop(monitor_);
    std::vector<OpenGpaMonitorRecord> buffer(65536);
    for (GpaUInt32 count = 1; count > 0;) {
      count = 0;
      api_.read(monitor_, buffer.data(), static_cast<GpaUInt32>(buffer.size()), &count);
      for (GpaUInt32 i = 0; i < count; ++i) {
        if (buffer[i].device_index != device || buffer[i].counter_index >= names_.size()) continue;
        records_[names_[buffer[i].counter_index]].push_back({buffer[i].timestamp_ns, buffer[i].value});
      }
    }
  }
  std::vector<Record> Of(const std::string& name, std::uint64_t from = 0, std::uint64_t to = UINT64_MAX) const {
    std::vector<Record> selected;
    if (const auto found = records_.find(name); found != records_.end()) {
      for (const Record& r : found->second) {
        if (r.t >= from && r.t <= to) selected.push_back(r);
      }
    }
    return selected;
  }
  double Mean(const std::string& name, std::uint64_t from, std::uint64_t to) const {
    const auto selected = Of(name, from, to);
    double sum = 0;
    for (const Record& r : selected) sum += r.value;
    return selected.empty() ? NAN : sum / static_cast<double>(selected.size());
  }
  double Sum(const std::string& name) const {
    double sum = 0;
    for (const Record& r : Of(name)) sum += r.value;
    return sum;
  }

 private:
  const MonitorApi& api_;
  OpenGpaMonitor monitor_ = nullptr;
  GpaStatus status_ = kGpaStatusErrorFailed;
  std::vector<std::string> names_;
  std::map<std::string, std::vector<Record>> records_;
};

// The reference FFMA launch of tests/device/monitor: 8 blocks of 256 threads per SM.
struct FfmaWork {
  int blocks = 0;
  float* out = nullptr;
  explicit FfmaWork(int multiprocessors) : blocks(multiprocessors * 8) {
    CudaCheck(cudaMalloc(&out, sizeof(float) * blocks * kFfmaThreads), "cudaMalloc");
  }
  ~FfmaWork() { cudaFree(out); }
  void Launch(int launches) const {
    for (int i = 0; i < launches; ++i) FfmaKernel<<<blocks, kFfmaThreads>>>(out, kFfmaIterations, 0.999f, 0.001f);
    CudaCheck(cudaGetLastError(), "FfmaKernel");
    CudaCheck(cudaDeviceSynchronize(), "FfmaKernel");
  }
  double WarpFfmaInstructions(int launches) const {
    return double(blocks) * kFfmaThreads / 32 * kFfmaIterations * kFfmaPerIteration * launches;
  }
};

std::string UuidText(const cudaUUID_t& uuid) {
  std::string text = "GPU-";
  for (int i = 0; i < 16; ++i) {
    char hex[3];
    std::snprintf(hex, sizeof hex, "%02x", static_cast<unsigned char>(uuid.bytes[i]));
    text += hex;
    if (i == 3 || i == 5 || i == 7 || i == 9) text += '-';
  }
  return text;
}

// The monitor library, from where `opengpa doctor` said to look; nullptr with a cause.
std::unique_ptr<DynamicLibrary> LoadMonitorLibrary(const GpaSearch& search, ProbeReport& report) {
  const auto [paths, tried] = SearchPaths(search, kMonitorLibrary);
  std::string errors;
  auto library = DynamicLibrary::Open(paths, &errors);
  if (library == nullptr) {
    report.SetGpaLibraryTried(tried);
    report.AddCause(ExplainLibraryNotLoaded(kMonitorLibrary, tried, errors, !search.library_dir.empty()));
    return nullptr;
  }
  report.SetGpaLibrary(library->Name(), tried, "");
  return library;
}

// NVML's checks; false when the monitor could not be created (the cause is in the report).
bool CheckNvml(const MonitorApi& api, const FfmaWork& ffma, const std::string& uuid, GpaUInt32* device,
               ProbeReport& report) {
  MonitorRun run(api, {"memory_used_bytes", "gpu_utilization_percent", "power_watts", "energy_joules"}, 50, nullptr);
  if (run.Status() != kGpaStatusOk) {
    report.AddCause(ExplainGpaFailure("OpenGpaMonitorCreate (NVML counters)", StatusText(run.Status()), TakeLog()));
    return false;
  }
  GpaUInt32 devices = 0;
  api.device_count(run.Handle(), &devices);
  bool matched = false;
  for (GpaUInt32 i = 0; i < devices && !matched; ++i) {
    OpenGpaMonitorDeviceInfo info{};
    if (api.device_info(run.Handle(), i, &info) == kGpaStatusOk && info.uuid != nullptr && uuid == info.uuid) {
      *device = info.index;
      matched = true;
      report.Driver()["monitor_device"] = {{"index", info.index}, {"name", info.name ? info.name : ""}};
    }
  }
  if (!matched) {
    report.AddCause({"device_not_matched", "NVML lists no GPU with CUDA device 0's UUID " + uuid,
                     "CUDA and NVML see different GPUs (a container or CUDA_VISIBLE_DEVICES hiding one from NVML); "
                     "compare `nvidia-smi -L` with the container's devices"});
    return false;
  }

  run.Start();
  Sleep(0.3);
  const std::uint64_t before_alloc = NowNs();
  void* block = nullptr;
  CudaCheck(cudaMalloc(&block, kAllocation), "cudaMalloc (256 MiB)");
  CudaCheck(cudaMemset(block, 0, kAllocation), "cudaMemset");
  CudaCheck(cudaDeviceSynchronize(), "cudaMemset");
  const std::uint64_t after_alloc = NowNs();
  Sleep(0.3);
  const std::uint64_t busy_begin = NowNs();
  const auto busy_until = std::chrono::steady_clock::now() + std::chrono::duration<double>(kBusySeconds);
  while (std::chrono::steady_clock::now() < busy_until) ffma.Launch(5);
  const std::uint64_t busy_end = NowNs();
  // power_watts is a 1 s moving average on Hopper and newer (nvmlDeviceGetPowerUsage): its integral equals the
  // energy only over a window that lasts past the load by more than the averaging period.
  Sleep(kPowerAveragingSeconds + 0.2);
  run.Stop(*device);
  cudaFree(block);

  const auto used_before = run.Of("memory_used_bytes", 0, before_alloc);
  const auto used_after = run.Of("memory_used_bytes", after_alloc + 100 * kMs, busy_begin);
  const double grown =
      used_before.empty() || used_after.empty() ? NAN : used_after.back().value - used_before.back().value;
  report.Compare({"cudaMalloc + memset of 256 MiB", "memory_used_bytes", "bytes", grown, double(kAllocation),
                  Tolerance::Relative(0.02), "the allocation's size (NVML's used memory before and after it)"});
  // NVML averages utilisation over its own period (1/6 s to 1 s): the first 400 ms of the busy window are left out.
  report.Compare({"FfmaKernel on every SM for 1.2 s", "gpu_utilization_percent", "percent",
                  run.Mean("gpu_utilization_percent", busy_begin + 400 * kMs, busy_end), 100.0,
                  Tolerance::Relative(0.1), "a kernel always running: 100% of NVML's sample period"});
  const auto power = run.Of("power_watts");
  const auto energy = run.Of("energy_joules");
  double integral = NAN;
  if (power.size() > 2 && energy.size() > 2) {
    integral = 0;
    for (std::size_t i = 1; i < power.size(); ++i) {
      if (power[i - 1].t < energy.front().t || power[i].t > energy.back().t) continue;
      integral += 0.5 * (power[i].value + power[i - 1].value) * double(power[i].t - power[i - 1].t) / 1e9;
    }
  }
  double joules = 0;
  for (std::size_t i = 1; i < energy.size(); ++i) joules += energy[i].value;  // the integral starts at the first
  report.Compare({"the monitored window", "energy_joules", "joules", joules, integral, Tolerance::Relative(0.15),
                  "the integral of power_watts over the same ticks"});
  return true;
}

void CheckPmSampling(const MonitorApi& api, const FfmaWork& ffma, GpaUInt32 device, ProbeReport& report) {
  TakeLog();
  MonitorRun run(api, {"gpc__cycles_elapsed.max", "sm__inst_executed_pipe_fma.sum"}, 100, &device);
  if (run.Status() != kGpaStatusOk) {
    report.AddCause(ExplainGpaFailure("OpenGpaMonitorCreate (PM sampling)", StatusText(run.Status()), TakeLog()));
    return;
  }
  run.Start();
  Sleep(0.1);
  ffma.Launch(kPmLaunches);
  Sleep(0.15);
  run.Stop(device);
  report.Compare({std::to_string(kPmLaunches) + " launches of FfmaKernel " + std::to_string(ffma.blocks) + "x" +
                      std::to_string(kFfmaThreads),
                  "sm__inst_executed_pipe_fma.sum", "items", run.Sum("sm__inst_executed_pipe_fma.sum"),
                  ffma.WarpFfmaInstructions(kPmLaunches), Tolerance::Relative(0.01),
                  "blocks x warps x iterations x 128 FFMA per iteration x launches (SASS-checked, docs/realtime.md)"});
}

void RunMonitorProbe(const ProbeOptions& options, ProbeReport& report) {
  std::string error;
  if (DynamicLibrary::Open(LibraryCandidates({}, "OPENGPA_NVML_LIBRARY", {"libnvidia-ml.so.1"}), &error) == nullptr) {
    report.MarkAbsent("no NVML (libnvidia-ml.so.1, part of the NVIDIA driver): " + error);
    return;
  }
  int devices = 0;
  if (const cudaError_t result = cudaGetDeviceCount(&devices); result != cudaSuccess || devices == 0) {
    report.MarkAbsent("NVML is installed but CUDA reports no device (" +
                      std::string(result != cudaSuccess ? cudaGetErrorString(result) : "0 devices") +
                      "): the monitor's checks need CUDA work of known size");
    return;
  }
  auto library = LoadMonitorLibrary(options.search, report);
  if (library == nullptr) return;
  MonitorApi api;
  if (const std::string missing = api.Resolve(*library); !missing.empty()) {
    report.AddCause({"gpa_library_not_found", library->Name() + " does not export " + missing,
                     "a stand-in or foreign libOpenGPAMonitor.so: point --library-dir at an OpenGPA build's lib/"});
    return;
  }
  verbose_log = options.search.verbose;
  api.register_logging(kGpaLoggingErrorAndMessage, &KeepMonitorLog);

  cudaDeviceProp properties{};
  CudaCheck(cudaGetDeviceProperties(&properties, 0), "cudaGetDeviceProperties");
  int driver_version = 0;
  cudaDriverGetVersion(&driver_version);
  report.SetDriver(
      {{"device", properties.name},
       {"name", "NVIDIA driver (NVML, CUDA)"},
       {"version", std::to_string(driver_version / 1000) + "." + std::to_string(driver_version % 1000 / 10)}});
  const FfmaWork ffma(properties.multiProcessorCount);
  GpaUInt32 device = 0;
  const bool nvml_ok = CheckNvml(api, ffma, UuidText(properties.uuid), &device, report);
  if (nvml_ok && !options.quick) CheckPmSampling(api, ffma, device, report);
  report.Driver()["libraries"] =
      LoadedModules({"libnvidia-ml", "libcuda", "libcupti", "libnvperf", "libOpenGPAMonitor"});
  report.ExplainFailedChecks(
      "the monitor's counters came back empty: NVML answering without data (a vGPU or a driver in a bad state: "
      "check nvidia-smi), or a stand-in libOpenGPAMonitor.so; rerun with `opengpa doctor -v --api monitor`");
}

}  // namespace
}  // namespace opengpa::doctor

int main(int argc, char** argv) {
  return opengpa::doctor::RunProbe(argc, argv, "monitor", opengpa::doctor::RunMonitorProbe);
}
