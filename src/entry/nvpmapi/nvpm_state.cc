#include "entry/nvpmapi/nvpm_state.h"

#include <algorithm>
#include <new>

namespace opengpa::nvpm {

bool Context::IsAdded(NVPMCounterID id) const { return std::find(added.begin(), added.end(), id) != added.end(); }

State& Nvpm() {
  // Never destroyed (entry points may run during process exit, after static destructors), and not on the heap:
  // NvPmApiManager unloads the library and may load it again, and a heap object would leak at every unload.
  alignas(State) static unsigned char storage[sizeof(State)];
  static auto* state = new (storage) State();
  return *state;
}

void AbandonInterval(Context& context) {
  if (!context.realtime.open) return;
  const GpaFunctionTable& gpa = context.backend->gpa;
  RealtimeInterval& interval = *context.realtime.open;
  gpa.GpaEndSample(interval.list);
  gpa.GpaEndCommandList(interval.list);
  gpa.GpaEndSession(interval.session);
  gpa.GpaDeleteSession(interval.session);
  context.realtime.open.reset();
}

void AbandonExperiment(Context& context) {
  if (!context.experiment) return;
  const GpaFunctionTable& gpa = context.backend->gpa;
  Experiment& experiment = *context.experiment;
  if (experiment.open_object && experiment.open_object_measured) gpa.GpaEndSample(experiment.list);
  if (experiment.open_pass && experiment.list != nullptr) gpa.GpaEndCommandList(experiment.list);
  gpa.GpaEndSession(experiment.session);
  gpa.GpaDeleteSession(experiment.session);
  context.experiment.reset();
}

}  // namespace opengpa::nvpm
