// `opengpa monitor`: samples device counters at a fixed interval while other programs run, without
// replay (NVML, and CUPTI PM sampling on GPUs that have it), and shows them as a live table, a CSV file
// and/or a Prometheus/OpenMetrics endpoint, and as a Chrome trace of counter tracks (--trace, monitor_trace.h).
// Everything it does goes through src/monitor (static library opengpa_monitor); see docs/realtime.md.
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "api_name.h"
#include "command_registry.h"
#include "monitor/gpm_counter_source.h"
#include "monitor/metrics_http_server.h"
#include "monitor/monitor.h"
#include "monitor/nvml_counter_source.h"
#include "monitor/pm_sampling_source.h"
#include "monitor/series_labels.h"
#include "monitor_trace.h"
#include "number_option.h"
#include "output_file.h"
#include "platform/logging.h"

namespace opengpa::cli {
namespace {

using monitor::CounterKind;
using monitor::MetricsView;
using monitor::Monitor;
using monitor::MonitorRecord;

struct MonitorCommandOptions {
  int interval_ms = 1000;
  std::vector<std::string> counters;
  double duration_s = 0.0;  // 0: until SIGINT/SIGTERM
  std::string prometheus;   // [HOST:]PORT
  std::string csv;
  std::string trace;   // Chrome trace of the records
  bool force = false;  // replace an existing --csv or --trace file
  std::vector<unsigned> devices;
  unsigned pm_interval_us = 1000;
  unsigned pm_buffer_mib = 0;  // 0: the library's default
  bool table = false;          // forced on; otherwise shown only when no --csv/--prometheus
  bool list_counters = false;
  bool list_pm_metrics = false;
  std::string chip;
  std::vector<std::string> labels;  // --label name=value, on every series of the endpoint
};

std::atomic<bool> g_stop_requested{false};

void RequestStop(int) { g_stop_requested = true; }

void PrintLog(GpaLoggingType type, const char* message) {
  std::fprintf(stderr, "opengpa monitor: %s%s\n", type == kGpaLoggingError ? "error: " : "", message);
}

// Restores the previous SIGINT/SIGTERM handlers when the command ends.
class StopSignals {
 public:
  StopSignals() {
    g_stop_requested = false;
    previous_int_ = std::signal(SIGINT, RequestStop);
    previous_term_ = std::signal(SIGTERM, RequestStop);
  }
  ~StopSignals() {
    std::signal(SIGINT, previous_int_);
    std::signal(SIGTERM, previous_term_);
  }
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

