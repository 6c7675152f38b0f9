// Latest values as Prometheus text exposition (version 0.0.4) or OpenMetrics 1.0 text, the two formats a
// Prometheus server scrapes. One family per counter, named opengpa_<counter> (characters outside
// [a-zA-Z0-9_] become '_'), one sample per GPU labelled {gpu="0",uuid="GPU-...",name="..."} and then the view's
// labels (host, job: series_labels.h). Gauges are
// the last tick's value; deltas are counters (`_total`) summed since the monitor started.
#ifndef OPENGPA_MONITOR_METRICS_EXPOSITION_H_
#define OPENGPA_MONITOR_METRICS_EXPOSITION_H_

#include <string>
#include <string_view>

#include "monitor/latest_values.h"

namespace opengpa::monitor {

enum class ExpositionFormat { kPrometheusText, kOpenMetrics };

// OpenMetrics when the Accept header lists application/openmetrics-text, else Prometheus text.
ExpositionFormat NegotiateFormat(std::string_view accept_header);
std::string_view ContentType(ExpositionFormat format);

// "opengpa_" + the counter name with every character outside [a-zA-Z0-9_] replaced by '_'.
std::string MetricFamilyName(std::string_view counter_name);

std::string FormatMetrics(const MetricsView& view, ExpositionFormat format);

}  // namespace opengpa::monitor

#endif  // OPENGPA_MONITOR_METRICS_EXPOSITION_H_
