#include "monitor/metrics_exposition.h"

#include <cmath>

#include <fmt/format.h>

namespace opengpa::monitor {

ExpositionFormat NegotiateFormat(std::string_view accept_header) {
  return accept_header.find("application/openmetrics-text") != std::string_view::npos
             ? ExpositionFormat::kOpenMetrics
             : ExpositionFormat::kPrometheusText;
}

std::string_view ContentType(ExpositionFormat format) {
  return format == ExpositionFormat::kOpenMetrics ? "application/openmetrics-text; version=1.0.0; charset=utf-8"
                                                  : "text/plain; version=0.0.4; charset=utf-8";
}

std::string MetricFamilyName(std::string_view counter_name) {
  std::string name = "opengpa_";
  for (char c : counter_name) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    name += keep ? c : '_';
  }
  return name;
}

namespace {

// Label values escape backslash, double quote and newline in both formats.
std::string EscapeLabelValue(std::string_view text) {
  std::string escaped;
  for (char c : text) {
    if (c == '\\') {
      escaped += "\\\\";
    } else if (c == '"') {
      escaped += "\\\"";
    } else if (c == '\n') {
      escaped += "\\n";
    } else {
      escaped += c;
    }
  }
  return escaped;
}

// HELP text: Prometheus text escapes backslash and newline; OpenMetrics also the double quote.
std::string EscapeHelp(std::string_view text, ExpositionFormat format) {
  std::string escaped;
  for (char c : text) {
    if (c == '\\') {
      escaped += "\\\\";
    } else if (c == '\n') {
      escaped += "\\n";
    } else if (c == '"' && format == ExpositionFormat::kOpenMetrics) {
      escaped += "\\\"";
    } else {
      escaped += c;
    }
  }
  return escaped;
}

std::string FormatValue(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
  return fmt::format("{}", value);
}

}  // namespace

std::string FormatMetrics(const MetricsView& view, ExpositionFormat format) {
  std::string text;
  std::string extra_labels;  // ,host="...",... the same on every sample
  for (const auto& [name, value] : view.labels) {
    extra_labels += fmt::format(",{}=\"{}\"", name, EscapeLabelValue(value));
  }
  for (size_t c = 0; c < view.counters.size(); ++c) {
    const CounterDescriptor& counter = view.counters[c];
    bool any = false;
    for (size_t d = 0; d < view.devices.size() && !any; ++d) any = view.At(d, c).present;
    if (!any) continue;  // nothing measured yet: no family rather than an empty one

    const bool is_counter = counter.kind == CounterKind::kDelta;
    const std::string family = MetricFamilyName(counter.name);
    const std::string sample_name = is_counter ? family + "_total" : family;
    // Prometheus text names the sample in its metadata; OpenMetrics names the family (no _total).
    const std::string& metadata_name = format == ExpositionFormat::kOpenMetrics ? family : sample_name;
    std::string help = counter.description;
    if (!counter.unit.empty()) help += " [" + counter.unit + "]";
    if (is_counter) help += " (summed since the monitor started)";
    text += fmt::format("# HELP {} {}\n", metadata_name, EscapeHelp(help, format));
    text += fmt::format("# TYPE {} {}\n", metadata_name, is_counter ? "counter" : "gauge");
    for (size_t d = 0; d < view.devices.size(); ++d) {
      const CounterValue& value = view.At(d, c);
      if (!value.present) continue;
      const DeviceIdentity& device = view.devices[d];
      text += fmt::format("{}{{gpu=\"{}\",uuid=\"{}\",name=\"{}\"{}}} {}\n", sample_name, device.index,
                          EscapeLabelValue(device.uuid), EscapeLabelValue(device.name), extra_labels,
                          FormatValue(is_counter ? value.total : value.last));
    }
  }
  if (format == ExpositionFormat::kOpenMetrics) text += "# EOF\n";
  return text;
}

}  // namespace opengpa::monitor