 private:
  void (*previous_int_)(int) = SIG_DFL;
  void (*previous_term_)(int) = SIG_DFL;
};

// Whole numbers (a temperature, a clock, a count) as integers, not "45.00"; others with two decimals, very large
// or small ones in four significant digits.
std::string FormatNumber(double value) {
  const double magnitude = value < 0 ? -value : value;
  if (magnitude != 0.0 && (magnitude >= 1e7 || magnitude < 1e-2)) return fmt::format("{:.4g}", value);
  if (value == static_cast<double>(static_cast<long long>(value))) return fmt::format("{:.0f}", value);
  return fmt::format("{:.2f}", value);
}

// One row per counter, one column per GPU: gauges show the last tick's value, deltas the last tick's sum.
void PrintTable(const MetricsView& view, std::FILE* out) {
  size_t name_width = 7;
  for (const auto& counter : view.counters) name_width = std::max(name_width, counter.name.size());
  std::string text = fmt::format("{:<{}}", "counter", name_width);
  for (const auto& device : view.devices) text += fmt::format(" {:>14}", fmt::format("gpu{}", device.index));
  text += "  unit\n";
  for (size_t c = 0; c < view.counters.size(); ++c) {
    const auto& counter = view.counters[c];
    text += fmt::format("{:<{}}", counter.name, name_width);
    for (size_t d = 0; d < view.devices.size(); ++d) {
      const auto& value = view.At(d, c);
      text += fmt::format(" {:>14}", value.present ? FormatNumber(value.last) : "-");
    }
    text += fmt::format("  {}{}\n", counter.unit, counter.kind == CounterKind::kDelta ? " per tick" : "");
  }
  std::fputs(text.c_str(), out);
  std::fputc('\n', out);
  std::fflush(out);
}

int ListCounters(const MonitorCommandOptions& options) {
  std::printf("NVML counters (default set; need libnvidia-ml.so.1):\n");
  for (const auto& counter : monitor::NvmlCounterCatalog()) {
    std::printf("  %-30s %-8s %s%s\n", counter.name.c_str(), counter.unit.c_str(), counter.description.c_str(),
                counter.kind == CounterKind::kDelta ? " (delta)" : "");
  }
  std::printf(
      "\nNVML GPM counters (default set where every GPU has GPM: Hopper and newer; they run beside profilers):\n");
  for (const auto& counter : monitor::GpmCounterCatalog()) {
    std::printf("  %-30s %-8s %s\n", counter.name.c_str(), counter.unit.c_str(), counter.description.c_str());
  }
  const std::string chip = options.chip.empty() ? "GH100" : options.chip;
  std::printf(
      "\nCUPTI PM sampling: `--counters pm` is this set (shown for %s; any CUPTI metric name that fits one pass "
      "works, see --list-pm-metrics):\n",
      chip.c_str());
  std::vector<monitor::CounterDescriptor> pm;
  if (monitor::DescribePmMetrics(chip, monitor::DefaultPmMetrics(), {}, &pm) == kGpaStatusOk) {
    for (const auto& counter : pm) {
      std::printf("  %-52s %-10s %s%s\n", counter.name.c_str(), counter.unit.c_str(), counter.description.c_str(),
                  counter.kind == CounterKind::kDelta ? " (delta)" : "");
    }
  } else {
    for (const auto& name : monitor::DefaultPmMetrics()) std::printf("  %s\n", name.c_str());
  }
  return 0;
}

int ListPmMetrics(const MonitorCommandOptions& options) {
  std::vector<std::string> names;
  std::string chip;
  if (monitor::ListPmBaseMetrics(options.chip, {}, &chip, &names) != kGpaStatusOk) return 1;
  std::printf(
      "CUPTI PM sampling base metrics of %s (%zu); add a rollup such as .sum, .avg, .max, "
      ".avg.pct_of_peak_sustained_elapsed:\n",
      chip.c_str(), names.size());
  for (const auto& name : names) std::printf("  %s\n", name.c_str());
  return 0;
}

class CsvWriter {
 public:
  bool Open(const std::string& path) {
    file_.open(path, std::ios::out | std::ios::trunc);
    if (!file_) return false;
    file_ << "timestamp_ns,duration_ns,gpu,uuid,counter,unit,value\n";
    return true;
  }
  bool IsOpen() const { return file_.is_open(); }
  void Write(const Monitor& monitor, const MonitorRecord& r) {
    std::string uuid;
    for (const auto& device : monitor.Devices()) {
      if (device.index == r.device_index) uuid = device.uuid;
    }
    const auto& counter = monitor.Counters()[r.counter_index];
    file_ << fmt::format("{},{},{},{},{},{},{}\n", r.timestamp_ns, r.duration_ns, r.device_index, uuid, counter.name,
                         counter.unit, r.value);
  }
  void Flush() { file_.flush(); }

