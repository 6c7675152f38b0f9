// `opengpa profile --api cuda|cl [--counters ...] -- ./app args`: profiles an unmodified program, one
// sample per kernel launch, and writes <prefix>.csv, <prefix>.json and <prefix>.trace.json (Chrome trace)
// plus a per-kernel summary table on stdout. Progress goes to stderr.
//
// CUDA counters are GPA names or CUPTI metrics; the injected library measures their CUPTI metrics and the
// outputs are evaluated here with the library's counter engine (counter_outputs.h). With application
// replay (--replay-mode application, or auto on a multi-pass set) the program runs once per pass and the
// runs are joined launch by launch (replay_merge.h); when they do not match, auto falls back to kernel
// replay and an explicit application replay fails, writing nothing.
//
// Outputs are checked before the program runs and never replace existing files without -f/--force; a
// run that profiled nothing writes nothing. Ctrl-C reaches the program (program_launcher.h); what was
// collected until it ended is written, and the temporary sample stream is removed. The exit code is the
// program's own when it ran.
//
// Nothing collected is lost (issue 35): SIGINT, SIGTERM, SIGHUP and SIGQUIT are held until the outputs are
// written (signal_guard.h); each output is written to a temporary name and renamed when complete
// (output_file.h); the sample stream is kept, and its path printed, when any output fails or a signal arrives
// after the program ended; a stream the program could not write whole (a full $TMPDIR) is reported as
// "sample stream truncated: <reason>" with a non-zero exit; streams left by an opengpa that was killed are
// named at the start of the next run (sample_stream_file.h). A process of the program that outlives the one
// opengpa started (the shell of `sh -c 'app && ...'` ended by Ctrl-C while app still writes its last batch) is
// waited for, up to kWriterWait, until it writes its end record or ends, and so is one the program left running
// that has not written anything yet (opengpa adopts the program's orphans: process_tree.h).
//
// Every process of the program is profiled, whatever starts it (issue 29): the processes take turns on each GPU
// (src/profiler/gpu_turns.h, a folder of lock files made for each run), and one that still launched work it
// could not profile is named with its reason, making the exit code 3 unless --allow-unprofiled-processes. -o takes
// ncu's keys (output_name.h); %p or %r make one report per process or rank (profile_reports.h).
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <future>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "api_name.h"
#include "choice_option.h"
#include "command_registry.h"
#include "counter_selection.h"
#include "output_file.h"
#include "output_name.h"
#include "process_tree.h"
#include "profile_injection.h"
#include "profile_reports.h"
#include "profiler/collective_kernels.h"
#include "profiler/counter_outputs.h"
#include "profiler/gpu_turns.h"
#include "profiler/launch_filter.h"
#include "profiler/nvtx_filter.h"
#include "profiler/profile_environment.h"
#include "profiler/profile_writers.h"
#include "profiler/replay_merge.h"
#include "profiler/sample_stream.h"
#include "profiler/sampled_counters.h"
#include "profiler/sampled_gate.h"
#include "profiler/sampled_profile.h"
#include "profiler/stream_status.h"
#include "program_launcher.h"
#include "sample_stream_file.h"
#include "sampled_mode.h"
#include "signal_guard.h"
#include "terminal.h"
#include "while_exiting.h"

namespace opengpa::cli {
namespace {

struct ProfileOptions {
  client::ApiNumber api = kGpaApiLast;
  CounterSelection counters;
  std::string prefix = "opengpa_profile";
  bool quiet = false;
  bool keep_stream = false;
  bool force = false;
  bool allow_unprofiled = false;  // --allow-unprofiled-processes
  bool per_process = false;       // --report-per-process
  OutputNameKeys name_keys;       // of prefix (ParseOutputName)
  profiling::ReplayMode replay = profiling::ReplayMode::kAuto;
  std::string cache_control = "all";
  std::string kernel_name;
  std::uint64_t launch_skip = 0;
  std::uint64_t launch_count = 0;
  std::vector<std::string> nvtx_include;
  profiling::RangeMode range_mode = profiling::RangeMode::kKernel;
  profiling::GraphProfiling graph_profiling = profiling::GraphProfiling::kNode;
  bool csv = false;                   // ncu's --csv: the per-launch rows on stdout instead of the summary table
  std::string mode = "exact";         // exact | sampled (sampled_mode.h)
  double sampling_interval_us = 0.0;  // 0: not chosen (profiling::DefaultSampledIntervalUs decides)
  std::string collective_kernel;      // --collective-kernel (collective_kernels.h)
  double turn_timeout_s = -1;         // --turn-timeout; negative: the library's default (gpu_turns.h)
  std::vector<std::string> program;
};

// ncu spells a regular expression `regex:EXPR`; --kernel-name always takes one, so the prefix is dropped.
std::string StripRegexPrefix(std::string& value) {
  constexpr std::string_view kPrefix = "regex:";
  if (value.compare(0, kPrefix.size(), kPrefix) == 0) value.erase(0, kPrefix.size());
  return {};
}

// The lock files of one run's GPU turns (src/profiler/gpu_turns.h): a folder in $TMPDIR, removed with its files.
class TurnsFolder {
 public:
  explicit TurnsFolder(bool make) {
    if (!make) return;
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/opengpa-turns-XXXXXX";
    if (mkdtemp(pattern.data()) != nullptr) path_ = pattern;
  }
  ~TurnsFolder() {
    if (path_.empty()) return;
    // Only flat lock files live here: remove each, then the folder.
    if (DIR* folder = opendir(path_.c_str())) {
      while (dirent* entry = readdir(folder)) {
        const std::string name = entry->d_name;
        if (name != "." && name != "..") unlink((path_ + "/" + name).c_str());
      }
      closedir(folder);
    }
    rmdir(path_.c_str());
  }
  TurnsFolder(const TurnsFolder&) = delete;
  TurnsFolder& operator=(const TurnsFolder&) = delete;
  const std::string& Path() const { return path_; }  // empty when it could not be made (then no turns are taken)

