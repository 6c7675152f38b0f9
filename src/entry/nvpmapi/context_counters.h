// What a context offers as NvPmApi counters, and how each is read from GPA results (docs/nvpmapi.md,
// "Counters"):
//   - every counter of the GPA context under its GPA name (GPUTime, SMBusy, FetchSize, PSPixelsIn, ...);
//     "SpeedOfLight" counters as simplified experiments, the others as GPU counters;
//   - the PerfKit names whose meaning carries over, over the same GPA counters: gpu_busy, gpu_idle and
//     shader_busy (ratios of cycles), sm_inst_executed, sm_inst_executed_ipc, "<unit> SOL" and
//     "GPU Bottleneck" on CUDA; shaded_pixel_count and setup_primitive_count on OpenGL. A PerfKit unit with
//     no counterpart on the device (IA, ZCull, ROP, ...) is not offered.
// Value and cycles follow PerfKit: a count reads value = cycles = the count; a percentage reads the
// percentage as value and the sample's elapsed cycles as cycles (CUDA; 100 where the API has no cycle
// counter); a ratio reads busy cycles over elapsed cycles.
#ifndef OPENGPA_ENTRY_NVPMAPI_CONTEXT_COUNTERS_H_
#define OPENGPA_ENTRY_NVPMAPI_CONTEXT_COUNTERS_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "entry/nvpmapi/gpa_backend.h"
#include "nvpmapi/NvPmApi.h"

namespace opengpa::nvpm {

enum class Recipe {
  kGpaValue,       // inputs[0] as it is
  kBusyCycles,     // value inputs[0] (busy cycles), cycles inputs[1] (elapsed cycles)
  kIdleCycles,     // value inputs[1] - inputs[0], cycles inputs[1]
  kPercentCycles,  // value inputs[0] (a percentage) / 100 * inputs[1], cycles inputs[1]
  kBottleneck,     // value: the id of the SOL counter of unit inputs[0] (GPA's GPUBottleneck number)
};

struct ContextCounter {
  NVPMCounterID id = 0;
  std::string name;
  Recipe recipe = Recipe::kGpaValue;
  std::vector<GpaUInt32> inputs;  // GPA counter indices
  bool percentage = false;        // kGpaValue of a GPA percentage
  bool float_value = false;       // NVPM_VALUE_TYPE_FLOAT64
  bool experiment_only = false;   // simplified experiments: never in real-time mode
};

// One counter's reading for one object (or one real-time interval).
struct Reading {
  NVPMUINT64 value = 0;  // the value as an integer (rounded), what GetCounterValue returns
  double exact = 0.0;    // the value as GPA computed it
  NVPMUINT64 cycles = 0;
  bool float_value = false;
};

// A bottleneck unit: its GPA number, the NvPmApi counter naming it and its name for GetGPUBottleneckName.
struct BottleneckUnit {
  NVPMCounterID counter = 0;
  std::string name;
};

struct CounterCatalog {
  std::vector<ContextCounter> counters;                  // enumeration order
  std::map<NVPMCounterID, std::size_t> by_id;            // -> counters index
  std::optional<GpaUInt32> elapsed_cycles;               // GPA index of GPUElapsedCycles, when the API has it
  std::map<GpaUInt64, BottleneckUnit> bottleneck_units;  // GPA GPUBottleneck number -> unit

  const ContextCounter* Find(NVPMCounterID id) const;
  // Every GPA counter `counter` needs, the cycle counter included where its cycles are elapsed cycles.
  std::vector<GpaUInt32> GpaInputs(const ContextCounter& counter) const;
  // `values`: GPA index -> value (as a double) of one sample.
  Reading Read(const ContextCounter& counter, const std::map<GpaUInt32, double>& values) const;
};

// The catalog of an open GPA context; registers every name's id. Empty (and *why) when GPA refuses.
bool BuildCatalog(const GpaBackend& backend, GpaContextId context, CounterCatalog* catalog, std::string* why);

}  // namespace opengpa::nvpm

#endif  // OPENGPA_ENTRY_NVPMAPI_CONTEXT_COUNTERS_H_
