#include "entry/nvpmapi/context_counters.h"

#include <cmath>
#include <limits>

#include "entry/nvpmapi/counter_registry.h"

namespace opengpa::nvpm {
namespace {

struct GpaCounter {
  GpaUInt32 index = 0;
  std::string name;
  std::string group;
  std::string description;
  bool float_value = false;
  bool percentage = false;
};

// A PerfKit simplified experiment over a GPA Speed-of-Light counter (catalogs/cuda_sol.json). The unit names
// are PerfKit's where the unit is the same (SHD is the SM, TEX the texture/L1 unit, FB the frame buffer's
// DRAM); L2, Memory and PCIe had no SimExp of their own.
struct SolAlias {
  const char* gpa_name;
  const char* name;
  const char* unit;
  int bottleneck_number;  // GPA GPUBottleneck's number for the unit; -1 when not a candidate
};
constexpr SolAlias kSolAliases[] = {
    {"SOL_SM", "SHD SOL", "SHD", 0}, {"SOL_L1TEX", "TEX SOL", "TEX", 1},         {"SOL_L2", "L2 SOL", "L2", 2},
    {"SOL_DRAM", "FB SOL", "FB", 3}, {"SOL_Memory", "Memory SOL", "Memory", -1}, {"SOL_PCIe", "PCIe SOL", "PCIe", -1},
};
// GPA GPUBottleneck's number for "no unit near its peak" (docs/sol.md).
constexpr GpaUInt64 kLatencyBound = 4;

double Round(double value) { return value <= 0.0 ? 0.0 : std::floor(value + 0.5); }

NVPMUINT64 ToUint(double value) {
  if (!(value > 0.0)) return 0;
  if (value >= 18446744073709551615.0) return std::numeric_limits<NVPMUINT64>::max();
  return static_cast<NVPMUINT64>(Round(value));
}

bool ReadGpaCounters(const GpaBackend& backend, GpaContextId context, std::vector<GpaCounter>* counters,
                     std::string* why) {
  const GpaFunctionTable& gpa = backend.gpa;
  GpaUInt32 count = 0;
  GpaStatus status = gpa.GpaGetNumCounters(context, &count);
  if (status != kGpaStatusOk) {
    *why = "GpaGetNumCounters: " + GpaStatusText(backend, status);
    return false;
  }
  for (GpaUInt32 i = 0; i < count; ++i) {
    const char* name = nullptr;
    const char* group = nullptr;
    const char* description = nullptr;
    GpaDataType type = kGpaDataTypeUint64;
    GpaUsageType usage = kGpaUsageTypeItems;
    if (gpa.GpaGetCounterName(context, i, &name) != kGpaStatusOk ||
        gpa.GpaGetCounterGroup(context, i, &group) != kGpaStatusOk ||
        gpa.GpaGetCounterDescription(context, i, &description) != kGpaStatusOk ||
        gpa.GpaGetCounterDataType(context, i, &type) != kGpaStatusOk ||
        gpa.GpaGetCounterUsageType(context, i, &usage) != kGpaStatusOk) {
      *why = "GPA refused to describe counter " + std::to_string(i);
      return false;
    }
    counters->push_back({i, name, group != nullptr ? group : "", description != nullptr ? description : "",
                         type == kGpaDataTypeFloat64, usage == kGpaUsageTypePercentage});
  }
  return true;
}

class CatalogBuilder {
 public:
  CatalogBuilder(const std::vector<GpaCounter>& gpa, CounterCatalog* catalog) : gpa_(gpa), catalog_(catalog) {}

  const GpaCounter* Gpa(const std::string& name) const {
    for (const GpaCounter& counter : gpa_) {
      if (counter.name == name) return &counter;
    }
    return nullptr;
  }

  NVPMCounterID Add(const CounterInfo& info, Recipe recipe, std::vector<GpaUInt32> inputs, bool percentage) {
    ContextCounter counter;
    counter.id = RegisterCounter(info);
    counter.name = info.name;
    counter.recipe = recipe;
    counter.inputs = std::move(inputs);
    counter.percentage = percentage;
    counter.float_value = info.value_type == NVPM_VALUE_TYPE_FLOAT64;
    counter.experiment_only = info.type == NVPM_CT_SIMEXP;
    catalog_->by_id[counter.id] = catalog_->counters.size();
    catalog_->counters.push_back(std::move(counter));
    return catalog_->counters.back().id;
  }

