// The exported GpaCounterLib* functions of libGPUPerfAPICounters.so: argument checks (every refusal logged,
// with the status gpu_perf_api_counters.h documents), the context registry, and the function table.
// The work is done by CounterContext over the same counter engine the live libraries use.
#include <algorithm>
#include <cstddef>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <vector>

#include "core/backend.h"
#include "core/handle_registry.h"
#include "core/version.h"
#include "counter_library/context_registry.h"
#include "counter_library/counter_context.h"
#include "counter_library/device_selection.h"
#include "counter_library/gpa4_bridge.h"
#include "gpu_performance_api/opengpa_counters_ext.h"
#include "platform/enum_argument.h"
#include "platform/logging.h"

using namespace opengpa;
using namespace opengpa::counter_library;

namespace {

// `body(context, counter)` for a valid counter index and a non-NULL output.
template <typename Out, typename Body>
GpaStatus WithCounter(const char* function, GpaCounterContext id, GpaUInt32 index, Out* out, const char* out_name,
                      Body&& body) noexcept {
  return WithContext(function, id, [&](CounterContext& context) -> GpaStatus {
    if (index >= context.counters().size()) {
      return LogError(kGpaStatusErrorIndexOutOfRange, "{}: gpa_counter_index {} >= {} counters", function, index,
                      context.counters().size());
    }
    if (out == nullptr) return NullArgument(function, out_name);
    return body(context, context.counters().at(index));
  });
}

// The counter indices a caller passed, checked. As AMD's library: NULL indices are refused even with a zero
// count, and an empty set is an invalid parameter (it has no passes to ask about).
GpaStatus ReadIndices(const char* function, const CounterContext& context, const GpaUInt32* indices, GpaUInt32 count,
                      std::vector<std::uint32_t>* out) {
  if (indices == nullptr) return NullArgument(function, "gpa_counter_indices");
  if (count == 0) return LogError(kGpaStatusErrorInvalidParameter, "{}: gpa_counter_count is 0", function);
  for (GpaUInt32 k = 0; k < count; ++k) {
    if (indices[k] >= context.counters().size()) {
      return LogError(kGpaStatusErrorIndexOutOfRange, "{}: gpa_counter_indices[{}] = {} >= {} counters", function, k,
                      indices[k], context.counters().size());
    }
    out->push_back(indices[k]);
  }
  return kGpaStatusOk;
}

}  // namespace

GpaStatus GpaCounterLibGetVersion(GpaUInt32* major_version, GpaUInt32* minor_version, GpaUInt32* build_number,
                                  GpaUInt32* update_version) {
  return GuardedLocked("GpaCounterLibGetVersion", [&] {
    if (major_version == nullptr) return NullArgument("GpaCounterLibGetVersion", "major_version");
    if (minor_version == nullptr) return NullArgument("GpaCounterLibGetVersion", "minor_version");
    if (build_number == nullptr) return NullArgument("GpaCounterLibGetVersion", "build_number");
    if (update_version == nullptr) return NullArgument("GpaCounterLibGetVersion", "update_version");
    *major_version = OPENGPA_VERSION_MAJOR;
    *minor_version = OPENGPA_VERSION_MINOR;
    *build_number = OPENGPA_VERSION_BUILD;
    *update_version = OPENGPA_VERSION_UPDATE;
    return kGpaStatusOk;
  });
}

