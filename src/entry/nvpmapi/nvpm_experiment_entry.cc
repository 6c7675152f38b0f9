// Experiment mode: objects reserved, then BeginExperiment / (BeginPass / (BeginObject / EndObject)* /
// EndPass)* / EndExperiment. The experiment is one GPA session: its passes are GPA's passes (one command list
// each), its objects GPA samples with the object's id; EndExperiment ends the session and reads every object.
#include <string>

#include "entry/nvpmapi/gpa_session.h"
#include "entry/nvpmapi/nvpm_entry.h"
#include "entry/nvpmapi/nvpm_state.h"

namespace opengpa::nvpm::entry {
namespace {

// Reads every object pass 0 measured into context.readings (replacing the previous experiment's).
NVPMRESULT ReadObjects(Context& context, Experiment& experiment) {
  const GpaBackend& backend = *context.backend;
  std::string why;
  if (!WaitForResults(backend, context.gpa, experiment.session, kResultTimeoutMs, &why)) {
    return Fail(NVPM_ERROR_TIME_OUT, "EndExperiment: {}", why);
  }
  context.readings.clear();
  for (NVPMUINT object : experiment.pass0_objects) {
    std::map<GpaUInt32, double> values;
    if (!ReadSample(backend, context.gpa, experiment.session, object, &values, &why)) {
      return Fail(NVPM_ERROR_INTERNAL, "EndExperiment: object {}: {}", object, why);
    }
    std::map<NVPMCounterID, Reading>& readings = context.readings[object];
    for (NVPMCounterID id : experiment.counters) {
      readings[id] = context.catalog.Read(*context.catalog.Find(id), values);
    }
  }
  return NVPM_OK;
}

}  // namespace

NVPMRESULT ReserveObjects(NVPMContext handle, NVPMUINT count) {
  return WithContext("ReserveObjects", handle, [&](Context& context) {
    if (context.experiment) {
      return Fail(NVPM_ERROR_EXPERIMENT_RUNNING, "ReserveObjects: an experiment is running: call EndExperiment first");
    }
    if (count > context.MaxObjects()) {
      return Fail(NVPM_ERROR_OUT_OF_MEMORY, "ReserveObjects: {} objects asked, a {} pass holds at most {}", count,
                  ApiName(context.backend->api), context.MaxObjects());
    }
    context.reserved_objects = count;
    return NVPM_OK;
  });
}

NVPMRESULT DeleteObjects(NVPMContext handle) {
  return WithContext("DeleteObjects", handle, [&](Context& context) {
    if (context.experiment) {
      return Fail(NVPM_ERROR_EXPERIMENT_RUNNING, "DeleteObjects: an experiment is running: call EndExperiment first");
    }
    context.reserved_objects = 0;
    context.readings.clear();
    return NVPM_OK;
  });
}

// On a context with no GPU (OpenGpaNvPmCreateContextFromChipName) *passes is set and the experiment is refused
// with NVPM_ERROR_CONTEXT_NOT_SUPPORTED: NvPmApiQuery's --counter-list counts passes that way.
NVPMRESULT BeginExperiment(NVPMContext handle, NVPMUINT* passes) {
  return WithContext("BeginExperiment", handle, [&](Context& context) {
    if (passes == nullptr) return Fail(NVPM_ERROR_INVALID_PARAMETER, "BeginExperiment: pnNumPasses is NULL");
    if (context.experiment) {
      return Fail(NVPM_ERROR_EXPERIMENT_RUNNING, "BeginExperiment: an experiment is already running");
    }
    if (context.added.empty()) return Fail(NVPM_ERROR_NO_COUNTERS, "BeginExperiment: no counter is added");
    AbandonInterval(context);
    std::vector<GpaUInt32> inputs;
    for (NVPMCounterID id : context.added) {
      for (GpaUInt32 index : context.catalog.GpaInputs(*context.catalog.Find(id))) inputs.push_back(index);
    }
    const GpaBackend& backend = *context.backend;
    std::string why;
    GpaUInt32 pass_count = 0;
    GpaSessionId session = CreateSession(backend, context.gpa, inputs, &pass_count, &why);
    if (session == nullptr) return Fail(NVPM_ERROR_INTERNAL, "BeginExperiment: {}", why);
    *passes = pass_count;
    GpaStatus status = backend.gpa.GpaBeginSession(session);
    if (status != kGpaStatusOk) {
      backend.gpa.GpaDeleteSession(session);
      return Fail(NVPM_ERROR_CONTEXT_NOT_SUPPORTED, "BeginExperiment: GpaBeginSession: {} ({})",
                  GpaStatusText(backend, status), LastMessage());
    }
    Experiment experiment;
    experiment.session = session;
    experiment.passes = pass_count;
    experiment.counters = context.added;
    context.experiment = std::move(experiment);
    return NVPM_OK;
  });
}

NVPMRESULT EndExperiment(NVPMContext handle) {
  return WithContext("EndExperiment", handle, [&](Context& context) {
    if (!context.experiment) return Fail(NVPM_ERROR_NOT_IN_EXPERIMENT, "EndExperiment: BeginExperiment not called");
    Experiment& experiment = *context.experiment;
    if (experiment.open_pass || experiment.passes_ended < experiment.passes) {
      NVPMUINT ended = experiment.passes_ended;
      NVPMUINT needed = experiment.passes;
      AbandonExperiment(context);
      return Fail(NVPM_ERROR_EXPERIMENT_INCOMPLETE, "EndExperiment: {} of {} passes ended; the experiment is discarded",
                  ended, needed);
    }
    if (experiment.pass_missing_objects) {
      // GPA keeps no sample some pass skipped, and refuses the whole session then.
      NVPMUINT pass = *experiment.pass_missing_objects;
      AbandonExperiment(context);
      return Fail(NVPM_ERROR_EXPERIMENT_INCOMPLETE,
                  "EndExperiment: pass {} skipped objects pass 0 measured; every pass must measure them; the "
                  "experiment is discarded",
                  pass);
    }
    const GpaBackend& backend = *context.backend;
    GpaStatus status = backend.gpa.GpaEndSession(experiment.session);
    NVPMRESULT result = status == kGpaStatusOk ? ReadObjects(context, experiment)
                                               : Fail(NVPM_ERROR_INTERNAL, "EndExperiment: GpaEndSession: {} ({})",
                                                      GpaStatusText(backend, status), LastMessage());
    backend.gpa.GpaDeleteSession(experiment.session);
    context.experiment.reset();
    return result;
  });
}

NVPMRESULT BeginPass(NVPMContext handle, NVPMUINT pass) {
  return WithContext("BeginPass", handle, [&](Context& context) {
    if (!context.experiment) return Fail(NVPM_ERROR_NOT_IN_EXPERIMENT, "BeginPass: BeginExperiment not called");
    Experiment& experiment = *context.experiment;
    if (pass >= experiment.passes) {
      return Fail(NVPM_ERROR_INVALID_PASS, "BeginPass: pass {} of an experiment of {} passes", pass, experiment.passes);
    }
    if (experiment.open_pass) {
      return Fail(NVPM_WARNING_PASS_NOT_ENDED, "BeginPass: pass {} is not ended", *experiment.open_pass);
    }
    if (pass != experiment.passes_ended) {
      return Fail(NVPM_ERROR_PASS_SKIPPED, "BeginPass: pass {} given, pass {} is next", pass, experiment.passes_ended);
    }
    const GpaBackend& backend = *context.backend;
    GpaStatus status = backend.gpa.GpaBeginCommandList(experiment.session, pass, GPA_NULL_COMMAND_LIST,
                                                       kGpaCommandListNone, &experiment.list);
    if (status == kGpaStatusErrorInvalidParameter) {
      return Fail(NVPM_ERROR_CONTEXT_NOT_SUPPORTED, "BeginPass: {} ({})", kNeedsCommandBuffers, LastMessage());
    }
    if (status != kGpaStatusOk) {
      return Fail(NVPM_ERROR_INTERNAL, "BeginPass: GpaBeginCommandList: {} ({})", GpaStatusText(backend, status),
                  LastMessage());
    }
    experiment.open_pass = pass;
    experiment.objects_in_pass.clear();
    return NVPM_OK;
  });
}

NVPMRESULT EndPass(NVPMContext handle, NVPMUINT pass) {
  return WithContext("EndPass", handle, [&](Context& context) {
    if (!context.experiment) return Fail(NVPM_ERROR_NOT_IN_EXPERIMENT, "EndPass: BeginExperiment not called");
    Experiment& experiment = *context.experiment;
    if (!experiment.open_pass || *experiment.open_pass != pass) {
      return Fail(NVPM_ERROR_NOT_IN_PASS, "EndPass: pass {} is not the open pass", pass);
    }
    if (experiment.open_object) {
      return Fail(NVPM_WARNING_OBJECT_NOT_ENDED, "EndPass: object {} is not ended", *experiment.open_object);
    }
    const GpaBackend& backend = *context.backend;
    GpaStatus status = backend.gpa.GpaEndCommandList(experiment.list);
    if (status != kGpaStatusOk) {
      return Fail(NVPM_ERROR_INTERNAL, "EndPass: GpaEndCommandList: {} ({})", GpaStatusText(backend, status),
                  LastMessage());
    }
    experiment.open_pass.reset();
    experiment.list = nullptr;
    ++experiment.passes_ended;
    if (pass == 0) experiment.pass0_objects = experiment.objects_in_pass;
    for (NVPMUINT object : experiment.pass0_objects) {
      if (experiment.objects_in_pass.count(object) == 0 && !experiment.pass_missing_objects) {
        experiment.pass_missing_objects = pass;
      }
    }
    if (experiment.objects_in_pass.size() < context.reserved_objects) {
      return Fail(NVPM_WARNING_PASS_INCOMPLETE, "EndPass: pass {} measured {} of the {} objects reserved", pass,
                  experiment.objects_in_pass.size(), context.reserved_objects);
    }
    return NVPM_OK;
  });
}

NVPMRESULT BeginObject(NVPMContext handle, NVPMUINT object) {
  return WithContext("BeginObject", handle, [&](Context& context) {
    if (!context.experiment) return Fail(NVPM_ERROR_NOT_IN_EXPERIMENT, "BeginObject: BeginExperiment not called");
    Experiment& experiment = *context.experiment;
    if (!experiment.open_pass) return Fail(NVPM_ERROR_NOT_IN_PASS, "BeginObject: BeginPass not called");
    if (object >= context.reserved_objects) {
      return Fail(NVPM_ERROR_UNKNOWN_OBJECT, "BeginObject: object {} is not reserved (ReserveObjects: {})", object,
                  context.reserved_objects);
    }
    if (experiment.open_object) {
      return Fail(NVPM_WARNING_OBJECT_NOT_ENDED, "BeginObject: object {} is not ended", *experiment.open_object);
    }
    if (experiment.objects_in_pass.count(object) != 0) {
      return Fail(NVPM_ERROR_INVALID_OBJECT, "BeginObject: object {} was already measured in this pass", object);
    }
    // Pass 0 decides which objects the experiment measures: GPA needs every sample in every pass.
    const bool measured = *experiment.open_pass == 0 || experiment.pass0_objects.count(object) != 0;
    if (measured) {
      const GpaBackend& backend = *context.backend;
      GpaStatus status = backend.gpa.GpaBeginSample(object, experiment.list);
      if (status != kGpaStatusOk) {
        return Fail(NVPM_ERROR_INTERNAL, "BeginObject: GpaBeginSample: {} ({})", GpaStatusText(backend, status),
                    LastMessage());
      }
    }
    experiment.open_object = object;
    experiment.open_object_measured = measured;
    return NVPM_OK;
  });
}

NVPMRESULT EndObject(NVPMContext handle, NVPMUINT object) {
  return WithContext("EndObject", handle, [&](Context& context) {
    if (!context.experiment) return Fail(NVPM_ERROR_NOT_IN_EXPERIMENT, "EndObject: BeginExperiment not called");
    Experiment& experiment = *context.experiment;
    if (!experiment.open_pass) return Fail(NVPM_ERROR_NOT_IN_PASS, "EndObject: BeginPass not called");
    if (!experiment.open_object || *experiment.open_object != object) {
      return Fail(NVPM_ERROR_UNKNOWN_OBJECT, "EndObject: object {} is not the open object", object);
    }
    if (experiment.open_object_measured) {
      const GpaBackend& backend = *context.backend;
      GpaStatus status = backend.gpa.GpaEndSample(experiment.list);
      if (status != kGpaStatusOk) {
        return Fail(NVPM_ERROR_INTERNAL, "EndObject: GpaEndSample: {} ({})", GpaStatusText(backend, status),
                    LastMessage());
      }
    }
    experiment.open_object.reset();
    experiment.objects_in_pass.insert(object);
    if (!experiment.open_object_measured) {
      return Fail(NVPM_WARNING_DRAW_COUNT_CHANGED,
                  "EndObject: object {} was not in pass 0, so the experiment cannot measure it in every pass", object);
    }
    return NVPM_OK;
  });
}

}  // namespace opengpa::nvpm::entry