  void AddGpaCounters() {
    for (const GpaCounter& counter : gpa_) {
      CounterInfo info{counter.name, counter.description,
                       counter.group == "SpeedOfLight" ? NVPM_CT_SIMEXP : NVPM_CT_GPU, NVPM_CD_RAW,
                       counter.float_value ? NVPM_VALUE_TYPE_FLOAT64 : NVPM_VALUE_TYPE_UINT64};
      Add(info, Recipe::kGpaValue, {counter.index}, counter.percentage);
    }
  }

  // PerfKit's cycle ratios: value over elapsed cycles, where the API counts cycles.
  void AddRatios() {
    const GpaCounter* busy = Gpa("GPUBusyCycles");
    const GpaCounter* elapsed = Gpa("GPUElapsedCycles");
    if (elapsed == nullptr) return;
    if (busy != nullptr) {
      Add({"gpu_busy",
           "Cycles the graphics engine was busy (value) over the cycles elapsed (cycles): GPA's "
           "GPUBusyCycles / GPUElapsedCycles.",
           NVPM_CT_GPU, NVPM_CD_RATIO, NVPM_VALUE_TYPE_UINT64},
          Recipe::kBusyCycles, {busy->index, elapsed->index}, false);
      Add({"gpu_idle",
           "Cycles the graphics engine was idle (value) over the cycles elapsed (cycles): "
           "GPUElapsedCycles - GPUBusyCycles over GPUElapsedCycles.",
           NVPM_CT_GPU, NVPM_CD_RATIO, NVPM_VALUE_TYPE_UINT64},
          Recipe::kIdleCycles, {busy->index, elapsed->index}, false);
    }
    if (const GpaCounter* sm_busy = Gpa("SMBusy")) {
      Add({"shader_busy",
           "Cycles the shader units (SMs) were busy, averaged over SMs (value), over the cycles "
           "elapsed (cycles): GPA's SMBusy as a share of GPUElapsedCycles.",
           NVPM_CT_AGGREGATE, NVPM_CD_RATIO, NVPM_VALUE_TYPE_UINT64},
          Recipe::kPercentCycles, {sm_busy->index, elapsed->index}, false);
    }
  }

  // PerfKit names over one GPA counter of the same meaning.
  void AddRenamed(const char* gpa_name, const char* name, NVPMCOUNTERTYPE type, const char* description) {
    const GpaCounter* counter = Gpa(gpa_name);
    if (counter == nullptr) return;
    Add({name, std::string(description) + " (GPA's " + gpa_name + ")", type, NVPM_CD_RAW,
         counter->float_value ? NVPM_VALUE_TYPE_FLOAT64 : NVPM_VALUE_TYPE_UINT64},
        Recipe::kGpaValue, {counter->index}, counter->percentage);
  }

  void AddSimplifiedExperiments() {
    for (const SolAlias& alias : kSolAliases) {
      const GpaCounter* counter = Gpa(alias.gpa_name);
      if (counter == nullptr) continue;
      NVPMCounterID id = Add({alias.name,
                              std::string("Speed of Light of ") + alias.unit +
                                  ": the percentage of its peak rate the unit reached (value) over the sample's "
                                  "elapsed cycles (cycles). GPA's " +
                                  alias.gpa_name + ": " + counter->description,
                              NVPM_CT_SIMEXP, NVPM_CD_RAW, NVPM_VALUE_TYPE_FLOAT64},
                             Recipe::kGpaValue, {counter->index}, true);
      if (alias.bottleneck_number >= 0) {
        catalog_->bottleneck_units[static_cast<GpaUInt64>(alias.bottleneck_number)] = {id, alias.unit};
      }
    }
    const GpaCounter* bottleneck = Gpa("GPUBottleneck");
    if (bottleneck == nullptr || catalog_->bottleneck_units.size() != kLatencyBound) return;
    NVPMCounterID id = Add({"GPU Bottleneck",
                            "The unit that limits the work, as the id of its \"<unit> SOL\" counter (SHD, TEX, L2 "
                            "or FB; GetGPUBottleneckName names it), or this counter's own id when no unit reached "
                            "60% of its peak (latency-bound). GPA's GPUBottleneck.",
                            NVPM_CT_SIMEXP, NVPM_CD_RAW, NVPM_VALUE_TYPE_UINT64},
                           Recipe::kBottleneck, {bottleneck->index}, false);
    catalog_->bottleneck_units[kLatencyBound] = {id, "none (latency-bound)"};
  }

