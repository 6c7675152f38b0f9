// Counter queries and selection: GPA_GetNumCounters ... GPA_GetCounterIndex, GPA_EnableCounter ...
// GPA_DisableAllCounters, GPA_GetEnabledCount/Index, GPA_IsCounterEnabled, GPA_GetPassCount.
// Selection goes to the context's `selection` v3 session (see gpa2_state.h).
#include <string>

#include "entry/gpa2/gpa2_state.h"
#include "entry/gpa2/gpa2_status.h"

using namespace opengpa::gpa2;

namespace {

// What every per-counter query shares: current context, index check, null check, then
// `*output = read(const CounterView&)`.
template <typename Output, typename Read>
GPA_Status ReadCounter(const char* function, const char* output_name, gpa_uint32 index, Output* output, Read&& read) {
  return WithCurrentContext(function, [&](V2Context& context) {
    if (index >= context.counters.size()) {
      return Fail(GPA_STATUS_ERROR_INDEX_OUT_OF_RANGE, "{}: index {} is not below the counter count {}", function,
                  index, context.counters.size());
    }
    if (output == nullptr) return Fail(GPA_STATUS_ERROR_NULL_POINTER, "{}: {} is NULL", function, output_name);
    *output = read(context.counters[index]);
    return GPA_STATUS_OK;
  });
}

GPA_Status CheckCanChangeCounters(const char* function, const V2Context& context) {
  if (context.recording) {
    return Fail(GPA_STATUS_ERROR_CANNOT_CHANGE_COUNTERS_WHEN_SAMPLING,
                "{}: the enabled counters cannot change between GPA_BeginSession and GPA_EndSession", function);
  }
  return GPA_STATUS_OK;
}

GPA_Status CheckIndex(const char* function, const V2Context& context, gpa_uint32 index) {
  if (index >= context.counters.size()) {
    return Fail(GPA_STATUS_ERROR_INDEX_OUT_OF_RANGE, "{}: index {} is not below the counter count {}", function, index,
                context.counters.size());
  }
  return GPA_STATUS_OK;
}

GPA_Status SetEnabled(const char* function, V2Context& context, gpa_uint32 index, bool enable) {
  if (GPA_Status status = CheckIndex(function, context, index); status != GPA_STATUS_OK) return status;
  if (GPA_Status status = CheckCanChangeCounters(function, context); status != GPA_STATUS_OK) return status;
  bool enabled = false;
  for (gpa_uint32 i : EnabledCounters(context.selection)) enabled = enabled || i == index;
  if (enable && enabled) {
    return Fail(GPA_STATUS_ERROR_ALREADY_ENABLED, "{}: counter {} ('{}') is already enabled", function, index,
                context.counters[index].name);
  }
  if (!enable && !enabled) {
    return Fail(GPA_STATUS_ERROR_NOT_ENABLED, "{}: counter {} ('{}') is not enabled", function, index,
                context.counters[index].name);
  }
  const GpaStatus status =
      enable ? GpaEnableCounter(context.selection, index) : GpaDisableCounter(context.selection, index);
  if (status != kGpaStatusOk) {
    return Fail(FromV3Status(status), "{}: counter {} ('{}') could not be changed", function, index,
                context.counters[index].name);
  }
  return GPA_STATUS_OK;
}

GPA_Status SetEnabledByName(const char* function, const char* counter, bool enable) {
  return WithCurrentContext(function, [&](V2Context& context) {
    if (counter == nullptr) return Fail(GPA_STATUS_ERROR_NULL_POINTER, "{}: counter is NULL", function);
    if (GPA_Status status = CheckCanChangeCounters(function, context); status != GPA_STATUS_OK) return status;
    const auto index = FindCounter(context.counters, counter);
    if (!index) return Fail(GPA_STATUS_ERROR_NOT_FOUND, "{}: '{}' is not a counter of this context", function, counter);
    return SetEnabled(function, context, *index, enable);
  });
}

}  // namespace

GPA_Status GPA_GetNumCounters(gpa_uint32* count) {
  return WithCurrentContext("GPA_GetNumCounters", [&](V2Context& context) {
    if (count == nullptr) return Fail(GPA_STATUS_ERROR_NULL_POINTER, "GPA_GetNumCounters: count is NULL");
    *count = static_cast<gpa_uint32>(context.counters.size());
    return GPA_STATUS_OK;
  });
}

GPA_Status GPA_GetCounterName(gpa_uint32 index, const char** name) {
  return ReadCounter("GPA_GetCounterName", "name", index, name, [](const CounterView& c) { return c.name.c_str(); });
}

GPA_Status GPA_GetCounterDescription(gpa_uint32 index, const char** description) {
  return ReadCounter("GPA_GetCounterDescription", "description", index, description,
                     [](const CounterView& c) { return c.description.c_str(); });
}

GPA_Status GPA_GetCounterDataType(gpa_uint32 index, GPA_Type* counterDataType) {
  return ReadCounter("GPA_GetCounterDataType", "counterDataType", index, counterDataType,
                     [](const CounterView& c) { return c.type; });
}

GPA_Status GPA_GetCounterUsageType(gpa_uint32 index, GPA_Usage_Type* counterUsageType) {
  return ReadCounter("GPA_GetCounterUsageType", "counterUsageType", index, counterUsageType,
                     [](const CounterView& c) { return c.usage; });
}

