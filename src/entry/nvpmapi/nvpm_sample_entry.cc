// Real-time mode: each Sample call ends the interval the previous one began and reads it, then begins the
// next. An interval is a one-pass GPA session with one sample around everything the application did in
// between (a frame). Counters that do not fit in one GPA pass together are split into groups measured in
// turn, one group per interval (the guide's round robin); the others keep their last values. Simplified
// experiments need several passes of the same work and are experiment mode only.
#include <algorithm>
#include <string>

#include "entry/nvpmapi/gpa_session.h"
#include "entry/nvpmapi/nvpm_entry.h"
#include "entry/nvpmapi/nvpm_state.h"

namespace opengpa::nvpm::entry {
namespace {

std::vector<GpaUInt32> InputsOf(const Context& context, const std::vector<NVPMCounterID>& counters) {
  std::vector<GpaUInt32> inputs;
  for (NVPMCounterID id : counters) {
    for (GpaUInt32 index : context.catalog.GpaInputs(*context.catalog.Find(id))) inputs.push_back(index);
  }
  return inputs;
}

// 0 when GPA refuses the set.
GpaUInt32 PassesFor(const Context& context, const std::vector<NVPMCounterID>& counters) {
  std::string why;
  GpaUInt32 passes = 0;
  GpaSessionId session = CreateSession(*context.backend, context.gpa, InputsOf(context, counters), &passes, &why);
  if (session == nullptr) return 0;
  context.backend->gpa.GpaDeleteSession(session);
  return passes;
}

// Greedy: each counter joins the current group if the group still fits in one pass.
void BuildGroups(Context& context) {
  Realtime& realtime = context.realtime;
  realtime.groups.clear();
  realtime.next_group = 0;
  realtime.groups_stale = false;
  std::vector<NVPMCounterID> group;
  for (NVPMCounterID id : context.added) {
    const ContextCounter& counter = *context.catalog.Find(id);
    if (counter.experiment_only) continue;
    std::vector<NVPMCounterID> grown = group;
    grown.push_back(id);
    if (PassesFor(context, grown) == 1) {
      group = std::move(grown);
    } else if (PassesFor(context, {id}) == 1) {
      realtime.groups.push_back(std::move(group));
      group = {id};
    } else {
      RecordMessage(NVPM_ERROR_INVALID_COUNTER,
                    "Sample: counter \"" + counter.name + "\" needs more than one pass: experiment mode only");
    }
  }
  if (!group.empty()) realtime.groups.push_back(std::move(group));
}

NVPMRESULT BeginInterval(Context& context) {
  Realtime& realtime = context.realtime;
  if (realtime.groups.empty()) return NVPM_OK;
  const std::vector<NVPMCounterID>& group = realtime.groups[realtime.next_group % realtime.groups.size()];
  ++realtime.next_group;
  const GpaFunctionTable& gpa = context.backend->gpa;
  std::string why;
  GpaUInt32 passes = 0;
  GpaSessionId session = CreateSession(*context.backend, context.gpa, InputsOf(context, group), &passes, &why);
  if (session == nullptr) return Fail(NVPM_ERROR_INTERNAL, "Sample: {}", why);
  RealtimeInterval interval{session, nullptr, group};
  GpaStatus status = gpa.GpaBeginSession(session);
  bool needs_command_buffers = false;
  if (status == kGpaStatusOk) {
    status = gpa.GpaBeginCommandList(session, 0, GPA_NULL_COMMAND_LIST, kGpaCommandListNone, &interval.list);
    needs_command_buffers = status == kGpaStatusErrorInvalidParameter;
  }
  if (status == kGpaStatusOk) status = gpa.GpaBeginSample(0, interval.list);
  if (status != kGpaStatusOk) {
    const std::string message = LastMessage();
    gpa.GpaDeleteSession(session);
    if (needs_command_buffers) {
      return Fail(NVPM_ERROR_CONTEXT_NOT_SUPPORTED, "Sample: {} ({})", kNeedsCommandBuffers, message);
    }
    return Fail(NVPM_ERROR_CONTEXT_NOT_SUPPORTED, "Sample: GPA cannot measure an interval here: {} ({})",
                GpaStatusText(*context.backend, status), message);
  }
  realtime.open = std::move(interval);
  return NVPM_OK;
}

// Ends the open interval and reads it into readings[0]; *updated = the counters read.
NVPMRESULT EndInterval(Context& context, std::vector<NVPMCounterID>* updated) {
  if (!context.realtime.open) return NVPM_OK;
  RealtimeInterval interval = std::move(*context.realtime.open);
  context.realtime.open.reset();
  const GpaBackend& backend = *context.backend;
  const GpaFunctionTable& gpa = backend.gpa;
  GpaStatus status = gpa.GpaEndSample(interval.list);
  if (status == kGpaStatusOk) status = gpa.GpaEndCommandList(interval.list);
  if (status == kGpaStatusOk) status = gpa.GpaEndSession(interval.session);
  std::string why;
  std::map<GpaUInt32, double> values;
  NVPMRESULT result = NVPM_OK;
  if (status != kGpaStatusOk) {
    result = Fail(NVPM_ERROR_INTERNAL, "Sample: ending the interval: {} ({})", GpaStatusText(backend, status),
                  LastMessage());
  } else if (!WaitForResults(backend, context.gpa, interval.session, kResultTimeoutMs, &why)) {
    result = Fail(NVPM_ERROR_TIME_OUT, "Sample: {}", why);
  } else if (!ReadSample(backend, context.gpa, interval.session, 0, &values, &why)) {
    result = Fail(NVPM_ERROR_INTERNAL, "Sample: {}", why);
  } else {
    for (NVPMCounterID id : interval.counters) {
      if (!context.IsAdded(id)) continue;
      context.readings[0][id] = context.catalog.Read(*context.catalog.Find(id), values);
      updated->push_back(id);
    }
  }
  gpa.GpaDeleteSession(interval.session);
  return result;
}

template <typename Write>
NVPMRESULT SampleWith(const char* function, NVPMContext handle, NVPMUINT* count, bool has_samples, Write&& write) {
  return WithContext(function, handle, [&](Context& context) {
    if (context.experiment) {
      return Fail(NVPM_ERROR_EXPERIMENT_RUNNING, "{}: an experiment is running: call EndExperiment first", function);
    }
    std::vector<NVPMCounterID> updated;
    NVPMRESULT ended = EndInterval(context, &updated);
    if (context.realtime.groups_stale) BuildGroups(context);
    NVPMRESULT begun = BeginInterval(context);
    if (ended != NVPM_OK) return ended;
    if (begun != NVPM_OK) return begun;
    if (count == nullptr) return NVPM_OK;
    if (!has_samples) {
      *count = 0;
      return NVPM_OK;
    }
    const auto written = static_cast<NVPMUINT>(std::min<std::size_t>(*count, updated.size()));
    for (NVPMUINT i = 0; i < written; ++i) write(i, updated[i], context.readings[0][updated[i]]);
    *count = written;
    return NVPM_OK;
  });
}

}  // namespace

NVPMRESULT Sample(NVPMContext handle, NVPMSampleValue* samples, NVPMUINT* count) {
  return SampleWith("Sample", handle, count, samples != nullptr, [&](NVPMUINT i, NVPMCounterID id, const Reading& r) {
    samples[i].unCounterID = id;
    samples[i].ulValue = r.value;
    samples[i].ulCycles = r.cycles;
  });
}

NVPMRESULT SampleEx(NVPMContext handle, NVPMSampleValueEx* samples, NVPMUINT* count) {
  if (samples != nullptr && count != nullptr) {
    for (NVPMUINT i = 0; i < *count; ++i) {
      NVPMUINT32 version = samples[i].ulVersion >> 16;
      if (version != 1 && version != 2) {
        return Guarded("SampleEx", [&] {
          return Fail(NVPM_ERROR_INVALID_PARAMETER, "SampleEx: entry {} has no NVPMSAMPLEVALUEEX_VERSION()", i);
        });
      }
    }
  }
  return SampleWith("SampleEx", handle, count, samples != nullptr, [&](NVPMUINT i, NVPMCounterID id, const Reading& r) {
    samples[i].unCounterID = id;
    if (r.float_value) {
      samples[i].dValue = r.exact;
    } else {
      samples[i].ulValue = r.value;
    }
    samples[i].ulCycles = r.cycles;
    samples[i].ulFlags = NVPMSAMPLEEX_FLAG_UPDATED |
                         (static_cast<NVPMUINT64>(r.float_value ? NVPM_VALUE_TYPE_FLOAT64 : NVPM_VALUE_TYPE_UINT64)
                          << NVPMSAMPLEEX_FLAG_VALUE_TYPE_SHIFT);
  });
}

}  // namespace opengpa::nvpm::entry
