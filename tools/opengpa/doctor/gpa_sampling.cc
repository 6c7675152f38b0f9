#include "gpa_sampling.h"

namespace opengpa::doctor {

std::vector<std::string> MissingCounters(const opengpa::Context& context, const std::vector<std::string>& counters) {
  std::vector<std::string> missing;
  for (const std::string& counter : counters) {
    if (!context.FindCounter(counter)) missing.push_back(counter);
  }
  return missing;
}

std::vector<SampleValues> CollectSamples(opengpa::Context& context, const std::vector<std::string>& counters,
                                         GpaUInt32 sample_count, const PassRecorder& record_pass) {
  opengpa::Session session(context);
  for (const std::string& counter : counters) session.Enable(counter);
  const GpaUInt32 passes = session.PassCount();
  session.Begin();
  for (GpaUInt32 pass = 0; pass < passes; ++pass) record_pass(session, pass);
  session.End();
  std::vector<std::string> names;
  for (GpaUInt32 index : session.EnabledCounters()) names.push_back(context.Counter(index).name);
  std::vector<SampleValues> samples;
  for (GpaUInt32 id = 0; id < sample_count; ++id) {
    const std::vector<opengpa::CounterValue> values = session.Result(id);
    SampleValues named;
    for (std::size_t i = 0; i < values.size() && i < names.size(); ++i) named[names[i]] = opengpa::AsDouble(values[i]);
    samples.push_back(std::move(named));
  }
  return samples;
}

}  // namespace opengpa::doctor
