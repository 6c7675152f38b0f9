#include "counter_library/counter_context.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "core/backend.h"
#include "platform/enum_argument.h"
#include "platform/logging.h"

namespace opengpa::counter_library {

GpaStatus CounterContext::Create(std::unique_ptr<BackendContext> backend, GpaOpenContextFlags flags,
                                 std::unique_ptr<CounterContext>* out, ContextFlavor flavor) {
  auto context = std::make_unique<CounterContext>();
  context->backend_ = std::move(backend);
  context->flavor_ = flavor;
  const BackendContext& device = *context->backend_;
  // As GpaOpenContext: HideDerived drops the catalogs, EnableHardwareCounters appends the hardware counters.
  const bool hide_derived = (flags & kGpaOpenContextHideDerivedCountersBit) != 0;
  const bool with_hardware = (flags & kGpaOpenContextEnableHardwareCountersBit) != 0;
  std::string error;
  if (!CounterSet::Build(device.HardwareCounters(),
                         hide_derived ? std::vector<std::string_view>{} : device.DerivedCatalogs(), device.Constants(),
                         with_hardware, &context->counters_, &error)) {
    return LogError(kGpaStatusErrorFailed, "GpaCounterLibOpenCounterContext: the catalogs of '{}' do not build: {}",
                    device.Device().name, error);
  }
  if (context->counters_.size() == 0) {
    return LogError(kGpaStatusErrorInvalidParameter,
                    "GpaCounterLibOpenCounterContext: context_flags 0x{:X} expose no counter on '{}'", flags,
                    device.Device().name);
  }

  const auto hardware_count = static_cast<std::uint32_t>(device.HardwareCounters().size());
  for (HardwareCounterIndex h = 0; h < hardware_count; ++h) context->hardware_ids_.push_back(context->HwCounterOf(h));

  // Every record is sized before any pointer into the vectors is taken, so the pointers stay put.
  const std::uint32_t count = context->counters_.size();
  context->derived_inputs_.resize(count);
  context->derived_infos_.resize(count);
  context->infos_.resize(count);
  for (std::uint32_t i = 0; i < count; ++i) {
    const PublicCounter& counter = context->counters_.at(i);
    GpaCounterInfo& info = context->infos_[i];
    if (counter.is_hardware) {
      info.is_derived_counter = false;
      info.gpa_hw_counter = &context->hardware_ids_[counter.formula.Inputs().front()];
      continue;
    }
    for (HardwareCounterIndex h : counter.formula.Inputs()) {
      context->derived_inputs_[i].push_back(context->hardware_ids_[h]);
    }
    GpaDerivedCounterInfo& derived = context->derived_infos_[i];
    derived.gpa_hw_counters = context->derived_inputs_[i].data();
    derived.gpa_hw_counter_count = static_cast<GpaUInt32>(context->derived_inputs_[i].size());
    derived.counter_usage_type = counter.usage;
    info.is_derived_counter = true;
    info.gpa_derived_counter = &derived;
  }
  Log(kGpaLoggingMessage, "Opened counter context on '{}' with {} counters ({} hardware)", device.Device().name, count,
      hardware_count);
  *out = std::move(context);
  return kGpaStatusOk;
}

GpaHwCounter CounterContext::HwCounterOf(HardwareCounterIndex h) const {
  GpaHwCounter id;
  std::memset(&id, 0, sizeof id);  // the union's unused bytes read as 0
  if (backend_->HardwareCounters()[h].usage == kGpaUsageTypeNanoseconds) {
    id.is_timing_block = true;
    id.gpu_time_bottom_to_bottom_duration = h;
  } else {
    id.is_timing_block = false;
    id.gpa_hw_block = static_cast<GpaHwBlock>(flavor_.no_block);
    id.gpa_hw_block_instance = 0;
    id.gpa_hw_block_event_id = h;
    id.gpa_shader_mask = kGpaShaderMaskAll;
  }
  return id;
}

std::optional<HardwareCounterIndex> CounterContext::HardwareIndexOf(const GpaHwCounter& counter) const {
  for (HardwareCounterIndex h = 0; h < hardware_ids_.size(); ++h) {
    const GpaHwCounter& id = hardware_ids_[h];
    if (id.is_timing_block != counter.is_timing_block) continue;
    // The caller's gpa_hw_block is compared as the int a C caller may have written (platform/enum_argument.h).
    if (id.is_timing_block ? id.gpu_time_bottom_to_bottom_duration == counter.gpu_time_bottom_to_bottom_duration
                           : EnumArgument(id.gpa_hw_block) == EnumArgument(counter.gpa_hw_block) &&
                                 id.gpa_hw_block_instance == counter.gpa_hw_block_instance &&
                                 id.gpa_hw_block_event_id == counter.gpa_hw_block_event_id) {
      return h;
    }
  }
  return std::nullopt;
}

std::optional<std::uint32_t> CounterContext::CounterOfHardware(HardwareCounterIndex h) const {
  for (std::uint32_t i = 0; i < counters_.size(); ++i) {
    const PublicCounter& counter = counters_.at(i);
    if (counter.is_hardware && counter.formula.Inputs().front() == h) return i;
  }
  return std::nullopt;
}

GpaStatus CounterContext::PassCount(const std::vector<std::uint32_t>& counters, GpaUInt32* passes) {
  if (counters.empty()) {
    *passes = 0;
    return kGpaStatusOk;
  }
  GpaUInt32 count = 0;
  if (GpaStatus status = backend_->CountPasses(counters_.HardwareNeeded(counters), &count); status != kGpaStatusOk) {
    return LogError(status, "GpaCounterLibGetPassCount: the passes of {} counters could not be counted",
                    counters.size());
  }
  *passes = std::max<GpaUInt32>(count, 1);  // as a live session reports it
  return kGpaStatusOk;
}

// The backend only says how many passes a set takes (CUPTI schedules its own raw counters and does not tell
// which metric lands in which pass), so placement is derived from that number: hardware counters in
// ascending order each join the first group whose pass count they do not raise, else open a group of their
// own; a group that needs k passes occupies k consecutive passes and is listed in each of them. On the
// one-pass backends (Vulkan, OpenGL, OpenCL) this is one pass holding every counter; with CUPTI it can
// take more passes than GpaGetPassCount for the whole set, which CUPTI schedules at once.
GpaStatus CounterContext::CountersByPass(const std::vector<std::uint32_t>& counters,
                                         std::vector<PassContents>* passes) {
  passes->clear();
  struct Group {
    PassContents members;
    GpaUInt32 pass_count = 1;
  };
  std::vector<Group> groups;
  for (HardwareCounterIndex h : counters_.HardwareNeeded(counters)) {
    bool placed = false;
    for (Group& group : groups) {
      PassContents candidate = group.members;
      candidate.push_back(h);
      GpaUInt32 count = 0;
      if (backend_->CountPasses(candidate, &count) == kGpaStatusOk && count <= group.pass_count) {
        group.members = std::move(candidate);
        placed = true;
        break;
      }
    }
    if (placed) continue;
    GpaUInt32 alone = 0;
    if (GpaStatus status = backend_->CountPasses({h}, &alone); status != kGpaStatusOk) {
      return LogError(status, "GpaCounterLibGetCountersByPass: hardware counter {} cannot be scheduled on its own", h);
    }
    groups.push_back({{h}, std::max<GpaUInt32>(alone, 1)});
  }
  for (const Group& group : groups) {
    for (GpaUInt32 k = 0; k < group.pass_count; ++k) passes->push_back(group.members);
  }
  return kGpaStatusOk;
}

GpaStatus CounterContext::ComputeDerived(std::uint32_t counter, const GpaUInt64* values, GpaUInt32 value_count,
                                         double* result) const {
  const PublicCounter& definition = counters_.at(counter);
  if (definition.is_hardware) {
    return LogError(kGpaStatusErrorFailed,
                    "GpaCounterLibComputeDerivedCounterResult: counter {} ('{}') is a hardware counter, not derived",
                    counter, definition.name);
  }
  const std::vector<std::uint32_t>& inputs = definition.formula.Inputs();
  if (value_count != inputs.size()) {  // AMD's status for a count that does not match: Failed
    return LogError(kGpaStatusErrorFailed,
                    "GpaCounterLibComputeDerivedCounterResult: gpa_hw_counter_result_count {} differs from the {} "
                    "hardware counters of '{}'",
                    value_count, inputs.size(), definition.name);
  }
  const std::vector<HardwareCounterInfo>& hardware = backend_->HardwareCounters();
  std::vector<double> dense(hardware.size(), 0.0);
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    // A float64 hardware counter travels as its double's bits, as GpaGetSampleResult returns float64 values.
    if (hardware[inputs[k]].data_type == kGpaDataTypeFloat64) {
      std::memcpy(&dense[inputs[k]], &values[k], sizeof(double));
    } else {
      dense[inputs[k]] = static_cast<double>(values[k]);
    }
  }
  *result = definition.formula.Evaluate(dense.data());
  return kGpaStatusOk;
}

