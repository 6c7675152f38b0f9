#include "monitor/series_labels.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "platform/this_process.h"

namespace opengpa::monitor {
namespace {

bool IsLabelName(const std::string& name) {
  if (name.empty() || !(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_')) return false;
  return std::all_of(name.begin(), name.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; });
}

void Set(SeriesLabels* labels, const std::string& name, const std::string& value) {
  const auto found =
      std::find_if(labels->begin(), labels->end(), [&](const auto& label) { return label.first == name; });
  if (found != labels->end()) {
    found->second = value;
  } else {
    labels->emplace_back(name, value);
  }
}

}  // namespace

bool AddSeriesLabel(const std::string& assignment, SeriesLabels* labels, std::string* error) {
  const std::size_t equals = assignment.find('=');
  if (equals == std::string::npos) {
    *error = "a label is name=value: '" + assignment.substr(0, 64) + "' has no '='";
    return false;
  }
  const std::string name = assignment.substr(0, equals);
  const std::string value = assignment.substr(equals + 1);
  if (!IsLabelName(name) || name.rfind("__", 0) == 0) {
    *error = "'" + name.substr(0, 64) + "' is not a label name ([a-zA-Z_][a-zA-Z0-9_]*, not starting with __)";
    return false;
  }
  if (name == "gpu" || name == "uuid" || name == "name") {
    *error = "'" + name + "' is a label of every GPU's series already";
    return false;
  }
  if (value.empty()) {
    *error = "label '" + name + "' has an empty value";
    return false;
  }
  Set(labels, name, value);
  return true;
}

SeriesLabels DiscoverSeriesLabels(const LabelSources& sources, std::string* warning) {
  auto env = [&](const char* name) -> std::string {
    const char* value = sources.getenv ? sources.getenv(name) : std::getenv(name);
    return value != nullptr ? value : "";
  };
  SeriesLabels labels;
  const std::string host = sources.hostname ? sources.hostname() : HostName();
  if (!host.empty()) labels.emplace_back("host", host);
  if (const std::string job = env("SLURM_JOB_ID"); !job.empty()) labels.emplace_back("slurm_job_id", job);
  const bool in_pod = !env("KUBERNETES_SERVICE_HOST").empty();
  std::string kubernetes_namespace = env("POD_NAMESPACE");
  if (kubernetes_namespace.empty() && in_pod) std::getline(std::ifstream(sources.namespace_file), kubernetes_namespace);
  if (!kubernetes_namespace.empty()) labels.emplace_back("k8s_namespace", kubernetes_namespace);
  std::string pod = env("POD_NAME");
  if (pod.empty() && in_pod) pod = env("HOSTNAME");
  if (!pod.empty()) labels.emplace_back("k8s_pod", pod);
  warning->clear();
  std::istringstream extra(env("OPENGPA_MONITOR_LABELS"));
  for (std::string assignment; std::getline(extra, assignment, ',');) {
    if (assignment.empty()) continue;
    std::string error;
    if (!AddSeriesLabel(assignment, &labels, &error)) warning->append(warning->empty() ? "" : "; ").append(error);
  }
  return labels;
}

}  // namespace opengpa::monitor