 private:
  std::ofstream file_;
};

// Drains the monitor's records into the CSV file and the trace, whichever are open.
void Drain(Monitor& monitor, CsvWriter* csv, MonitorTraceWriter* trace) {
  MonitorRecord records[1024];
  for (size_t count; (count = monitor.Read(records, 1024)) > 0;) {
    for (size_t i = 0; i < count; ++i) {
      if (csv->IsOpen()) csv->Write(monitor, records[i]);
      if (trace != nullptr) trace->Add(records[i]);
    }
  }
  if (csv->IsOpen()) csv->Flush();
}

int RunMonitor(const MonitorCommandOptions& options) {
  SetLoggingCallback(kGpaLoggingErrorAndMessage, PrintLog);
  if (options.list_counters) return ListCounters(options);
  if (options.list_pm_metrics) return ListPmMetrics(options);

  monitor::MonitorOptions monitor_options;
  monitor_options.interval = std::chrono::milliseconds(options.interval_ms);
  monitor_options.counters = options.counters;
  monitor_options.pm_interval_ns = uint64_t{options.pm_interval_us} * 1000;
  monitor_options.pm_hardware_buffer_bytes = size_t{options.pm_buffer_mib} << 20;
  for (unsigned device : options.devices) monitor_options.device_indices.push_back(device);
  // The discovered labels (host, job) with --label's added or replacing them.
  std::string label_warning;
  monitor_options.labels = monitor::DiscoverSeriesLabels({}, &label_warning);
  if (!label_warning.empty()) {
    std::fprintf(stderr, "opengpa monitor: OPENGPA_MONITOR_LABELS: %s (left out)\n", label_warning.c_str());
  }
  for (const std::string& label : options.labels) {
    std::string label_error;
    if (!monitor::AddSeriesLabel(label, &*monitor_options.labels, &label_error)) {
      std::fprintf(stderr, "opengpa monitor: --label: %s\n", label_error.c_str());
      return 2;
    }
  }
  const bool to_csv = !options.csv.empty();
  const bool to_trace = !options.trace.empty();
  std::string path_error;
  if (!CheckOutputPath("--csv", options.csv, options.force, &path_error) ||
      !CheckOutputPath("--trace", options.trace, options.force, &path_error)) {
    std::fprintf(stderr, "opengpa monitor: error: %s\n", path_error.c_str());
    return 1;
  }
  if (!to_csv && !to_trace) monitor_options.record_capacity = 1024;  // nobody reads the records: keep little

  std::unique_ptr<Monitor> monitor;
  if (Monitor::Create(monitor_options, &monitor) != kGpaStatusOk) return 1;

  CsvWriter csv;
  if (to_csv && !csv.Open(options.csv)) {
    std::fprintf(stderr, "opengpa monitor: error: cannot write --csv %s\n", options.csv.c_str());
    return 1;
  }
  // The trace is written beside its name as records come and renamed into place at the end (output_file.h).
  std::unique_ptr<OutputFile> trace_file;
  std::unique_ptr<MonitorTraceWriter> trace;
  if (to_trace) {
    trace_file = std::make_unique<OutputFile>("--trace", options.trace, options.force, &path_error);
    if (trace_file->Stream() == nullptr) {
      std::fprintf(stderr, "opengpa monitor: error: %s\n", path_error.c_str());
      return 1;
    }
    const auto origin =
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch());
    trace = std::make_unique<MonitorTraceWriter>(*trace_file->Stream(), monitor->Devices(), monitor->Counters(),
                                                 static_cast<uint64_t>(origin.count()));
  }
  std::unique_ptr<monitor::MetricsHttpServer> server;
  if (!options.prometheus.empty()) {
    monitor::ListenAddress address;
    if (monitor::ParseListenAddress(options.prometheus, &address) != kGpaStatusOk) return 2;
    Monitor* raw = monitor.get();  // outlives the server: the server is reset first below
    if (monitor::MetricsHttpServer::Start(
            address, [raw](monitor::ExpositionFormat format) { return FormatMetrics(raw->Metrics(), format); },
            &server) != kGpaStatusOk) {
      return 1;
    }
    std::fprintf(stderr, "opengpa monitor: serving http://%s:%u/metrics\n", server->Address().host.c_str(),
                 static_cast<unsigned>(server->Port()));
  }
  const bool table = options.table || (!to_csv && !to_trace && server == nullptr);