GpaStatus GpaCounterLibGetFuncTable(void* gpa_counter_lib_function_table) {
  return GuardedLocked("GpaCounterLibGetFuncTable", [&] {
    if (gpa_counter_lib_function_table == nullptr) {
      return NullArgument("GpaCounterLibGetFuncTable", "gpa_counter_lib_function_table");
    }
    GpaCounterLibFuncTable ours;  // the header's constructor sets both versions
#define OPENGPA_FILL_SLOT(func) ours.func = func;
    GPA_COUNTER_LIB_FUNC(OPENGPA_FILL_SLOT)
#undef OPENGPA_FILL_SLOT

    // Only the two version fields of the caller's table are known to exist until they are read.
    GpaUInt32 header[2];
    std::memcpy(header, gpa_counter_lib_function_table, sizeof header);
    // GPA 4.3's table also states major version 3 but is larger than any v3 table (160 bytes, not 144): the
    // size tells them apart. A caller may also state major version 4 for the v4 table.
    if (header[0] == gpa4::kTableMajorVersion ||
        (header[0] == GPA_COUNTER_LIB_FUNC_TABLE_MAJOR_VERSION && header[1] > sizeof(GpaCounterLibFuncTable))) {
      return gpa4::FillFunctionTable(gpa_counter_lib_function_table);
    }
    if (header[0] != GPA_COUNTER_LIB_FUNC_TABLE_MAJOR_VERSION) {
      const GpaUInt32 caller_major = header[0];
      header[0] = GPA_COUNTER_LIB_FUNC_TABLE_MAJOR_VERSION;
      std::memcpy(gpa_counter_lib_function_table, header, sizeof header);
      return LogError(kGpaStatusErrorLibLoadMajorVersionMismatch,
                      "GpaCounterLibGetFuncTable: gpa_counter_lib_major_version {} is neither {} (GPA v3 and 4) nor {}",
                      caller_major, GPA_COUNTER_LIB_FUNC_TABLE_MAJOR_VERSION, gpa4::kTableMajorVersion);
    }
    constexpr GpaUInt32 kHeaderSize = offsetof(GpaCounterLibFuncTable, GpaCounterLibGetVersion);
    if (header[1] > sizeof(GpaCounterLibFuncTable) || header[1] < kHeaderSize) {
      const GpaUInt32 caller_size = header[1];
      header[1] = static_cast<GpaUInt32>(sizeof(GpaCounterLibFuncTable));
      std::memcpy(gpa_counter_lib_function_table, header, sizeof header);
      return LogError(kGpaStatusErrorLibLoadMinorVersionMismatch,
                      "GpaCounterLibGetFuncTable: gpa_counter_lib_minor_version (the caller's table size) {} is not "
                      "between {} and this library's {}",
                      caller_size, kHeaderSize, sizeof(GpaCounterLibFuncTable));
    }
    // An older caller's table is a prefix of ours: fill the entries that fit whole.
    const std::size_t fitting = (header[1] - kHeaderSize) / sizeof(void*) * sizeof(void*);
    std::memcpy(static_cast<char*>(gpa_counter_lib_function_table) + kHeaderSize,
                reinterpret_cast<const char*>(&ours) + kHeaderSize, fitting);
    return kGpaStatusOk;
  });
}

GpaStatus GpaCounterLibOpenCounterContext(GpaApiType api,
                                          GpaCounterContextHardwareInfo gpa_counter_context_hardware_info,
                                          GpaOpenContextFlags context_flags, GpaUInt8 generate_asic_specific_counters,
                                          GpaCounterContext* gpa_virtual_context) {
  return GuardedLocked("GpaCounterLibOpenCounterContext", [&]() -> GpaStatus {
    if (gpa_virtual_context == nullptr) return NullArgument("GpaCounterLibOpenCounterContext", "gpa_virtual_context");
    if (generate_asic_specific_counters != 1) {
      return LogError(kGpaStatusErrorInvalidParameter,
                      "GpaCounterLibOpenCounterContext: generate_asic_specific_counters must be 1, not {}",
                      generate_asic_specific_counters);
    }
    if (gpa_counter_context_hardware_info.gpa_hardware_attribute_count > 0 &&
        gpa_counter_context_hardware_info.gpa_hardware_attributes == nullptr) {
      return NullArgument("GpaCounterLibOpenCounterContext", "gpa_hardware_attributes (with a non-zero count)");
    }
    // Hiding the derived counters without enabling the hardware ones leaves nothing (AMD's documented case).
    if ((context_flags & kGpaOpenContextHideDerivedCountersBit) != 0 &&
        (context_flags & kGpaOpenContextEnableHardwareCountersBit) == 0) {
      return LogError(kGpaStatusErrorInvalidParameter,
                      "GpaCounterLibOpenCounterContext: context_flags 0x{:X} hide the derived counters and do not "
                      "enable the hardware ones: no counter would be exposed",
                      context_flags);
    }
    return OpenContext(EnumArgument(api), gpa_counter_context_hardware_info, context_flags, ContextFlavor{}, 0,
                       gpa_virtual_context);
  });
}

