// The labels every series of the metrics endpoint carries besides its GPU's own (gpu, uuid, name): which host and
// which job the samples come from, so that one Prometheus (or a federation, or an OpenTelemetry collector) holding
// many hosts' monitors can tell them apart and add them up by job (issue 29; docs/realtime.md "Fleets").
//
//   host            the host's name (gethostname)
//   slurm_job_id    $SLURM_JOB_ID, where the monitor runs inside a Slurm job (or is told it with --label)
//   k8s_namespace   $POD_NAMESPACE, else, inside a pod ($KUBERNETES_SERVICE_HOST set), the service account's namespace
//   k8s_pod         $POD_NAME, else, inside a pod, $HOSTNAME (a pod's host name is its name)
//
// $OPENGPA_MONITOR_LABELS ("name=value,name=value") and the CLI's --label add labels or replace discovered ones
// (e.g. host=node17 where the container's host name is not the node's).
#ifndef OPENGPA_MONITOR_SERIES_LABELS_H_
#define OPENGPA_MONITOR_SERIES_LABELS_H_

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace opengpa::monitor {

using SeriesLabels = std::vector<std::pair<std::string, std::string>>;  // name, value; in output order

// Where discovery looks; tests replace them.
struct LabelSources {
  std::function<const char*(const char*)> getenv;  // nullptr: std::getenv
  std::function<std::string()> hostname;           // nullptr: gethostname
  std::string namespace_file = "/var/run/secrets/kubernetes.io/serviceaccount/namespace";
};

// The labels above that the environment gives (host always), then those of $OPENGPA_MONITOR_LABELS. A malformed
// entry of $OPENGPA_MONITOR_LABELS is skipped and named in *warning (empty when none).
SeriesLabels DiscoverSeriesLabels(const LabelSources& sources, std::string* warning);

// Adds "name=value" to `labels`, replacing a label of that name. `name` must be a Prometheus label name
// ([a-zA-Z_][a-zA-Z0-9_]*), not reserved ("__..."), and not one the GPU's series already carry (gpu, uuid, name);
// the value may be anything but empty. False and *error naming what is wrong otherwise.
bool AddSeriesLabel(const std::string& assignment, SeriesLabels* labels, std::string* error);

}  // namespace opengpa::monitor

#endif  // OPENGPA_MONITOR_SERIES_LABELS_H_
