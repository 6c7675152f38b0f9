// Counter enumeration, names, attributes, and adding and removing counters.
#include <algorithm>
#include <cstring>
#include <string>

#include "entry/nvpmapi/counter_registry.h"
#include "entry/nvpmapi/nvpm_entry.h"
#include "entry/nvpmapi/nvpm_state.h"
#include "platform/enum_argument.h"

namespace opengpa::nvpm::entry {
namespace {

const ContextCounter* FindByName(const Context& context, const char* name) {
  for (const ContextCounter& counter : context.catalog.counters) {
    if (counter.name == name) return &counter;
  }
  return nullptr;
}

// PerfKit's string protocol: *length in = the buffer's size, out = the size needed (with the NUL).
NVPMRESULT CopyString(const char* function, const std::string& text, char* buffer, NVPMUINT* length) {
  if (length == nullptr) return Fail(NVPM_ERROR_INVALID_PARAMETER, "{}: punLen is NULL", function);
  const auto needed = static_cast<NVPMUINT>(text.size() + 1);
  if (buffer == nullptr) {
    *length = needed;
    return NVPM_OK;
  }
  if (*length < needed) {
    NVPMUINT given = *length;
    *length = needed;
    return Fail(NVPM_ERROR_STRING_TOO_SMALL, "{}: the buffer holds {} bytes, {} are needed", function, given, needed);
  }
  std::memcpy(buffer, text.c_str(), needed);
  *length = needed;
  return NVPM_OK;
}

NVPMRESULT RefuseWhileRunning(const char* function, const Context& context) {
  return context.experiment ? Fail(NVPM_ERROR_EXPERIMENT_RUNNING,
                                   "{}: an experiment is running: call "
                                   "EndExperiment first",
                                   function)
                            : NVPM_OK;
}

NVPMRESULT Add(const char* function, Context& context, const ContextCounter* counter, const std::string& what) {
  if (NVPMRESULT refused = RefuseWhileRunning(function, context); refused != NVPM_OK) return refused;
  if (counter == nullptr) {
    return Fail(NVPM_ERROR_INVALID_COUNTER, "{}: this {} context has no counter {}", function,
                ApiName(context.backend->api), what);
  }
  if (context.IsAdded(counter->id)) {
    return Fail(NVPM_WARNING_DUPLICATE, "{}: counter \"{}\" is already added", function, counter->name);
  }
  context.added.push_back(counter->id);
  context.realtime.groups_stale = true;
  return NVPM_OK;
}

NVPMRESULT Remove(const char* function, Context& context, const ContextCounter* counter, const std::string& what) {
  if (NVPMRESULT refused = RefuseWhileRunning(function, context); refused != NVPM_OK) return refused;
  if (counter == nullptr) {
    return Fail(NVPM_ERROR_INVALID_COUNTER, "{}: this {} context has no counter {}", function,
                ApiName(context.backend->api), what);
  }
  auto found = std::find(context.added.begin(), context.added.end(), counter->id);
  if (found == context.added.end()) {
    return Fail(NVPM_WARNING_COUNTER_NOT_ENABLED, "{}: counter \"{}\" is not added", function, counter->name);
  }
  context.added.erase(found);
  context.realtime.groups_stale = true;
  return NVPM_OK;
}

template <typename Callback>
NVPMRESULT Enumerate(const char* function, NVPMContext handle, bool has_callback, Callback&& call) {
  return WithContext(function, handle, [&](Context& context) {
    if (!has_callback) return Fail(NVPM_ERROR_BAD_ENUMERATOR, "{}: the enumeration function is NULL", function);
    // A copy: the callback may call back into NvPmApi (it usually asks for attributes).
    const std::vector<ContextCounter> counters = context.catalog.counters;
    for (const ContextCounter& counter : counters) {
      if (call(counter.id, counter.name.c_str()) != NVPM_OK) {
        return Fail(NVPM_WARNING_ENDED_EARLY, "{}: the callback stopped the enumeration at \"{}\"", function,
                    counter.name);
      }
    }
    return NVPM_OK;
  });
}

}  // namespace

NVPMRESULT EnumCountersByContext(NVPMContext handle, NVPMEnumFunc callback) {
  return Enumerate("EnumCountersByContext", handle, callback != nullptr,
                   [&](NVPMCounterID id, const char* name) { return callback(id, name); });
}

NVPMRESULT EnumCountersByContextUserData(NVPMContext handle, NVPMEnumFuncUserData callback, void* user_data) {
  return Enumerate("EnumCountersByContextUserData", handle, callback != nullptr,
                   [&](NVPMCounterID id, const char* name) { return callback(id, name, user_data); });
}

NVPMRESULT GetCounterName(NVPMCounterID id, char* text, NVPMUINT* length) {
  return Guarded("GetCounterName", [&] {
    const CounterInfo* info = FindCounter(id);
    if (info == nullptr) return Fail(NVPM_ERROR_INVALID_COUNTER, "GetCounterName: no counter has id {}", id);
    return CopyString("GetCounterName", info->name, text, length);
  });
}

NVPMRESULT GetCounterDescription(NVPMCounterID id, char* text, NVPMUINT* length) {
  return Guarded("GetCounterDescription", [&] {
    const CounterInfo* info = FindCounter(id);
    if (info == nullptr) return Fail(NVPM_ERROR_INVALID_COUNTER, "GetCounterDescription: no counter has id {}", id);
    return CopyString("GetCounterDescription", info->description, text, length);
  });
}

NVPMRESULT GetCounterIDByContext(NVPMContext handle, const char* name, NVPMCounterID* id) {
  return WithContext("GetCounterIDByContext", handle, [&](Context& context) {
    if (name == nullptr || id == nullptr) {
      return Fail(NVPM_ERROR_INVALID_PARAMETER, "GetCounterIDByContext: pcString or punCounterID is NULL");
    }
    const ContextCounter* counter = FindByName(context, name);
    if (counter == nullptr) {
      return Fail(NVPM_ERROR_COUNTER_NOT_FOUND, "GetCounterIDByContext: no counter \"{}\" in this {} context", name,
                  ApiName(context.backend->api));
    }
    *id = counter->id;
    return NVPM_OK;
  });
}

// PerfKit reported each PM unit's clock; GPA's counters carry no clock domain, so none is offered.
NVPMRESULT GetCounterClockRateByContext(NVPMContext handle, const char*, float*) {
  return WithContext("GetCounterClockRateByContext", handle, [&](Context&) {
    return Fail(NVPM_ERROR_INVALID_PARAMETER,
                "GetCounterClockRateByContext: counter clock rates are not offered (cycles counters are)");
  });
}

NVPMRESULT GetCounterAttribute(NVPMCounterID id, NVPMATTRIBUTE attribute, NVPMUINT64* value) {
  return Guarded("GetCounterAttribute", [&] {
    const CounterInfo* info = FindCounter(id);
    if (info == nullptr) return Fail(NVPM_ERROR_INVALID_COUNTER, "GetCounterAttribute: no counter has id {}", id);
    if (value == nullptr) return Fail(NVPM_ERROR_INVALID_PARAMETER, "GetCounterAttribute: punValue is NULL");
    // Read as an int: a C caller may pass any value, and loading it as the enum would be undefined behaviour.
    const int requested = EnumArgument(attribute);
    switch (requested) {
      case NVPMA_COUNTER_TYPE: *value = info->type; return NVPM_OK;
      case NVPMA_COUNTER_DISPLAY: *value = info->display; return NVPM_OK;
      case NVPMA_COUNTER_VALUE_TYPE: *value = info->value_type; return NVPM_OK;
      default:
        return Fail(NVPM_ERROR_INVALID_PARAMETER,
                    "GetCounterAttribute: attribute {} is not offered (TYPE, DISPLAY and VALUE_TYPE are)", requested);
    }
  });
}

NVPMRESULT AddCounterByName(NVPMContext handle, const char* name) {
  return WithContext("AddCounterByName", handle, [&](Context& context) {
    if (name == nullptr) return Fail(NVPM_ERROR_INVALID_PARAMETER, "AddCounterByName: pcName is NULL");
    return Add("AddCounterByName", context, FindByName(context, name), std::string("\"") + name + "\"");
  });
}

NVPMRESULT AddCounter(NVPMContext handle, NVPMCounterID id) {
  return WithContext("AddCounter", handle, [&](Context& context) {
    return Add("AddCounter", context, context.catalog.Find(id), "with id " + std::to_string(id));
  });
}

// All or nothing: an unknown id adds none of them. Ids already added are skipped.
NVPMRESULT AddCounters(NVPMContext handle, NVPMUINT count, NVPMCounterID* ids) {
  return WithContext("AddCounters", handle, [&](Context& context) {
    if (ids == nullptr && count > 0) return Fail(NVPM_ERROR_INVALID_PARAMETER, "AddCounters: punCounterIDs is NULL");
    if (NVPMRESULT refused = RefuseWhileRunning("AddCounters", context); refused != NVPM_OK) return refused;
    for (NVPMUINT i = 0; i < count; ++i) {
      if (context.catalog.Find(ids[i]) == nullptr) {
        return Fail(NVPM_ERROR_INVALID_COUNTER, "AddCounters: id {} (entry {}) is no counter of this context", ids[i],
                    i);
      }
    }
    for (NVPMUINT i = 0; i < count; ++i) {
      if (!context.IsAdded(ids[i])) context.added.push_back(ids[i]);
    }
    context.realtime.groups_stale = true;
    return NVPM_OK;
  });
}

NVPMRESULT RemoveCounterByName(NVPMContext handle, const char* name) {
  return WithContext("RemoveCounterByName", handle, [&](Context& context) {
    if (name == nullptr) return Fail(NVPM_ERROR_INVALID_PARAMETER, "RemoveCounterByName: pcName is NULL");
    return Remove("RemoveCounterByName", context, FindByName(context, name), std::string("\"") + name + "\"");
  });
}

NVPMRESULT RemoveCounter(NVPMContext handle, NVPMCounterID id) {
  return WithContext("RemoveCounter", handle, [&](Context& context) {
    return Remove("RemoveCounter", context, context.catalog.Find(id), "with id " + std::to_string(id));
  });
}

// All or nothing for unknown ids (NVPM_ERROR_INVALID_COUNTER); ids not added are skipped, and reported
// with NVPM_WARNING_COUNTER_NOT_ENABLED after the others are removed.
NVPMRESULT RemoveCounters(NVPMContext handle, NVPMUINT count, NVPMCounterID* ids) {
  return WithContext("RemoveCounters", handle, [&](Context& context) {
    if (ids == nullptr && count > 0) {
      return Fail(NVPM_ERROR_INVALID_PARAMETER, "RemoveCounters: punCounterIDs is NULL");
    }
    if (NVPMRESULT refused = RefuseWhileRunning("RemoveCounters", context); refused != NVPM_OK) return refused;
    for (NVPMUINT i = 0; i < count; ++i) {
      if (context.catalog.Find(ids[i]) == nullptr) {
        return Fail(NVPM_ERROR_INVALID_COUNTER, "RemoveCounters: id {} (entry {}) is no counter of this context",
                    ids[i], i);
      }
    }
    NVPMRESULT result = NVPM_OK;
    for (NVPMUINT i = 0; i < count; ++i) {
      auto found = std::find(context.added.begin(), context.added.end(), ids[i]);
      if (found == context.added.end()) {
        result = Fail(NVPM_WARNING_COUNTER_NOT_ENABLED, "RemoveCounters: id {} was not added", ids[i]);
      } else {
        context.added.erase(found);
      }
    }
    context.realtime.groups_stale = true;
    return result;
  });
}

NVPMRESULT RemoveAllCounters(NVPMContext handle) {
  return WithContext("RemoveAllCounters", handle, [&](Context& context) {
    if (NVPMRESULT refused = RefuseWhileRunning("RemoveAllCounters", context); refused != NVPM_OK) return refused;
    if (context.added.empty()) return Fail(NVPM_WARNING_NO_COUNTERS, "RemoveAllCounters: no counter is added");
    context.added.clear();
    context.realtime.groups_stale = true;
    return NVPM_OK;
  });
}

}  // namespace opengpa::nvpm::entry