GPA_Status GPA_GetCounterIndex(const char* counter, gpa_uint32* index) {
  return WithCurrentContext("GPA_GetCounterIndex", [&](V2Context& context) {
    if (counter == nullptr) return Fail(GPA_STATUS_ERROR_NULL_POINTER, "GPA_GetCounterIndex: counter is NULL");
    if (index == nullptr) return Fail(GPA_STATUS_ERROR_NULL_POINTER, "GPA_GetCounterIndex: index is NULL");
    const auto found = FindCounter(context.counters, counter);
    if (!found) {
      return Fail(GPA_STATUS_ERROR_NOT_FOUND, "GPA_GetCounterIndex: '{}' is not a counter of this context", counter);
    }
    *index = *found;
    return GPA_STATUS_OK;
  });
}

GPA_Status GPA_EnableCounter(gpa_uint32 index) {
  return WithCurrentContext("GPA_EnableCounter",
                            [&](V2Context& context) { return SetEnabled("GPA_EnableCounter", context, index, true); });
}

GPA_Status GPA_DisableCounter(gpa_uint32 index) {
  return WithCurrentContext("GPA_DisableCounter", [&](V2Context& context) {
    return SetEnabled("GPA_DisableCounter", context, index, false);
  });
}

GPA_Status GPA_EnableCounterStr(const char* counter) { return SetEnabledByName("GPA_EnableCounterStr", counter, true); }

GPA_Status GPA_DisableCounterStr(const char* counter) {
  return SetEnabledByName("GPA_DisableCounterStr", counter, false);
}

GPA_Status GPA_EnableAllCounters() {
  return WithCurrentContext("GPA_EnableAllCounters", [&](V2Context& context) {
    if (GPA_Status status = CheckCanChangeCounters("GPA_EnableAllCounters", context); status != GPA_STATUS_OK) {
      return status;
    }
    // In counter order, as AMD's v2 did (disable all, then enable each).
    GpaStatus status = GpaDisableAllCounters(context.selection);
    if (status == kGpaStatusOk) status = GpaEnableAllCounters(context.selection);
    if (status != kGpaStatusOk) {
      return Fail(FromV3Status(status), "GPA_EnableAllCounters: the counters could not be enabled");
    }
    return GPA_STATUS_OK;
  });
}

GPA_Status GPA_DisableAllCounters() {
  return WithCurrentContext("GPA_DisableAllCounters", [&](V2Context& context) {
    if (GPA_Status status = CheckCanChangeCounters("GPA_DisableAllCounters", context); status != GPA_STATUS_OK) {
      return status;
    }
    const GpaStatus status = GpaDisableAllCounters(context.selection);
    if (status != kGpaStatusOk) {
      return Fail(FromV3Status(status), "GPA_DisableAllCounters: the counters could not be disabled");
    }
    return GPA_STATUS_OK;
  });
}

GPA_Status GPA_GetEnabledCount(gpa_uint32* count) {
  return WithCurrentContext("GPA_GetEnabledCount", [&](V2Context& context) {
    if (count == nullptr) return Fail(GPA_STATUS_ERROR_NULL_POINTER, "GPA_GetEnabledCount: count is NULL");
    *count = static_cast<gpa_uint32>(EnabledCounters(context.selection).size());
    return GPA_STATUS_OK;
  });
}

GPA_Status GPA_GetEnabledIndex(gpa_uint32 enabledNumber, gpa_uint32* enabledCounterIndex) {
  return WithCurrentContext("GPA_GetEnabledIndex", [&](V2Context& context) {
    if (enabledCounterIndex == nullptr) {
      return Fail(GPA_STATUS_ERROR_NULL_POINTER, "GPA_GetEnabledIndex: enabledCounterIndex is NULL");
    }
    const std::vector<gpa_uint32> enabled = EnabledCounters(context.selection);
    if (enabledNumber >= enabled.size()) {
      return Fail(GPA_STATUS_ERROR_INDEX_OUT_OF_RANGE,
                  "GPA_GetEnabledIndex: enabledNumber {} is not below the enabled count {}", enabledNumber,
                  enabled.size());
    }
    *enabledCounterIndex = enabled[enabledNumber];
    return GPA_STATUS_OK;
  });
}

GPA_Status GPA_IsCounterEnabled(gpa_uint32 counterIndex) {
  return WithCurrentContext("GPA_IsCounterEnabled", [&](V2Context& context) {
    if (GPA_Status status = CheckIndex("GPA_IsCounterEnabled", context, counterIndex); status != GPA_STATUS_OK) {
      return status;
    }
    for (gpa_uint32 i : EnabledCounters(context.selection)) {
      if (i == counterIndex) return GPA_STATUS_OK;
    }
    // The answer "no", not an error: logged as a message only.
    Log(GPA_LOGGING_MESSAGE, "GPA_IsCounterEnabled: counter {} ('{}') is not enabled", counterIndex,
        context.counters[counterIndex].name);
    return GPA_STATUS_ERROR_NOT_FOUND;
  });
}

GPA_Status GPA_GetPassCount(gpa_uint32* numPasses) {
  return WithCurrentContext("GPA_GetPassCount", [&](V2Context& context) {
    if (numPasses == nullptr) return Fail(GPA_STATUS_ERROR_NULL_POINTER, "GPA_GetPassCount: numPasses is NULL");
    GpaUInt32 passes = 0;
    const GpaStatus status = GpaGetPassCount(context.selection, &passes);
    if (status != kGpaStatusOk) {
      return Fail(FromV3Status(status), "GPA_GetPassCount: the passes of the enabled counters could not be counted");
    }
    *numPasses = passes;
    return GPA_STATUS_OK;
  });
}