 private:
  const std::vector<GpaCounter>& gpa_;
  CounterCatalog* catalog_;
};

}  // namespace

const ContextCounter* CounterCatalog::Find(NVPMCounterID id) const {
  auto found = by_id.find(id);
  return found == by_id.end() ? nullptr : &counters[found->second];
}

std::vector<GpaUInt32> CounterCatalog::GpaInputs(const ContextCounter& counter) const {
  std::vector<GpaUInt32> inputs = counter.inputs;
  // Only the readings whose cycles are the elapsed cycles need the cycle counter: adding it to a count
  // could cost a pass (FFMAThreadInstructions with GPUElapsedCycles takes two on GH100).
  const bool needs_cycles = counter.percentage || counter.recipe == Recipe::kBottleneck;
  if (elapsed_cycles && needs_cycles) inputs.push_back(*elapsed_cycles);
  return inputs;
}

Reading CounterCatalog::Read(const ContextCounter& counter, const std::map<GpaUInt32, double>& values) const {
  auto value_of = [&](GpaUInt32 index) {
    auto found = values.find(index);
    return found == values.end() ? 0.0 : found->second;
  };
  const double elapsed = elapsed_cycles ? value_of(*elapsed_cycles) : 0.0;
  Reading reading;
  reading.float_value = counter.float_value;
  switch (counter.recipe) {
    case Recipe::kGpaValue:
      reading.exact = value_of(counter.inputs[0]);
      reading.value = ToUint(reading.exact);
      reading.cycles = !counter.percentage ? reading.value : elapsed_cycles ? ToUint(elapsed) : 100;
      break;
    case Recipe::kBusyCycles:
      reading.exact = value_of(counter.inputs[0]);
      reading.value = ToUint(reading.exact);
      reading.cycles = ToUint(value_of(counter.inputs[1]));
      break;
    case Recipe::kIdleCycles: {
      double total = value_of(counter.inputs[1]);
      reading.exact = total > value_of(counter.inputs[0]) ? total - value_of(counter.inputs[0]) : 0.0;
      reading.value = ToUint(reading.exact);
      reading.cycles = ToUint(total);
      break;
    }
    case Recipe::kPercentCycles: {
      double total = value_of(counter.inputs[1]);
      reading.exact = value_of(counter.inputs[0]) / 100.0 * total;
      reading.value = ToUint(reading.exact);
      reading.cycles = ToUint(total);
      break;
    }
    case Recipe::kBottleneck: {
      auto unit = bottleneck_units.find(ToUint(value_of(counter.inputs[0])));
      reading.value = unit == bottleneck_units.end() ? counter.id : unit->second.counter;
      reading.exact = static_cast<double>(reading.value);
      reading.cycles = ToUint(elapsed);
      break;
    }
  }
  return reading;
}

bool BuildCatalog(const GpaBackend& backend, GpaContextId context, CounterCatalog* catalog, std::string* why) {
  std::vector<GpaCounter> gpa;
  if (!ReadGpaCounters(backend, context, &gpa, why)) return false;
  CatalogBuilder builder(gpa, catalog);
  if (const GpaCounter* elapsed = builder.Gpa("GPUElapsedCycles")) catalog->elapsed_cycles = elapsed->index;
  builder.AddGpaCounters();
  builder.AddRatios();
  builder.AddRenamed("WarpInstructions", "sm_inst_executed", NVPM_CT_AGGREGATE,
                     "Warp instructions executed by the SMs");
  builder.AddRenamed("IPC", "sm_inst_executed_ipc", NVPM_CT_AGGREGATE,
                     "Warp instructions executed per active SM cycle");
  builder.AddRenamed("PSPixelsIn", "shaded_pixel_count", NVPM_CT_GPU, "Pixels (fragments) sent to the pixel shader");
  builder.AddRenamed("ClipperPrimsOut", "setup_primitive_count", NVPM_CT_GPU,
                     "Primitives that left clipping for primitive setup");
  builder.AddSimplifiedExperiments();
  return true;
}

}  // namespace opengpa::nvpm