  StopSignals signals;
  if (monitor->Start() != kGpaStatusOk) return 1;
  const auto start = std::chrono::steady_clock::now();
  const auto deadline = options.duration_s > 0
                            ? start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                          std::chrono::duration<double>(options.duration_s))
                            : std::chrono::steady_clock::time_point::max();
  const auto interval = std::chrono::milliseconds(options.interval_ms);
  auto next_table = start + interval;
  while (!g_stop_requested) {
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline) break;
    std::this_thread::sleep_for(
        std::min<std::chrono::steady_clock::duration>(std::chrono::milliseconds(100), deadline - now));
    if (to_csv || to_trace) Drain(*monitor, &csv, trace.get());
    if (table && std::chrono::steady_clock::now() >= next_table) {
      PrintTable(monitor->Metrics(), stdout);
      next_table += interval;
    }
  }
  server.reset();
  const GpaStatus stopped = monitor->Stop();
  if (to_csv || to_trace) Drain(*monitor, &csv, trace.get());
  if (table) PrintTable(monitor->Metrics(), stdout);
  if (monitor->DroppedRecords() > 0 && (to_csv || to_trace)) {
    std::fprintf(stderr, "opengpa monitor: %llu records were dropped before they reached the CSV file or trace\n",
                 static_cast<unsigned long long>(monitor->DroppedRecords()));
  }
  if (trace) {
    trace->Close();
    if (!trace_file->Finish(&path_error)) {
      std::fprintf(stderr, "opengpa monitor: error: %s\n", path_error.c_str());
      return 1;
    }
  }
  return stopped == kGpaStatusOk ? 0 : 1;
}

void SetUpMonitor(CLI::App& command, RunFunction* run) {
  auto options = std::make_shared<MonitorCommandOptions>();
  command.add_option("--interval-ms", options->interval_ms, "Sampling interval in milliseconds (10..3600000)")
      ->check(CLI::Range(10, 3600 * 1000))
      ->capture_default_str();
  command
      .add_option("--counters", options->counters,
                  "Comma-separated counters: NVML and GPM names, CUPTI metric names (sm__cycles_active.avg), 'nvml' "
                  "(every NVML counter), 'gpm' (every GPM counter) or 'pm' (the default PM sampling set, which "
                  "excludes profilers: handed over while one runs). Default: nvml, and gpm where the GPUs have it")
      ->delimiter(',');
  command.add_option("--duration-s", options->duration_s, "Stop after this many seconds (default: until Ctrl-C)")
      ->check(NumberOf("seconds", /*zero_allowed=*/true));
  command.add_option("--prometheus", options->prometheus,
                     "Serve GET /metrics (Prometheus text / OpenMetrics) on [HOST:]PORT; a bare PORT binds 127.0.0.1, "
                     "port 0 picks a free one");
  command.add_option("--csv", options->csv,
                     "Write every record to FILE (timestamp_ns,duration_ns,gpu,uuid,counter,unit,value)");
  command
      .add_option("--device", options->devices, "GPU index (nvidia-smi order); repeat or comma-separate; default all")
      ->delimiter(',');
  command.add_option("--pm-interval-us", options->pm_interval_us, "Hardware interval of PM sampling, microseconds")
      ->check(CLI::Range(1u, 1000000u))
      ->capture_default_str();
  command
      .add_option("--pm-buffer-mib", options->pm_buffer_mib,
                  "GPU buffer for PM records between decodes, MiB (default: see docs/realtime.md)")
      ->check(CLI::Range(4u, 4096u));
  command.add_option("--label", options->labels,
                     "name=value on every series of --prometheus besides host and job (discovered: host, "
                     "slurm_job_id, k8s_namespace, k8s_pod); replaces a discovered one; repeat for more");
  command.add_option("--trace", options->trace,
                     "Write every record to FILE as a Chrome trace of counter tracks (ui.perfetto.dev)");
  command.add_flag("-f,--force", options->force, "Overwrite an existing --csv or --trace file");
  command.add_flag("--table", options->table, "Print the live table even with --csv or --prometheus");
  command.add_flag("--list-counters", options->list_counters,
                   "List the NVML counters and the default PM set, then exit");
  command.add_flag("--list-pm-metrics", options->list_pm_metrics,
                   "List the CUPTI PM sampling base metrics of --chip (or of GPU 0), then exit");
  command.add_option("--chip", options->chip, "Chip for --list-pm-metrics / --list-counters without a GPU, e.g. GH100")
      ->transform(CLI::Validator(ChipNameTransform(), "CHIP"));
  *run = [options] { return RunMonitor(*options); };
}

const bool registered = RegisterCommand(
    {"monitor", "Sample device counters in real time (NVML, CUPTI PM sampling): table, CSV, Prometheus endpoint",
     &SetUpMonitor});

}  // namespace
}  // namespace opengpa::cli