GpaStatus GpaCounterLibCloseCounterContext(const GpaCounterContext gpa_virtual_context) {
  return GuardedLocked("GpaCounterLibCloseCounterContext", [&]() -> GpaStatus {
    if (gpa_virtual_context == nullptr) return NullArgument("GpaCounterLibCloseCounterContext", "gpa_virtual_context");
    if (!Contexts().Remove(HandleValueOf(gpa_virtual_context))) {
      return LogError(kGpaStatusErrorContextNotOpen, "GpaCounterLibCloseCounterContext: counter context {} is not open",
                      static_cast<const void*>(gpa_virtual_context));
    }
    return kGpaStatusOk;
  });
}

GpaStatus GpaCounterLibGetNumCounters(const GpaCounterContext gpa_virtual_context, GpaUInt32* gpa_counter_count) {
  return WithContext("GpaCounterLibGetNumCounters", gpa_virtual_context, [&](CounterContext& context) {
    if (gpa_counter_count == nullptr) return NullArgument("GpaCounterLibGetNumCounters", "gpa_counter_count");
    *gpa_counter_count = context.counters().size();
    return kGpaStatusOk;
  });
}

GpaStatus GpaCounterLibGetCounterName(const GpaCounterContext gpa_virtual_context, GpaUInt32 gpa_counter_index,
                                      const char** gpa_counter_name) {
  return WithCounter("GpaCounterLibGetCounterName", gpa_virtual_context, gpa_counter_index, gpa_counter_name,
                     "gpa_counter_name", [&](CounterContext&, const PublicCounter& counter) {
                       *gpa_counter_name = counter.name.c_str();
                       return kGpaStatusOk;
                     });
}

GpaStatus OpenGpaCounterLibGetCounterFormula(const GpaCounterContext gpa_virtual_context, GpaUInt32 gpa_counter_index,
                                             const char** formula) {
  return WithCounter("OpenGpaCounterLibGetCounterFormula", gpa_virtual_context, gpa_counter_index, formula, "formula",
                     [&](CounterContext&, const PublicCounter& counter) {
                       *formula = counter.formula.Text().c_str();
                       return kGpaStatusOk;
                     });
}

GpaStatus GpaCounterLibGetCounterIndex(const GpaCounterContext gpa_virtual_context,
                                       const GpaCounterParam* gpa_counter_info, GpaUInt32* gpa_counter_index) {
  constexpr const char* kFunction = "GpaCounterLibGetCounterIndex";
  return WithContext(kFunction, gpa_virtual_context, [&](CounterContext& context) -> GpaStatus {
    if (gpa_counter_info == nullptr) return NullArgument(kFunction, "gpa_counter_info");
    if (gpa_counter_index == nullptr) return NullArgument(kFunction, "gpa_counter_index");
    if (gpa_counter_info->is_derived_counter) {
      if (gpa_counter_info->derived_counter_name == nullptr) {
        return NullArgument(kFunction, "gpa_counter_info->derived_counter_name");
      }
      const auto index = context.counters().Find(gpa_counter_info->derived_counter_name);
      if (!index) {
        return LogError(kGpaStatusErrorCounterNotFound, "{}: no counter named '{}'", kFunction,
                        gpa_counter_info->derived_counter_name);
      }
      *gpa_counter_index = *index;
      return kGpaStatusOk;
    }
    const auto hardware = context.HardwareIndexOf(gpa_counter_info->gpa_hw_counter);
    if (!hardware) {
      return LogError(kGpaStatusErrorCounterNotFound, "{}: the hardware counter given names none of this context's {}",
                      kFunction, context.backend().HardwareCounters().size());
    }
    const auto index = context.CounterOfHardware(*hardware);
    if (!index) {
      return LogError(kGpaStatusErrorCounterNotFound,
                      "{}: hardware counter '{}' is not exposed (open the context with "
                      "kGpaOpenContextEnableHardwareCountersBit)",
                      kFunction, context.backend().HardwareCounters()[*hardware].name);
    }
    *gpa_counter_index = *index;
    return kGpaStatusOk;
  });
}