 private:
  std::string path_;
};

bool WriteFile(const std::string& path, bool force, const std::function<void(std::ostream&)>& write,
               std::string* error) {
  OutputFile file("-o", path, force, error);
  std::ostream* out = file.Stream();
  if (!out) return false;
  write(*out);
  return file.Finish(error);
}

// One run of the program under the injected library: its samples (the stream read back) and how it ended.
struct ProgramRun {
  profiling::ProfileRun samples;
  ProgramResult result;
  bool ended = false;  // the library wrote its end record
  // Its stream file (and those of later application-replay passes), kept alive until the results are written.
  std::vector<std::shared_ptr<SampleStreamFile>> streams;
  std::map<std::uint32_t, profiling::StreamWriteFailure> write_failures;  // by pid: streams not written whole
  std::vector<std::uint32_t> still_writing;  // pids still writing the stream kWriterWait after the program ended
  std::vector<std::uint32_t> left_running;   // other processes of the program still running then
  std::vector<std::uint32_t> unended;        // pids that wrote to the stream and ended without their end record
  int signals_at_end = 0;                    // SignalGuard::Received() when the program ended
  double stream_read_s = 0.0;                // how long reading the stream took
  bool read_while_exiting = false;           // `samples` were read (and WhileExiting::Read ran) as it exited
};

// The stream file's size in bytes; 0 when it cannot be read.
std::uint64_t StreamSize(const std::string& path) {
  struct stat file {};
  return stat(path.c_str(), &file) == 0 ? static_cast<std::uint64_t>(file.st_size) : 0;
}

// How long, after the program ended, opengpa waits for its other processes that are still writing the stream.
constexpr std::chrono::seconds kWriterWait{10};

// What was still running when opengpa stopped waiting for the program's other processes (normally nothing).
struct LeftRunning {
  std::vector<std::uint32_t> writing;  // processes that wrote to the stream and had not written their end record
  std::vector<std::uint32_t> others;   // other processes the program left running (process_tree.h)
};

// Once the program has ended: waits, up to kWriterWait, while a process that wrote to the stream has not
// written its end record and still runs (a grandchild finishing its last batch after the shell between it and
// opengpa ended), or while a process the program left running runs, which may not have written anything yet (a
// child the program started without waiting for it, still starting when the program ended), reaping those
// opengpa adopted as they end.
LeftRunning WaitForStreamWriters(profiling::SampleStreamProgress* progress, bool quiet) {
  const auto deadline = std::chrono::steady_clock::now() + kWriterWait;
  bool said = false;
  const auto self = static_cast<std::uint32_t>(getpid());
  for (;;) {
    ReapEndedChildren();
    progress->Poll();
    LeftRunning left;
    for (std::uint32_t pid : progress->Unfinished()) {
      if (ProcessRuns(pid)) left.writing.push_back(pid);
    }
    for (std::uint32_t pid : RunningDescendants(self)) {
      if (std::find(left.writing.begin(), left.writing.end(), pid) == left.writing.end()) left.others.push_back(pid);
    }
    if (left.writing.empty() && left.others.empty()) {
      // A process may have written its end record and exited between the Poll above and ProcessRuns: read once
      // more, so that it is not taken for one that ended without its end record (seen under load in CI).
      progress->Poll();
      return left;
    }
    if (std::chrono::steady_clock::now() >= deadline) return left;
    if (!said && !quiet) {
      const bool writing = !left.writing.empty();
      std::fprintf(stderr, "opengpa profile: the program ended; waiting for process %u, %s (at most %lld s)\n",
                   writing ? left.writing.front() : left.others.front(),
                   writing ? "still writing samples" : "which it left running",
                   static_cast<long long>(kWriterWait.count()));
      said = true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

// Runs the program once with `settings`; `label` prefixes the progress line ("pass 2 of 3: "). `while_exiting`
// (optional) is called as its comment says. False and *error when the program cannot start or its stream cannot be
// read.
bool RunOnce(const ProfileOptions& options, const std::vector<std::string>& counters,
             const profiling::ProfileSettings& settings, const std::string& label, ProgramRun* run, std::string* error,
             const std::map<std::string, std::string>& extra_environment = {}, WhileExiting* while_exiting = nullptr) {
  std::shared_ptr<SampleStreamFile> stream = SampleStreamFile::Create(error);
  if (stream == nullptr) return false;
  run->streams.push_back(stream);
  profiling::StreamStatusReceiver status;
  if (!status.Open(error)) return false;
  std::map<std::string, std::string> environment;
  if (!PrepareInjection(options.api, counters, stream->Path(), &environment, error)) return false;
  for (const auto& [name, value] : profiling::SettingsEnvironment(settings)) environment[name] = value;
  environment[profiling::kStatusVariable] = status.Name();
  for (const auto& [name, value] : extra_environment) environment[name] = value;
  // OPENGPA_PROFILE_TURNS=off in opengpa's environment: no turns (to measure them, or to see a run without).
  const char* turns_setting = std::getenv(profiling::kTurnsFolderVariable);
  const bool turns_off = turns_setting != nullptr && std::string(turns_setting) == "off";
  TurnsFolder turns(!turns_off);
  environment[profiling::kTurnsFolderVariable] = turns_off ? "off" : turns.Path();
  if (options.turn_timeout_s >= 0) {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%g", options.turn_timeout_s);
    environment[profiling::kTurnWaitVariable] = seconds;
  }
  std::string variables;  // the %q{NAME} keys of -o, which each process reports for its own report's name
  for (const std::string& name : options.name_keys.variables) variables += (variables.empty() ? "" : ",") + name;
  if (!variables.empty()) environment[profiling::kNameVariablesVariable] = variables;

  const bool interactive = isatty(STDERR_FILENO) == 1;
  profiling::SampleStreamProgress progress(stream->Path());
  std::uint64_t reported = 0;
  auto last_report = std::chrono::steady_clock::now();
  auto report = [&](bool final_line) {
    const std::uint64_t samples = progress.Poll();
    const auto now = std::chrono::steady_clock::now();
    if (options.quiet || (!final_line && samples == reported) ||
        (!final_line && !interactive && now - last_report < std::chrono::seconds(2))) {
      return;
    }
    reported = samples;
    last_report = now;
    std::fprintf(stderr, "%sopengpa profile: %s%llu kernel launch(es) profiled%s", interactive ? "\r" : "",
                 label.c_str(), static_cast<unsigned long long>(samples), interactive && !final_line ? "" : "\n");
    std::fflush(stderr);
  };
  // The stream as read while the program exited (WhileExiting), and its size then.
  std::future<void> reading_early;
  profiling::ProfileRun early_run;
  bool early_ended = false;
  bool early_read = false;
  std::uint64_t early_size = 0;
  auto tick = [&] {
    report(false);  // polls the stream
    const auto pid = static_cast<std::uint32_t>(run->result.pid);
    // Nothing recorded can run later once the program's own process has written its end record, no other process
    // of it is still writing, and none that could yet begin runs (a child it has not waited for: process_tree.h).
    if (while_exiting != nullptr && !reading_early.valid() && pid != 0 && progress.HasEnded(pid) &&
        progress.Unfinished().empty() && RunningDescendants(static_cast<std::uint32_t>(getpid()), pid).empty()) {
      reading_early = std::async(std::launch::async, [&, writers = progress.Writers(), path = stream->Path()] {
        while_exiting->Ended(writers);
        early_size = StreamSize(path);
        const auto began = std::chrono::steady_clock::now();
        std::string read_error;
        early_read = profiling::ReadSampleStream(path, &early_run, &early_ended, &read_error);
        if (early_read) {
          while_exiting->Read(&early_run,
                              std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count());
        }
      });
    }
  };
  const bool started = RunProgram(options.program, environment, tick, &run->result, error);
  if (reading_early.valid()) reading_early.get();
  if (!started) return false;
  run->signals_at_end = SignalGuard::Received();
  LeftRunning left = WaitForStreamWriters(&progress, options.quiet);
  run->still_writing = std::move(left.writing);
  run->left_running = std::move(left.others);
  for (std::uint32_t pid : progress.Unfinished()) {
    if (std::find(run->still_writing.begin(), run->still_writing.end(), pid) == run->still_writing.end()) {
      run->unended.push_back(pid);
    }
  }
  status.Drain();
  run->write_failures = status.Failures();
  report(true);
  // What was read while the program exited is the stream whole unless something was written after it.
  if (early_read && StreamSize(stream->Path()) == early_size) {
    run->samples = std::move(early_run);
    run->ended = early_ended;
    run->read_while_exiting = true;
    return true;
  }
  const auto reading_began = std::chrono::steady_clock::now();
  if (!profiling::ReadSampleStream(stream->Path(), &run->samples, &run->ended, error)) {
    *error += "; the sample stream is kept at " + stream->Keep();
    return false;
  }
  run->stream_read_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - reading_began).count();
  return true;
}

std::string PassLabel(std::uint32_t pass, std::uint32_t passes) {
  return passes > 1 ? "pass " + std::to_string(pass + 1) + " of " + std::to_string(passes) + ": " : "";
}

// Application replay: the program again for every further pass, then the passes joined launch by launch.
// An interrupted pass is left out (what the earlier passes collected is kept). False and *error when the
// runs do not match.
bool RunRemainingPasses(const ProfileOptions& options, const std::vector<std::string>& counters,
                        profiling::ProfileSettings settings, ProgramRun* first, std::string* error) {
  const std::uint32_t passes = first->samples.passes;
  std::vector<profiling::ProfileRun> runs{first->samples};
  for (std::uint32_t pass = 1; pass < passes && first->result.interrupted_by == 0; ++pass) {
    if (SignalGuard::Received() != first->signals_at_end) {  // a signal between two passes: no more passes
      first->result.interrupted_by = SignalGuard::Last();
      first->samples.messages.push_back("application replay: a signal arrived before pass " + std::to_string(pass + 1) +
                                        ", which is left out");
      break;
    }
    settings.pass = pass;
    ProgramRun run;
    if (!RunOnce(options, counters, settings, PassLabel(pass, passes), &run, error)) return false;
    first->streams.insert(first->streams.end(), run.streams.begin(), run.streams.end());
    first->write_failures.insert(run.write_failures.begin(), run.write_failures.end());
    first->still_writing.insert(first->still_writing.end(), run.still_writing.begin(), run.still_writing.end());
    first->left_running.insert(first->left_running.end(), run.left_running.begin(), run.left_running.end());
    first->unended.insert(first->unended.end(), run.unended.begin(), run.unended.end());
    first->signals_at_end = run.signals_at_end;
    first->result.wall_time_s += run.result.wall_time_s;
    if (run.result.interrupted_by != 0) {
      first->result.interrupted_by = run.result.interrupted_by;
      first->samples.messages.push_back("application replay: pass " + std::to_string(pass + 1) +
                                        " was interrupted and is left out");
      break;
    }
    if (run.result.exit_code != first->result.exit_code) {
      *error = "application replay: the program exited with " + std::to_string(run.result.exit_code) + " in pass " +
               std::to_string(pass + 1) + " and " + std::to_string(first->result.exit_code) + " in pass 1";
      return false;
    }
    runs.push_back(std::move(run.samples));
  }
  profiling::ProfileRun merged;
  if (!profiling::MergeReplayPasses(runs, &merged, error)) return false;
  merged.messages.insert(merged.messages.end(), first->samples.messages.begin(), first->samples.messages.end());
  first->samples = std::move(merged);
  return true;
}

int RunProfile(ProfileOptions options) {
  std::string error;
  if (options.api == kGpaApiLast) {
    std::cerr << "opengpa profile: choose the program's API with --api cuda|cl\n";
    return 2;
  }
  if (options.api != client::kApiCuda &&
      (!options.kernel_name.empty() || options.launch_skip != 0 || options.launch_count != 0 ||
       !options.nvtx_include.empty() || options.replay == profiling::ReplayMode::kKernel ||
       options.replay == profiling::ReplayMode::kApplication || options.range_mode != profiling::RangeMode::kKernel ||
       !options.collective_kernel.empty() || options.turn_timeout_s >= 0)) {
    std::cerr << "opengpa profile: --kernel-name, --launch-skip, --launch-count, --nvtx-include, --range-mode nvtx, "
                 "--collective-kernel, --turn-timeout and --replay-mode kernel|application are for --api cuda "
                 "(OpenCL's GPUTime comes from each kernel's event, in one run)\n";
    return 2;
  }
  if (options.range_mode == profiling::RangeMode::kNvtx && options.replay == profiling::ReplayMode::kKernel) {
    std::cerr << "opengpa profile: --range-mode nvtx needs --replay-mode none, application or auto (CUPTI's kernel "
                 "replay replays single launches, not NVTX ranges)\n";
    return 2;
  }
  // A bad key in -o is a usage error, found before the program runs.
  if (!ParseOutputName(options.prefix, &options.name_keys, &error)) {
    std::cerr << "opengpa profile: " << error << '\n';
    return 2;
  }
  const bool sampled = options.mode == "sampled";
  if (sampled &&
      (options.api != client::kApiCuda || options.replay == profiling::ReplayMode::kKernel ||
       options.replay == profiling::ReplayMode::kApplication || options.range_mode != profiling::RangeMode::kKernel)) {
    std::cerr << "opengpa profile: --mode sampled is for --api cuda and records every launch in one run: it takes no "
                 "--range-mode nvtx or --replay-mode kernel|application\n";
    return 2;
  }
  if (!sampled && options.sampling_interval_us != 0.0) {
    std::cerr << "opengpa profile: --sampling-interval-us is for --mode sampled\n";
    return 2;
  }
  profiling::ProfileSettings settings;
  settings.sampled = sampled;
  settings.replay = options.replay;
  settings.flush_caches = options.cache_control == "all";
  settings.kernel_name = options.kernel_name;
  settings.launch_skip = options.launch_skip;
  settings.launch_count = options.launch_count;
  settings.nvtx_include = options.nvtx_include;
  settings.range_mode = options.range_mode;
  settings.graph_profiling = options.graph_profiling;
  settings.collective_kernel = options.collective_kernel;
  {
    // A bad expression or range spec is a usage error, found before the program runs.
    profiling::LaunchFilter filter;
    profiling::NvtxFilter nvtx_filter;
    profiling::CollectiveKernels collectives;
    if (!profiling::LaunchFilter::Create(settings.kernel_name, 0, 0, &filter, &error) ||
        !profiling::NvtxFilter::Create(settings.nvtx_include, &nvtx_filter, &error) ||
        !profiling::CollectiveKernels::Create(settings.collective_kernel, &collectives, &error)) {
      std::cerr << "opengpa profile: " << error << '\n';
      return 2;
    }
  }
  std::vector<std::string> counters;
  if (options.counters.names.empty() && options.counters.list_file.empty()) {
    counters = sampled ? DefaultSampledMetrics() : DefaultProfileCounters(options.api);
  } else if (!CollectCounterNames(options.counters, &counters, &error)) {
    std::cerr << "opengpa profile: " << error << '\n';
    return 2;
  }
  // A counter the program's profiler would refuse is a usage error, found before the program runs. (The sampled
  // mode's metrics are checked by the GPU's PM sampler when it starts; its Speed-of-Light counters become the PM
  // metrics they are built on, which are what the program's processes and the sampler are given.)
  profiling::SampledCounterPlan sampled_plan;
  if (sampled ? !profiling::PlanSampledCounters(counters, &sampled_plan, &error)
              : !CheckCounterNames(options.api, settings.replay, &counters, &error)) {
    std::cerr << "opengpa profile: " << error << '\n';
    return 2;
  }
  if (sampled) {
    counters = sampled_plan.pm_metrics;
    if (options.sampling_interval_us == 0.0) {
      options.sampling_interval_us = profiling::DefaultSampledIntervalUs(sampled_plan);
      if (sampled_plan.reads_sm_throughput && !options.quiet) {
        std::fprintf(stderr,
                     "opengpa profile: sampling every %.0f µs: PM sampling's SM throughput (which SOL_SM and "
                     "GPUBottleneck read) costs the host 50-60 µs a record to decode and as much to evaluate "
                     "(--sampling-interval-us to choose)\n",
                     options.sampling_interval_us);
      }
    }
  }
  // Every output is checked before the program runs, so a bad -o never costs a run. A name per process is known
  // only once its process is (its folder is checked now; an existing file is refused when it is written).
  const std::string pattern = ReportPattern(options.prefix, options.name_keys, options.per_process);
  if (pattern != options.prefix) ParseOutputName(pattern, &options.name_keys, &error);  // it gained %p
  const bool per_process = options.name_keys.PerProcess();
  OutputNameValues own_values;
  own_values.pid = std::to_string(getpid());
  own_values.rank = "0";
  own_values.host = HostName();
  own_values.variable = [](const std::string& name) {
    const char* value = std::getenv(name.c_str());
    return std::string(value != nullptr ? value : "");
  };
  auto report_files = [](const std::string& prefix) {
    return std::vector<std::string>{prefix + ".csv", prefix + ".json", prefix + ".trace.json"};
  };
  auto taken = [&report_files, &options](const std::string& prefix) {
    if (options.force) return false;
    for (const std::string& file : report_files(prefix)) {
      struct stat existing {};
      if (stat(file.c_str(), &existing) == 0) return true;
    }
    return false;
  };
  // One report of the whole run: its name now (%i chosen); per process: a name like theirs, for its folder.
  const std::string checked = per_process
                                  ? ExpandOutputName(pattern, own_values)
                                  : PlanReports({}, pattern, options.name_keys, own_values, taken).front().prefix;
  for (const auto& output : report_files(checked)) {
    if (!CheckOutputPath("-o", output, options.force || per_process, &error)) {
      std::cerr << "opengpa profile: " << error << '\n';
      return 1;
    }
  }
  if (!CheckApiRuntime(options.api, &error)) {
    std::cerr << "opengpa profile: " << error << '\n';
    return 1;
  }

  // Streams of earlier runs whose opengpa was killed before writing their results: named once, then kept.
  for (const std::string& leftover : KeepLeftoverStreams()) {
    std::cerr << "opengpa profile: an earlier run was killed before it wrote its results; its sample stream is "
                 "kept at "
              << leftover << '\n';
  }
  // From here on, SIGINT, SIGTERM, SIGHUP and SIGQUIT never end opengpa: they are counted until it exits.
  SignalGuard::HoldUntilExit();
  // The program's orphans become opengpa's children, to be waited for (WaitForStreamWriters); where the kernel
  // refuses, they go to init and only those that write samples are waited for.
  static_cast<void>(BecomeSubreaper());
  if (!options.quiet) {
    std::fprintf(stderr, "opengpa profile: running %s with %zu counter(s) (%s)\n", options.program[0].c_str(),
                 counters.size(), std::string(ApiShortName(options.api)).c_str());
  }
  std::unique_ptr<SampledRecording> recording;
  // The sampled mode sets PM sampling up while the program starts; the program's processes wait for it at their
  // CUDA start (src/profiler/sampled_gate.h).
  std::unique_ptr<profiling::SampledGate> gate;
  std::map<std::string, std::string> gate_environment;
  std::thread setting_up;
  std::atomic<bool> recording_set_up{false};  // `recording` is written by setting_up until then
  std::string setup_error;
  if (sampled) {
    const char* tmp = std::getenv("TMPDIR");
    gate = std::make_unique<profiling::SampledGate>(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp");
    gate_environment[profiling::kSampledGateVariable] = gate->Path();
    setting_up = std::thread([&] {
      const bool started = SampledRecording::Start(counters, options.sampling_interval_us, &recording, &setup_error);
      recording_set_up.store(true, std::memory_order_release);
      if (!gate->Open(started, setup_error)) {
        std::cerr << "opengpa profile: cannot write " << gate->Path()
                  << ": the program's processes wait for PM sampling until their limit\n";
      }
    });
  }
  // Once the program's processes have all written their end records, PM sampling is stopped and the samples
  // attributed while the program exits; a process that begins writing after that has no samples (said below).
  SampledWhileExiting while_exiting(&recording_set_up, &recording);
  ProgramRun first;
  const bool ran =
      RunOnce(options, counters, settings, "", &first, &error, gate_environment, sampled ? &while_exiting : nullptr);
  if (setting_up.joinable()) setting_up.join();
  if (sampled && recording == nullptr) {
    std::cerr << "opengpa profile: " << setup_error
              << (ran ? " (the program was stopped at its CUDA start, or did not use CUDA)" : "") << '\n';
    return 1;
  }
  if (!ran) {
    std::cerr << "opengpa profile: " << error << '\n';
    return 1;
  }
  if (recording) {
    std::vector<std::string> notes;
    bool finished = false;
    if (first.read_while_exiting && while_exiting.attributed()) {
      notes = while_exiting.notes();
      finished = while_exiting.finished();
      error = while_exiting.error();
    } else {  // the program wrote more after its processes had ended, or ended otherwise: attributed now
      finished = recording->Finish(&first.samples, first.stream_read_s, /*while_program_exits=*/false, &notes, &error);
    }
    // Printed with the run's other messages below.
    for (const std::string& note : notes) first.samples.messages.push_back(note);
    std::string late;
    for (const auto& process : first.samples.processes) {
      if (!while_exiting.writers().empty() && while_exiting.writers().count(process.pid) == 0) {
        late += (late.empty() ? "" : ", ") + std::to_string(process.pid);
      }
    }
    if (!late.empty()) {
      first.samples.messages.push_back("process " + late +
                                       " began after the program's processes had all ended and PM sampling had "
                                       "stopped: its launches have no samples");
    }
    if (!finished) std::cerr << "opengpa profile: warning: " << error << '\n';
    // Every launch took its share of the samples; the rows kept are those --kernel-name and --launch-skip/-count
    // choose (the expression compiled above, before the program ran).
    static_cast<void>(profiling::KeepChosenLaunches(options.kernel_name, options.launch_skip, options.launch_count,
                                                    &first.samples, &error, options.nvtx_include));
    // The rows' columns become the counters as asked (a Speed-of-Light counter from its metrics), evaluated below.
    profiling::SetSampledOutputs(sampled_plan, &first.samples);
  }
  const int exit_code = first.result.exit_code;
  // The library decides the replay of `auto` (it knows the set's passes on this chip); say which it took.
  const profiling::ProfileRun& header = first.samples;
  if (options.api == client::kApiCuda && !header.replay.empty() && !options.quiet && !sampled) {
    std::string why = header.replay == "none" ? "the counters fit one pass: each launch runs once, no replay"
                      : header.replay == "application"
                          ? std::to_string(header.passes) + " passes: the program runs once per pass"
                          : "CUPTI replays each launch once per pass";
    std::fprintf(stderr, "opengpa profile: replay mode %s%s (%s)\n", header.replay.c_str(),
                 options.replay == profiling::ReplayMode::kAuto ? ", picked by auto" : "", why.c_str());
  }
  if (header.replay == "application" && header.passes > 1) {
    if (!RunRemainingPasses(options, counters, settings, &first, &error)) {
      if (options.replay != profiling::ReplayMode::kAuto) {
        std::cerr << "opengpa profile: " << error << "; nothing written\n";
        return 1;
      }
      // auto: the program does not repeat itself, so the correct choice is CUPTI's kernel replay.
      std::cerr << "opengpa profile: " << error << "\nopengpa profile: auto falls back to --replay-mode kernel\n";
      settings.replay = profiling::ReplayMode::kKernel;
      settings.pass = 0;
      ProgramRun kernel;
      if (!RunOnce(options, counters, settings, "", &kernel, &error)) {
        std::cerr << "opengpa profile: " << error << '\n';
        return 1;
      }
      kernel.result.wall_time_s += first.result.wall_time_s;
      first = std::move(kernel);
    }
  }

  profiling::ProfileRun& run = first.samples;
  const ProgramResult& result = first.result;
  // Keeps every stream of the run (renamed to .jsonl) and says where: "<path>" or "<path>, <path>".
  auto keep_streams = [&first] {
    std::string kept;
    for (const auto& stream : first.streams) kept += (kept.empty() ? "" : ", ") + stream->Keep();
    return kept;
  };
  if (!profiling::EvaluateOutputs(&run, &error, result.interrupted_by != 0)) {
    std::cerr << "opengpa profile: " << error << "; the sample stream is kept at " << keep_streams() << '\n';
    return 1;
  }
  run.command = options.program;
  run.wall_time_s = result.wall_time_s;
  run.exit_code = result.exit_code;
  if (run.api.empty()) run.api = std::string(ApiShortName(options.api));
  for (const auto& message : run.messages) std::cerr << "opengpa profile: " << message << '\n';
  // A process of the program that could not write the stream whole (a full $TMPDIR): say why, exit non-zero.
  std::string truncated;
  for (const auto& [pid, failure] : first.write_failures) {
    if (!truncated.empty()) truncated += "; ";
    truncated += std::string(strerror(failure.error_number)) + " (process " + std::to_string(pid) +
                 " could not write " + std::to_string(failure.records_lost) +
                 " record(s); its samples from then on are missing)";
  }
  if (!truncated.empty()) {
    run.messages.push_back("sample stream truncated: " + truncated);
    std::cerr << "opengpa profile: " << run.messages.back() << '\n';
  }
  // A process of the program still writing kWriterWait after the program ended (one that outlives it on
  // purpose): the results hold what it wrote until then; the stream, which it goes on writing, is kept.
  std::string lingering;
  for (std::uint32_t pid : first.still_writing) lingering += (lingering.empty() ? "" : ", ") + std::to_string(pid);
  if (!lingering.empty()) {
    run.messages.push_back("process " + lingering + " of the program was still writing samples " +
                           std::to_string(kWriterWait.count()) +
                           " s after the program ended; the results hold what it wrote until then, and the "
                           "sample stream, which it goes on writing, is kept at " +
                           keep_streams());
    std::cerr << "opengpa profile: " << run.messages.back() << '\n';
  }
  // A process the program left running that had written nothing kWriterWait after the program ended (a server it
  // started, or a child still working): what it launches later is not profiled.
  std::string left_running;
  for (std::uint32_t pid : first.left_running) {
    left_running += (left_running.empty() ? "" : ", ") + std::to_string(pid);
  }
  if (!left_running.empty()) {
    run.messages.push_back("process " + left_running + ", which the program left running, still ran " +
                           std::to_string(kWriterWait.count()) +
                           " s after the program ended: opengpa stopped waiting, and what it launches from now on "
                           "is not profiled");
    std::cerr << "opengpa profile: " << run.messages.back() << '\n';
  }
  if (result.interrupted_by != 0) {
    run.messages.push_back("interrupted by signal " + std::to_string(result.interrupted_by) + " (" +
                           strsignal(result.interrupted_by) + "); the results hold what was collected until then");
    std::cerr << "opengpa profile: " << run.messages.back() << '\n';
  }
  // A process that wrote samples and ended without its end record (a signal at its default action, a crash,
  // _exit) could not write the launches of its last batch; named whether or not opengpa was interrupted. Those
  // that could not write at all (truncated above) are not blamed twice. A program that never used the API
  // never started the profiler, and has no end record to miss.
  std::string unended;
  for (std::uint32_t pid : first.unended) {
    if (first.write_failures.count(pid) == 0) unended += (unended.empty() ? "" : ", ") + std::to_string(pid);
  }
  if (!unended.empty() && !run.samples.empty()) {
    run.messages.push_back("process " + unended +
                           " of the program ended without writing its end record (a signal, a crash or _exit?): "
                           "the launches of its last batch, run after the samples it wrote, are missing");
    std::cerr << "opengpa profile: warning: " << run.messages.back() << '\n';
  }
  // A process that launched work it could not profile is never silent: named with its reason, and (unless
  // --allow-unprofiled-processes) the exit code is 3 where the program's own would be 0.
  for (const auto& unprofiled : run.unprofiled) {
    std::string rank;  // a rank of a job is named with its pid: which rank waited or failed matters most there
    for (const auto& process : run.processes) {
      if (process.pid == unprofiled.pid && process.rank) rank = " (rank " + std::to_string(*process.rank) + ")";
    }
    std::cerr << "opengpa profile: " << (options.allow_unprofiled ? "warning: " : "") << "process " << unprofiled.pid
              << rank << " was not profiled: " << unprofiled.reason << '\n';
  }
  const bool fail_unprofiled = !run.unprofiled.empty() && !options.allow_unprofiled;
  if (fail_unprofiled) {
    std::cerr << "opengpa profile: " << run.unprofiled.size()
              << " process report(s) above: exit code 3 (--allow-unprofiled-processes accepts them)\n";
  }
  const int success_code = fail_unprofiled ? 3 : 0;

  if (run.samples.empty()) {
    // Nothing to keep: earlier results under the same prefix are left as they were.
    std::cerr << "opengpa profile: no kernel launch was profiled (" << options.program[0] << " exited with "
              << result.exit_code << "); nothing written\n";
    return result.exit_code != 0 ? result.exit_code : fail_unprofiled ? 3 : 1;
  }
  // One report of the whole run, under the name checked before it ran; or one per process or rank.
  std::vector<ProfileReport> reports = per_process ? PlanReports(run, pattern, options.name_keys, own_values, taken)
                                                   : std::vector<ProfileReport>{ProfileReport{checked, run}};
  // Each output complete under its name or not there at all (output_file.h); one failing does not stop the
  // others.
  std::vector<std::string> written;
  std::vector<std::string> failures;
  const auto writing_began = std::chrono::steady_clock::now();
  for (const ProfileReport& report : reports) {
    const profiling::ProfileRun& part = report.run;
    const std::vector<std::function<void(std::ostream&)>> writers = {
        [&part](std::ostream& out) { profiling::WriteProfileCsv(part, out); },
        [&part](std::ostream& out) {
          profiling::WriteProfileJson(part, out);
          out << '\n';
        },
        [&part](std::ostream& out) {
          profiling::WriteChromeTrace(part, out);
          out << '\n';
        }};
    const std::vector<std::string> outputs = report_files(report.prefix);
    // The three files of a report are written at once, each on its own thread (they only read the run): a large
    // run's outputs take the time of the largest (the trace) rather than of all three.
    std::vector<std::string> errors(outputs.size());
    std::vector<std::future<bool>> writing;
    for (std::size_t i = 0; i < outputs.size(); ++i) {
      writing.push_back(std::async(std::launch::async,
                                   [&, i] { return WriteFile(outputs[i], options.force, writers[i], &errors[i]); }));
    }
    for (std::size_t i = 0; i < outputs.size(); ++i) {
      if (writing[i].get()) {
        written.push_back(outputs[i]);
      } else {
        failures.push_back(errors[i]);
      }
    }
  }
  // The profiler's own time after the program, last part: how long the outputs took (the notes above said the rest).
  char writing_took[32];
  std::snprintf(writing_took, sizeof writing_took, " in %.2f s",
                std::chrono::duration<double>(std::chrono::steady_clock::now() - writing_began).count());
  auto list = [](const std::vector<std::string>& items) {
    std::string text;
    for (const auto& item : items) text += (text.empty() ? "" : ", ") + item;
    return text.empty() ? std::string("nothing") : text;
  };
  if (!failures.empty()) {
    for (const auto& failure : failures) std::cerr << "opengpa profile: " << failure << '\n';
    std::cerr << "opengpa profile: wrote " << list(written) << "; every sample collected is in the sample stream, "
              << "kept at " << keep_streams() << '\n';
    return exit_code != 0 ? exit_code : 1;
  }
  // A signal after the program ended (a second Ctrl-C, a SIGTERM) was held while the results were written.
  const bool late_signal = SignalGuard::Received() != first.signals_at_end;
  const std::string kept = late_signal || options.keep_stream || !lingering.empty() ? keep_streams() : std::string();

  if (options.csv) {  // stdout holds the CSV alone; what would surround the table goes to stderr
    profiling::WriteProfileCsv(run, std::cout);
    std::cerr << "opengpa profile: wrote " << list(written) << writing_took << '\n';
    if (!kept.empty()) std::cerr << "opengpa profile: sample stream kept at " << kept << '\n';
  } else {
    std::cout << run.samples.size() << " kernel launch(es) of " << options.program[0] << " on "
              << (run.device.empty() ? std::string("?") : run.device) << ", " << result.wall_time_s
              << " s under the profiler, exit code " << result.exit_code << "\n\n";
    profiling::WriteProfileSummary(run, std::cout, StdoutWidth());
    std::cout << "\nwrote " << list(written) << writing_took << '\n';
    if (!kept.empty()) std::cout << "sample stream kept at " << kept << '\n';
  }
  if (late_signal) {
    const int signal_number = SignalGuard::Last();
    std::cerr << "opengpa profile: signal " << signal_number << " (" << strsignal(signal_number)
              << ") arrived while the results were written; they are complete (" << list(written)
              << "), and the sample stream is kept at " << kept << '\n';
    return 128 + signal_number;
  }
  if (!truncated.empty()) return exit_code != 0 ? exit_code : 1;
  return exit_code != 0 ? exit_code : success_code;
}

void SetUpProfile(CLI::App& command, RunFunction* run) {
  auto options = std::make_shared<ProfileOptions>();
  command.add_option("--api", options->api, "The program's API: cuda or cl")
      ->transform(CLI::Validator(ApiNameTransform(), "{cuda,vk,gl,cl}"));
  AddCounterSelectionOptions(command, &options->counters);
  command
      .add_option("-o,--output", options->prefix,
                  "Prefix of the files written: <prefix>.csv, <prefix>.json, <prefix>.trace.json; keys %p pid, %r "
                  "rank, %h host, %q{NAME} environment variable, %i first unused index, %% a literal % (%p or %r: "
                  "one report per process or rank)")
      ->capture_default_str();
  command.add_flag("-f,--force", options->force, "Overwrite existing output files");
  command.add_flag("--report-per-process", options->per_process,
                   "One report per process of the program (\".%p\" is appended to an -o name without %p or %r)");
  command.add_flag("--allow-unprofiled-processes", options->allow_unprofiled,
                   "A process that launched work it could not profile is a warning, not exit code 3");
  command.add_flag("-q,--quiet", options->quiet, "No progress on stderr");
  command.add_flag("--keep-stream", options->keep_stream, "Keep the raw sample stream file (for debugging)");
  command
      .add_option("--replay-mode", options->replay,
                  "CUDA: none (one-pass sets, each launch runs once), kernel (CUPTI replays each launch), "
                  "application (the program runs once per pass), auto (the cheapest correct one)")
      ->transform(ChoiceOf<profiling::ReplayMode>({{"none", profiling::ReplayMode::kNone},
                                                   {"kernel", profiling::ReplayMode::kKernel},
                                                   {"application", profiling::ReplayMode::kApplication},
                                                   {"auto", profiling::ReplayMode::kAuto}},
                                                  "replay mode"))
      ->default_str("auto");
  command
      .add_option("--cache-control", options->cache_control,
                  "CUDA: all flushes the L2 before every profiled launch in every pass; none leaves it")
      ->check(CLI::IsMember({"all", "none"}, CLI::ignore_case))
      ->capture_default_str();
  command
      .add_option("-k,--kernel-name", options->kernel_name,
                  "CUDA: profile only kernels whose demangled name contains a match of this regular expression "
                  "(ncu's regex:EXPR is the same)")
      ->transform(CLI::Validator(StripRegexPrefix, "REGEX"));
  command.add_option("--launch-skip", options->launch_skip, "CUDA: leave the first N matching launches unprofiled");
  command.add_option("-c,--launch-count", options->launch_count,
                     "CUDA: profile at most N matching launches, then let the program run unprofiled (0: all)");
  command
      .add_option("--mode", options->mode,
                  "exact: counters per launch in CUPTI ranges, launches serialized (default); sampled: the GPUs' PM "
                  "samples shared out among launches that run at the program's own speed (CUDA, PM metrics)")
      ->check(CLI::IsMember({"exact", "sampled"}, CLI::ignore_case))
      ->transform(CLI::IsMember({"exact", "sampled"}, CLI::ignore_case));
  command
      .add_option("--sampling-interval-us", options->sampling_interval_us,
                  "--mode sampled: the PM sampling interval, microseconds (default 20; 100-200 where SOL_SM, "
                  "GPUBottleneck or the SM throughput is asked; finer resolves shorter kernels but costs more CPU; "
                  "see docs/cli.md)")
      ->check(CLI::Range(1.0, 1000000.0));
  command.add_flag("--csv", options->csv,
                   "Print each launch's row (<prefix>.csv) on stdout instead of the summary table, as ncu --csv");
  command
      .add_option("--nvtx-include", options->nvtx_include,
                  "CUDA: profile only launches inside an NVTX push/pop range of this name (name, or domain@name); "
                  "repeatable, a launch counts when any open range matches (--mode sampled: keeps those rows)")
      ->allow_extra_args(false);
  command
      .add_option("--range-mode", options->range_mode,
                  "CUDA: kernel (one sample per kernel launch) or nvtx (one sample per NVTX push/pop range, the "
                  "outermost one --nvtx-include chooses; --kernel-name, --launch-skip, --launch-count then choose "
                  "ranges by their path)")
      ->transform(ChoiceOf<profiling::RangeMode>(
          {{"kernel", profiling::RangeMode::kKernel}, {"nvtx", profiling::RangeMode::kNvtx}}, "range mode"))
      ->default_str("kernel");
  command
      .add_option("--graph-profiling", options->graph_profiling,
                  "CUDA: node (each kernel node of a CUDA graph launch is a sample: the profiler replays the graph's "
                  "work node by node on the launch's stream) or graph (each graph launch is one sample)")
      ->transform(ChoiceOf<profiling::GraphProfiling>(
          {{"node", profiling::GraphProfiling::kNode}, {"graph", profiling::GraphProfiling::kGraph}},
          "graph profiling mode"))
      ->default_str("node");
  command
      .add_option("--collective-kernel", options->collective_kernel,
                  "CUDA: kernels that wait for peers in other processes or GPUs, beside NCCL's (a regular expression "
                  "searched in the demangled name): never replayed, never waiting for a GPU's turn")
      ->transform(CLI::Validator(StripRegexPrefix, "REGEX"));
  command
      .add_option("--turn-timeout", options->turn_timeout_s,
                  "CUDA: seconds a process waits for a GPU that another process of the program profiles before it "
                  "gives up, named with its pid and rank (default 60)")
      ->check(CLI::Range(0.0, 86400.0));
  command
      .add_option("program", options->program, "The program and its arguments (after -- or after opengpa's options)")
      ->required();
  // As ncu: everything from the program's name on is the program's, `-x` included.
  command.positionals_at_end();
  *run = [options] { return RunProfile(*options); };
}

const bool registered = RegisterCommand(
    {"profile", "Profile an unmodified CUDA or OpenCL program, one sample per kernel launch", &SetUpProfile});

}  // namespace
}  // namespace opengpa::cli
