// NVML (libnvidia-ml.so.1) reached through dlopen, so the monitor builds and loads where no NVIDIA
// driver is installed. Only the few types and functions the monitor uses are declared here, written
// from NVML's API reference (docs.nvidia.com/deploy/nvml-api); nvml.h is not needed to build.
#ifndef OPENGPA_NVIDIA_NVML_LIBRARY_H_
#define OPENGPA_NVIDIA_NVML_LIBRARY_H_

#include <memory>
#include <string>
#include <vector>

#include "gpu_performance_api/gpu_perf_api_types.h"
#include "platform/dynamic_library.h"

namespace opengpa::nvidia::nvml {

using Return = int;  // nvmlReturn_t
constexpr Return kSuccess = 0;
constexpr Return kErrorNotSupported = 3;

using Device = struct nvmlDevice_st*;  // nvmlDevice_t, an opaque handle

struct Utilization {  // nvmlUtilization_t
  unsigned int gpu;
  unsigned int memory;
};
struct Memory {  // nvmlMemory_t (version 1)
  unsigned long long total;
  unsigned long long free;
  unsigned long long used;
};
enum ClockType : int { kClockGraphics = 0, kClockSm = 1, kClockMemory = 2 };  // nvmlClockType_t
constexpr int kTemperatureGpu = 0;                                            // NVML_TEMPERATURE_GPU
enum PcieCounter : int { kPcieTxBytes = 0, kPcieRxBytes = 1 };                // nvmlPcieUtilCounter_t
constexpr unsigned int kStringBufferSize = 96;                                // >= NVML's name and UUID buffer sizes
constexpr Return kErrorInsufficientSize = 7;

struct ProcessInfo {  // nvmlProcessInfo_t as the _v3 process queries fill it
  unsigned int pid;
  unsigned long long used_gpu_memory;
  unsigned int gpu_instance_id;
  unsigned int compute_instance_id;
};
struct PciInfo {  // nvmlPciInfo_t
  char bus_id_legacy[16];
  unsigned int domain;
  unsigned int bus;
  unsigned int device;
  unsigned int pci_device_id;
  unsigned int pci_subsystem_id;
  char bus_id[32];
};

// GPM (GPU Performance Monitoring, Hopper and newer): the GPU's own activity counters, read as two samples whose
// difference NVML turns into metrics. Layouts from NVML's reference (nvmlGpmSample_t, nvmlGpmMetric_t,
// nvmlGpmMetricsGet_t version 1, nvmlGpmSupport_t version 1).
using GpmSample = struct nvmlGpmSample_st*;  // nvmlGpmSample_t: a struct holding one pointer, passed by value
struct GpmSupport {                          // nvmlGpmSupport_t
  unsigned int version;                      // in: kGpmSupportVersion
  unsigned int is_supported_device;          // out
};
constexpr unsigned int kGpmSupportVersion = 1;
struct GpmMetric {         // nvmlGpmMetric_t
  unsigned int metric_id;  // in: an nvmlGpmMetricId_t
  Return status;           // out: this metric's own result; `value` is valid when kSuccess
  double value;            // out
  struct {
    char* short_name;
    char* long_name;
    char* unit;
  } info;  // out: may be null
};
// NVML reads and writes only the first `metric_count` entries; the array is as large as the newest NVML's, so the
// struct is never smaller than the one the library was built with.
constexpr unsigned int kGpmMetricCapacity = 210;
struct GpmMetricsGet {                    // nvmlGpmMetricsGet_t
  unsigned int version;                   // in: kGpmMetricsGetVersion
  unsigned int metric_count;              // in
  GpmSample sample1;                      // in: the earlier sample
  GpmSample sample2;                      // in: the later sample
  GpmMetric metrics[kGpmMetricCapacity];  // in: metric_id; out: status, value
};
constexpr unsigned int kGpmMetricsGetVersion = 1;

// Every function is nullptr when the loaded library does not export it; Library::Load guarantees the
// ones above the line, the per-counter ones are checked when a counter needs them.
struct Functions {
  Return (*init)() = nullptr;      // nvmlInit_v2
  Return (*shutdown)() = nullptr;  // nvmlShutdown
  const char* (*error_string)(Return) = nullptr;
  Return (*device_get_count)(unsigned int*) = nullptr;                    // nvmlDeviceGetCount_v2
  Return (*device_get_handle_by_index)(unsigned int, Device*) = nullptr;  // nvmlDeviceGetHandleByIndex_v2
  Return (*device_get_name)(Device, char*, unsigned int) = nullptr;
  Return (*device_get_uuid)(Device, char*, unsigned int) = nullptr;
  // ---- per counter
  Return (*device_get_utilization_rates)(Device, Utilization*) = nullptr;
  Return (*device_get_clock_info)(Device, int, unsigned int*) = nullptr;                 // MHz
  Return (*device_get_max_clock_info)(Device, int, unsigned int*) = nullptr;             // MHz
  Return (*device_get_power_usage)(Device, unsigned int*) = nullptr;                     // milliwatts
  Return (*device_get_temperature)(Device, int, unsigned int*) = nullptr;                // degrees C
  Return (*device_get_pcie_throughput)(Device, int, unsigned int*) = nullptr;            // KB/s over 20 ms
  Return (*device_get_memory_info)(Device, Memory*) = nullptr;                           // bytes
  Return (*device_get_total_energy_consumption)(Device, unsigned long long*) = nullptr;  // mJ since driver load
  // ---- who else uses a GPU (the graphics backends' warning that the periodic sampler counts them too)
  Return (*device_get_pci_info)(Device, PciInfo*) = nullptr;                                       // _v3
  Return (*device_get_compute_running_processes)(Device, unsigned int*, ProcessInfo*) = nullptr;   // _v3
  Return (*device_get_graphics_running_processes)(Device, unsigned int*, ProcessInfo*) = nullptr;  // _v3
  // ---- GPM (the monitor's GPM source checks for all five)
  Return (*gpm_query_device_support)(Device, GpmSupport*) = nullptr;
  Return (*gpm_sample_alloc)(GpmSample*) = nullptr;
  Return (*gpm_sample_free)(GpmSample) = nullptr;
  Return (*gpm_sample_get)(Device, GpmSample) = nullptr;
  Return (*gpm_metrics_get)(GpmMetricsGet*) = nullptr;
};

// The default candidates: $OPENGPA_NVML_LIBRARY when set, then libnvidia-ml.so.1.
std::vector<std::string> DefaultLibraryCandidates();

// An initialised NVML: nvmlInit_v2 succeeded; the destructor calls nvmlShutdown, then unloads.
class Library {
 public:
  // kGpaStatusErrorLibLoadFailed when no candidate loads, kGpaStatusErrorDriverNotSupported when a
  // required function is missing or nvmlInit_v2 fails; each with a log message saying which.
  [[nodiscard]] static GpaStatus Load(const std::vector<std::string>& candidates, std::unique_ptr<Library>* library);

  Library(std::unique_ptr<DynamicLibrary> library, const Functions& functions);
  ~Library();
  Library(const Library&) = delete;
  Library& operator=(const Library&) = delete;

  const Functions& Api() const { return functions_; }
  const std::string& Path() const { return library_->Name(); }
  // "Not Supported (3)"
  std::string Describe(Return code) const;
  // Whether the library exports `symbol` (how a counter checks for its function).
  bool HasSymbol(const char* symbol) const { return library_->Symbol(symbol) != nullptr; }

 private:
  std::unique_ptr<DynamicLibrary> library_;
  Functions functions_;
};

}  // namespace opengpa::nvidia::nvml

#endif  // OPENGPA_NVIDIA_NVML_LIBRARY_H_