GpaStatus GpaCounterLibGetCounterGroup(const GpaCounterContext gpa_virtual_context, GpaUInt32 gpa_counter_index,
                                       const char** gpa_counter_group) {
  return WithCounter("GpaCounterLibGetCounterGroup", gpa_virtual_context, gpa_counter_index, gpa_counter_group,
                     "gpa_counter_group", [&](CounterContext&, const PublicCounter& counter) {
                       *gpa_counter_group = counter.group.c_str();
                       return kGpaStatusOk;
                     });
}

GpaStatus GpaCounterLibGetCounterDescription(const GpaCounterContext gpa_virtual_context, GpaUInt32 gpa_counter_index,
                                             const char** gpa_counter_description) {
  return WithCounter("GpaCounterLibGetCounterDescription", gpa_virtual_context, gpa_counter_index,
                     gpa_counter_description, "gpa_counter_description",
                     [&](CounterContext&, const PublicCounter& counter) {
                       *gpa_counter_description = counter.description.c_str();
                       return kGpaStatusOk;
                     });
}

GpaStatus GpaCounterLibGetCounterDataType(const GpaCounterContext gpa_virtual_context, GpaUInt32 gpa_counter_index,
                                          GpaDataType* gpa_counter_data_type) {
  return WithCounter("GpaCounterLibGetCounterDataType", gpa_virtual_context, gpa_counter_index, gpa_counter_data_type,
                     "gpa_counter_data_type", [&](CounterContext&, const PublicCounter& counter) {
                       *gpa_counter_data_type = counter.data_type;
                       return kGpaStatusOk;
                     });
}

GpaStatus GpaCounterLibGetCounterUsageType(const GpaCounterContext gpa_virtual_context, GpaUInt32 gpa_counter_index,
                                           GpaUsageType* gpa_counter_usage_type) {
  return WithCounter("GpaCounterLibGetCounterUsageType", gpa_virtual_context, gpa_counter_index, gpa_counter_usage_type,
                     "gpa_counter_usage_type", [&](CounterContext&, const PublicCounter& counter) {
                       *gpa_counter_usage_type = counter.usage;
                       return kGpaStatusOk;
                     });
}

GpaStatus GpaCounterLibGetCounterUuid(const GpaCounterContext gpa_virtual_context, GpaUInt32 gpa_counter_index,
                                      GpaUuid* gpa_counter_uuid) {
  return WithCounter("GpaCounterLibGetCounterUuid", gpa_virtual_context, gpa_counter_index, gpa_counter_uuid,
                     "gpa_counter_uuid", [&](CounterContext&, const PublicCounter& counter) {
                       *gpa_counter_uuid = counter.uuid;
                       return kGpaStatusOk;
                     });
}

GpaStatus GpaCounterLibGetCounterSampleType(const GpaCounterContext gpa_virtual_context, GpaUInt32 gpa_counter_index,
                                            GpaCounterSampleType* gpa_counter_sample_type) {
  return WithCounter("GpaCounterLibGetCounterSampleType", gpa_virtual_context, gpa_counter_index,
                     gpa_counter_sample_type, "gpa_counter_sample_type", [&](CounterContext&, const PublicCounter&) {
                       *gpa_counter_sample_type = kGpaCounterSampleTypeDiscrete;  // every counter is per sample
                       return kGpaStatusOk;
                     });
}