GpaStatus CounterContext::ComputeSeries(const char* function, const std::vector<std::uint32_t>& counters,
                                        const std::vector<HardwareCounterIndex>& columns, std::size_t rows,
                                        const std::vector<double>& values, double* results) const {
  const std::vector<HardwareCounterInfo>& hardware = backend_->HardwareCounters();
  // Where each hardware counter's values are (the first column naming it).
  std::vector<std::size_t> column_of(hardware.size(), columns.size());
  for (std::size_t c = columns.size(); c-- > 0;) {
    if (columns[c] < hardware.size()) column_of[columns[c]] = c;
  }
  std::vector<double> dense(hardware.size(), 0.0);
  for (std::size_t k = 0; k < counters.size(); ++k) {
    const PublicCounter& counter = counters_.at(counters[k]);
    const std::vector<std::uint32_t>& inputs = counter.formula.Inputs();
    for (HardwareCounterIndex h : inputs) {
      if (column_of[h] == columns.size()) {  // a value of 0 in its place would be silently wrong
        return LogError(kGpaStatusErrorInvalidParameter,
                        "{}: counter {} ('{}') needs hardware counter {} ('{}'), which no GpaSpmCounterInfo names",
                        function, counters[k], counter.name, h, hardware[h].name);
      }
    }
    for (std::size_t t = 0; t < rows; ++t) {
      for (HardwareCounterIndex h : inputs) dense[h] = values[column_of[h] * rows + t];
      results[k * rows + t] = counter.formula.Evaluate(dense.data());
    }
  }
  return kGpaStatusOk;
}

}  // namespace opengpa::counter_library
