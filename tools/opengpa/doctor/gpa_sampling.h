// One GPA session over a probe's workload, through opengpa.hpp as an application would write it: the counters
// enabled by name, every pass recorded by the caller, then each sample's values read back by counter name.
#ifndef OPENGPA_TOOLS_OPENGPA_DOCTOR_GPA_SAMPLING_H_
#define OPENGPA_TOOLS_OPENGPA_DOCTOR_GPA_SAMPLING_H_

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "opengpa/opengpa.hpp"

namespace opengpa::doctor {

using SampleValues = std::map<std::string, double>;

// Records pass `pass` of `session`: command lists, samples 0..n-1 around the work, submission.
using PassRecorder = std::function<void(opengpa::Session& session, GpaUInt32 pass)>;

// Those of `counters` the context does not offer (a driver without pipeline statistics, an older library).
std::vector<std::string> MissingCounters(const opengpa::Context& context, const std::vector<std::string>& counters);

// Enables `counters`, records every pass, ends the session and returns the values of samples 0..sample_count-1
// (blocking until they are ready). Throws opengpa::Error when a GPA call fails.
std::vector<SampleValues> CollectSamples(opengpa::Context& context, const std::vector<std::string>& counters,
                                         GpaUInt32 sample_count, const PassRecorder& record_pass);

}  // namespace opengpa::doctor

#endif  // OPENGPA_TOOLS_OPENGPA_DOCTOR_GPA_SAMPLING_H_