GpaStatus GpaCounterLibGetCounterInfo(const GpaCounterContext gpa_virtual_context, GpaUInt32 gpa_counter_index,
                                      const GpaCounterInfo** gpa_counter_info) {
  constexpr const char* kFunction = "GpaCounterLibGetCounterInfo";
  return WithContext(kFunction, gpa_virtual_context, [&](CounterContext& context) -> GpaStatus {
    if (gpa_counter_info == nullptr) return NullArgument(kFunction, "gpa_counter_info");
    if (gpa_counter_index >= context.counters().size()) {  // AMD's status for an index with no info: Failed
      return LogError(kGpaStatusErrorFailed, "{}: gpa_counter_index {} >= {} counters", kFunction, gpa_counter_index,
                      context.counters().size());
    }
    *gpa_counter_info = &context.Info(gpa_counter_index);
    return kGpaStatusOk;
  });
}

GpaStatus GpaCounterLibComputeDerivedCounterResult(const GpaCounterContext gpa_virtual_context,
                                                   GpaUInt32 gpa_derived_counter_index,
                                                   const GpaUInt64* gpa_hw_counter_result,
                                                   GpaUInt32 gpa_hw_counter_result_count,
                                                   GpaFloat64* gpa_derived_counter_result) {
  constexpr const char* kFunction = "GpaCounterLibComputeDerivedCounterResult";
  // AMD's order of checks: an empty result set first, then NULL pointers, then the context and the index. A derived
  // counter that reads no hardware counter (a Mali configuration or static constant: MaliConfigCoreCount,
  // MaliGPUWarpSize) takes an empty set, and no array: AMD's catalogs have no such counter.
  if (gpa_hw_counter_result_count == 0) {
    return GuardedLocked(kFunction, [&]() -> GpaStatus {
      CounterContext* context =
          gpa_virtual_context == nullptr ? nullptr : Contexts().Find(HandleValueOf(gpa_virtual_context));
      const bool reads_nothing = context != nullptr && gpa_derived_counter_index < context->counters().size() &&
                                 !context->counters().at(gpa_derived_counter_index).is_hardware &&
                                 context->counters().at(gpa_derived_counter_index).formula.Inputs().empty();
      if (!reads_nothing) {
        return LogError(kGpaStatusErrorInvalidParameter, "{}: gpa_hw_counter_result_count is 0", kFunction);
      }
      if (gpa_derived_counter_result == nullptr) return NullArgument(kFunction, "gpa_derived_counter_result");
      return context->ComputeDerived(gpa_derived_counter_index, nullptr, 0, gpa_derived_counter_result);
    });
  }
  return WithContext(kFunction, gpa_virtual_context, [&](CounterContext& context) -> GpaStatus {
    if (gpa_derived_counter_result == nullptr) return NullArgument(kFunction, "gpa_derived_counter_result");
    if (gpa_hw_counter_result == nullptr) return NullArgument(kFunction, "gpa_hw_counter_result");
    if (gpa_derived_counter_index >= context.counters().size()) {
      return LogError(kGpaStatusErrorFailed, "{}: gpa_derived_counter_index {} >= {} counters", kFunction,
                      gpa_derived_counter_index, context.counters().size());
    }
    return context.ComputeDerived(gpa_derived_counter_index, gpa_hw_counter_result, gpa_hw_counter_result_count,
                                  gpa_derived_counter_result);
  });
}

