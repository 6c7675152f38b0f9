// Compiled instead of pm_sampling_source.cc when the build has no CUDA toolkit with CUPTI headers: PM
// sampling is then reported as unavailable, and NVML monitoring works as usual.
#include "monitor/pm_sampling_source.h"

#include "platform/logging.h"

namespace opengpa::monitor {

namespace {
GpaStatus NotCompiledIn() {
  return LogError(kGpaStatusErrorApiNotSupported,
                  "CUPTI PM sampling: this build of OpenGPA was made without the CUDA toolkit's CUPTI headers");
}
}  // namespace

bool PmSamplingCompiledIn() { return false; }

GpaStatus CreatePmSamplingSource(const PmSamplingOptions&, std::unique_ptr<CounterSource>* source) {
  if (source != nullptr) source->reset();
  return NotCompiledIn();
}

GpaStatus ListPmBaseMetrics(const std::string&, const std::vector<std::string>&, std::string*,
                            std::vector<std::string>*) {
  return NotCompiledIn();
}

GpaStatus DescribePmMetrics(const std::string&, const std::vector<std::string>&, const std::vector<std::string>&,
                            std::vector<CounterDescriptor>*) {
  return NotCompiledIn();
}

}  // namespace opengpa::monitor
