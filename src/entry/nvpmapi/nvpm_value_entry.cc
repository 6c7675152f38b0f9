// The getters of experiment and real-time values, and GetGPUBottleneckName.
#include <cstring>
#include <string>

#include "entry/nvpmapi/nvpm_entry.h"
#include "entry/nvpmapi/nvpm_state.h"

namespace opengpa::nvpm::entry {
namespace {

enum class Want { kAny, kUint64, kFloat64 };

// Checks in the order: experiment running, counter unknown, not added, never measured, object not measured,
// value type. On NVPM_OK *reading is the value.
NVPMRESULT Find(const char* function, const Context& context, const ContextCounter* counter, const std::string& what,
                NVPMUINT object, Want want, const Reading** reading) {
  if (context.experiment) {
    return Fail(NVPM_ERROR_EXPERIMENT_RUNNING, "{}: an experiment is running: call EndExperiment first", function);
  }
  if (counter == nullptr) {
    return Fail(NVPM_ERROR_INVALID_COUNTER, "{}: this {} context has no counter {}", function,
                ApiName(context.backend->api), what);
  }
  if (!context.IsAdded(counter->id)) {
    return Fail(NVPM_ERROR_COUNTER_NOT_ENABLED, "{}: counter \"{}\" is not added", function, counter->name);
  }
  bool measured = false;
  for (const auto& [id, readings] : context.readings) measured = measured || readings.count(counter->id) != 0;
  if (!measured) {
    return Fail(NVPM_ERROR_EXPERIMENT_NOT_RUN, "{}: no experiment or Sample has measured \"{}\" since it was added",
                function, counter->name);
  }
  auto object_readings = context.readings.find(object);
  if (object_readings == context.readings.end() || object_readings->second.count(counter->id) == 0) {
    return Fail(NVPM_ERROR_INVALID_OBJECT, "{}: object {} has no value of \"{}\"", function, object, counter->name);
  }
  if ((want == Want::kUint64 && counter->float_value) || (want == Want::kFloat64 && !counter->float_value)) {
    return Fail(NVPM_INCORRECT_VALUE_TYPE, "{}: \"{}\" is a {} counter", function, counter->name,
                counter->float_value ? "FLOAT64" : "UINT64");
  }
  *reading = &object_readings->second.at(counter->id);
  return NVPM_OK;
}

const ContextCounter* ByName(const Context& context, const char* name) {
  for (const ContextCounter& counter : context.catalog.counters) {
    if (counter.name == name) return &counter;
  }
  return nullptr;
}

std::string Quoted(const char* name) { return std::string("\"") + name + "\""; }
std::string IdText(NVPMCounterID id) { return "with id " + std::to_string(id); }

template <typename Value>
NVPMRESULT Get(const char* function, NVPMContext handle, const char* name, NVPMCounterID id, NVPMUINT object, Want want,
               Value* value, NVPMUINT64* cycles, NVPMUINT8* overflow) {
  return WithContext(function, handle, [&](Context& context) {
    if (value == nullptr || cycles == nullptr) {
      return Fail(NVPM_ERROR_INVALID_PARAMETER, "{}: the value or cycles pointer is NULL", function);
    }
    const ContextCounter* counter = nullptr;
    std::string what;
    if (name != nullptr) {
      counter = ByName(context, name);
      what = Quoted(name);
    } else {
      counter = context.catalog.Find(id);
      what = IdText(id);
    }
    const Reading* reading = nullptr;
    if (NVPMRESULT result = Find(function, context, counter, what, object, want, &reading); result != NVPM_OK) {
      return result;
    }
    if constexpr (std::is_same_v<Value, NVPMFLOAT64>) {
      *value = reading->exact;
    } else {
      *value = reading->value;
    }
    *cycles = reading->cycles;
    // GPA's 64-bit results come from CUPTI's and GL's 64-bit counters, which do not wrap within a frame.
    if (overflow != nullptr) *overflow = 0;
    return NVPM_OK;
  });
}

NVPMRESULT NameIsNull(const char* function) {
  return Guarded(function, [&] { return Fail(NVPM_ERROR_INVALID_PARAMETER, "{}: pcName is NULL", function); });
}

}  // namespace

NVPMRESULT GetCounterValueByName(NVPMContext handle, const char* name, NVPMUINT object, NVPMUINT64* value,
                                 NVPMUINT64* cycles) {
  if (name == nullptr) return NameIsNull("GetCounterValueByName");
  return Get("GetCounterValueByName", handle, name, 0, object, Want::kAny, value, cycles, nullptr);
}

NVPMRESULT GetCounterValue(NVPMContext handle, NVPMCounterID id, NVPMUINT object, NVPMUINT64* value,
                           NVPMUINT64* cycles) {
  return Get("GetCounterValue", handle, nullptr, id, object, Want::kAny, value, cycles, nullptr);
}

NVPMRESULT GetCounterValueUint64(NVPMContext handle, NVPMCounterID id, NVPMUINT object, NVPMUINT64* value,
                                 NVPMUINT64* cycles, NVPMUINT8* overflow) {
  return Get("GetCounterValueUint64", handle, nullptr, id, object, Want::kUint64, value, cycles, overflow);
}

NVPMRESULT GetCounterValueFloat64(NVPMContext handle, NVPMCounterID id, NVPMUINT object, NVPMFLOAT64* value,
                                  NVPMUINT64* cycles, NVPMUINT8* overflow) {
  return Get("GetCounterValueFloat64", handle, nullptr, id, object, Want::kFloat64, value, cycles, overflow);
}

NVPMRESULT GetCounterValueByNameUint64(NVPMContext handle, const char* name, NVPMUINT object, NVPMUINT64* value,
                                       NVPMUINT64* cycles, NVPMUINT8* overflow) {
  if (name == nullptr) return NameIsNull("GetCounterValueByNameUint64");
  return Get("GetCounterValueByNameUint64", handle, name, 0, object, Want::kUint64, value, cycles, overflow);
}

NVPMRESULT GetCounterValueByNameFloat64(NVPMContext handle, const char* name, NVPMUINT object, NVPMFLOAT64* value,
                                        NVPMUINT64* cycles, NVPMUINT8* overflow) {
  if (name == nullptr) return NameIsNull("GetCounterValueByNameFloat64");
  return Get("GetCounterValueByNameFloat64", handle, name, 0, object, Want::kFloat64, value, cycles, overflow);
}

// `value`: what "GPU Bottleneck" read (the id of the limiting unit's SOL counter, or its own id).
NVPMRESULT GetGPUBottleneckName(NVPMContext handle, NVPMUINT64 value, char* name) {
  return WithContext("GetGPUBottleneckName", handle, [&](Context& context) {
    if (name == nullptr) return Fail(NVPM_ERROR_INVALID_PARAMETER, "GetGPUBottleneckName: pcName is NULL");
    for (const auto& [number, unit] : context.catalog.bottleneck_units) {
      if (unit.counter == value) {
        std::size_t length = std::min<std::size_t>(unit.name.size(), NVPM_BOTTLENECK_NAME_MAX - 1);
        std::memcpy(name, unit.name.c_str(), length);
        name[length] = '\0';
        return NVPM_OK;
      }
    }
    return Fail(NVPM_ERROR_INVALID_PARAMETER,
                "GetGPUBottleneckName: {} is no value \"GPU Bottleneck\" reads in this "
                "{} context",
                value, ApiName(context.backend->api));
  });
}

}  // namespace opengpa::nvpm::entry