GpaStatus GpaCounterLibGetPassCount(const GpaCounterContext gpa_virtual_context, const GpaUInt32* gpa_counter_indices,
                                    GpaUInt32 gpa_counter_count, GpaUInt32* number_of_pass_req) {
  constexpr const char* kFunction = "GpaCounterLibGetPassCount";
  return WithContext(kFunction, gpa_virtual_context, [&](CounterContext& context) -> GpaStatus {
    if (number_of_pass_req == nullptr) return NullArgument(kFunction, "number_of_pass_req");
    std::vector<std::uint32_t> counters;
    if (GpaStatus status = ReadIndices(kFunction, context, gpa_counter_indices, gpa_counter_count, &counters);
        status != kGpaStatusOk) {
      return status;
    }
    return context.PassCount(counters, number_of_pass_req);
  });
}

GpaStatus GpaCounterLibGetCountersByPass(const GpaCounterContext gpa_virtual_context, GpaUInt32 gpa_counter_count,
                                         const GpaUInt32* gpa_counter_indices, GpaUInt32* pass_count,
                                         GpaUInt32* counter_by_pass_list, GpaPassCounter* gpa_pass_counters) {
  constexpr const char* kFunction = "GpaCounterLibGetCountersByPass";
  return WithContext(kFunction, gpa_virtual_context, [&](CounterContext& context) -> GpaStatus {
    if (pass_count == nullptr) return NullArgument(kFunction, "pass_count");
    std::vector<std::uint32_t> counters;
    if (GpaStatus status = ReadIndices(kFunction, context, gpa_counter_indices, gpa_counter_count, &counters);
        status != kGpaStatusOk) {
      return status;
    }
    std::vector<PassContents> passes;
    if (GpaStatus status = context.CountersByPass(counters, &passes); status != kGpaStatusOk) return status;
    const auto needed = static_cast<GpaUInt32>(passes.size());
    if (counter_by_pass_list == nullptr) {  // first call: how many passes to allocate for
      *pass_count = needed;
      return kGpaStatusOk;
    }
    if (*pass_count < needed) {
      return LogError(kGpaStatusErrorInvalidParameter, "{}: *pass_count {} is less than the {} passes needed",
                      kFunction, *pass_count, needed);
    }
    // As AMD documents: counter_by_pass_list (filled below) is what the caller sizes counter_indices by, in
    // a call before the one that passes them.
    for (GpaUInt32 p = 0; p < needed; ++p) counter_by_pass_list[p] = static_cast<GpaUInt32>(passes[p].size());
    *pass_count = needed;
    if (gpa_pass_counters == nullptr) return kGpaStatusOk;
    // As AMD's library: each entry names its pass (pass_index) and the room in counter_indices
    // (counter_count); at most that many indices are written, and both fields are left as given.
    for (GpaUInt32 k = 0; k < needed; ++k) {
      if (gpa_pass_counters[k].pass_index >= needed) {
        return LogError(kGpaStatusErrorInvalidParameter, "{}: gpa_pass_counters[{}].pass_index {} >= {} passes",
                        kFunction, k, gpa_pass_counters[k].pass_index, needed);
      }
    }
    for (GpaUInt32 k = 0; k < needed; ++k) {
      GpaPassCounter& entry = gpa_pass_counters[k];
      if (entry.counter_indices == nullptr) continue;
      const PassContents& pass = passes[entry.pass_index];
      const std::size_t written = std::min<std::size_t>(pass.size(), entry.counter_count);
      std::copy(pass.begin(), pass.begin() + written, entry.counter_indices);
    }
    return kGpaStatusOk;
  });
}

GpaStatus OpenGpaCounterLibRegisterLoggingCallback(GpaLoggingType logging_type, GpaLoggingCallbackPtrType callback) {
  return GuardedLocked("OpenGpaCounterLibRegisterLoggingCallback", [&] {
    // A bit mask, read as the int a C caller may pass: bits GPA does not define select nothing.
    const auto types = static_cast<unsigned>(EnumArgument(logging_type));
    if (callback == nullptr && types != kGpaLoggingNone) {
      return NullArgument("OpenGpaCounterLibRegisterLoggingCallback", "callback");
    }
    SetLoggingCallback(types, callback);
    return kGpaStatusOk;
  });
}
