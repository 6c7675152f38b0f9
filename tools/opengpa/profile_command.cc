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
// named at the start of the next run (sample_stream_file.h).
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <vector>

#include "api_name.h"
#include "choice_option.h"
#include "command_registry.h"
#include "counter_selection.h"
#include "output_file.h"
#include "profile_injection.h"
#include "profiler/counter_outputs.h"
#include "profiler/launch_filter.h"
#include "profiler/nvtx_filter.h"
#include "profiler/profile_environment.h"
#include "profiler/profile_writers.h"
#include "profiler/replay_merge.h"
#include "profiler/sample_stream.h"
#include "profiler/stream_status.h"
#include "program_launcher.h"
#include "sample_stream_file.h"
#include "signal_guard.h"
#include "terminal.h"

namespace opengpa::cli {
namespace {

struct ProfileOptions {
  client::ApiNumber api = kGpaApiLast;
  CounterSelection counters;
  std::string prefix = "opengpa_profile";
  bool quiet = false;
  bool keep_stream = false;
  bool force = false;
  profiling::ReplayMode replay = profiling::ReplayMode::kAuto;
  std::string cache_control = "all";
  std::string kernel_name;
  std::uint64_t launch_skip = 0;
  std::uint64_t launch_count = 0;
  std::vector<std::string> nvtx_include;
  profiling::RangeMode range_mode = profiling::RangeMode::kKernel;
  profiling::GraphProfiling graph_profiling = profiling::GraphProfiling::kNode;
  std::vector<std::string> program;
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
  int signals_at_end = 0;  // SignalGuard::Received() when the program ended
};

// Runs the program once with `settings`; `label` prefixes the progress line ("pass 2 of 3: ").
// False and *error when the program cannot start or its stream cannot be read.
bool RunOnce(const ProfileOptions& options, const std::vector<std::string>& counters,
             const profiling::ProfileSettings& settings, const std::string& label, ProgramRun* run,
             std::string* error) {
  std::shared_ptr<SampleStreamFile> stream = SampleStreamFile::Create(error);
  if (stream == nullptr) return false;
  run->streams.push_back(stream);
  profiling::StreamStatusReceiver status;
  if (!status.Open(error)) return false;
  std::map<std::string, std::string> environment;
  if (!PrepareInjection(options.api, counters, stream->Path(), &environment, error)) return false;
  for (const auto& [name, value] : profiling::SettingsEnvironment(settings)) environment[name] = value;
  environment[profiling::kStatusVariable] = status.Name();

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
  if (!RunProgram(
          options.program, environment, [&] { report(false); }, &run->result, error)) {
    return false;
  }
  run->signals_at_end = SignalGuard::Received();
  status.Drain();
  run->write_failures = status.Failures();
  report(true);
  if (!profiling::ReadSampleStream(stream->Path(), &run->samples, &run->ended, error)) {
    *error += "; the sample stream is kept at " + stream->Keep();
    return false;
  }
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

int RunProfile(const ProfileOptions& options) {
  std::string error;
  if (options.api == kGpaApiLast) {
    std::cerr << "opengpa profile: choose the program's API with --api cuda|cl\n";
    return 2;
  }
  if (options.api != client::kApiCuda &&
      (!options.kernel_name.empty() || options.launch_skip != 0 || options.launch_count != 0 ||
       !options.nvtx_include.empty() || options.replay == profiling::ReplayMode::kKernel ||
       options.replay == profiling::ReplayMode::kApplication || options.range_mode != profiling::RangeMode::kKernel)) {
    std::cerr << "opengpa profile: --kernel-name, --launch-skip, --launch-count, --nvtx-include, --range-mode nvtx "
                 "and --replay-mode kernel|application are for --api cuda (OpenCL's GPUTime comes from each "
                 "kernel's event, in one run)\n";
    return 2;
  }
  if (options.range_mode == profiling::RangeMode::kNvtx && options.replay == profiling::ReplayMode::kKernel) {
    std::cerr << "opengpa profile: --range-mode nvtx needs --replay-mode none, application or auto (CUPTI's kernel "
                 "replay replays single launches, not NVTX ranges)\n";
    return 2;
  }
  profiling::ProfileSettings settings;
  settings.replay = options.replay;
  settings.flush_caches = options.cache_control == "all";
  settings.kernel_name = options.kernel_name;
  settings.launch_skip = options.launch_skip;
  settings.launch_count = options.launch_count;
  settings.nvtx_include = options.nvtx_include;
  settings.range_mode = options.range_mode;
  settings.graph_profiling = options.graph_profiling;
  {
    // A bad expression or range spec is a usage error, found before the program runs.
    profiling::LaunchFilter filter;
    profiling::NvtxFilter nvtx_filter;
    if (!profiling::LaunchFilter::Create(settings.kernel_name, 0, 0, &filter, &error) ||
        !profiling::NvtxFilter::Create(settings.nvtx_include, &nvtx_filter, &error)) {
      std::cerr << "opengpa profile: " << error << '\n';
      return 2;
    }
  }
  std::vector<std::string> counters;
  if (options.counters.names.empty() && options.counters.list_file.empty()) {
    counters = DefaultProfileCounters(options.api);
  } else if (!CollectCounterNames(options.counters, &counters, &error)) {
    std::cerr << "opengpa profile: " << error << '\n';
    return 2;
  }
  // A counter the program's profiler would refuse is a usage error, found before the program runs.
  if (!CheckCounterNames(options.api, counters, &error)) {
    std::cerr << "opengpa profile: " << error << '\n';
    return 2;
  }
  // Every output is checked before the program runs, so a bad -o never costs a run.
  const std::string prefix = options.prefix;
  const std::vector<std::string> outputs = {prefix + ".csv", prefix + ".json", prefix + ".trace.json"};
  for (const auto& output : outputs) {
    if (!CheckOutputPath("-o", output, options.force, &error)) {
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
  // From here until the last output is written, SIGINT, SIGTERM, SIGHUP and SIGQUIT never end opengpa.
  SignalGuard held;
  if (!options.quiet) {
    std::fprintf(stderr, "opengpa profile: running %s with %zu counter(s) (%s)\n", options.program[0].c_str(),
                 counters.size(), std::string(ApiShortName(options.api)).c_str());
  }
  ProgramRun first;
  if (!RunOnce(options, counters, settings, "", &first, &error)) {
    std::cerr << "opengpa profile: " << error << '\n';
    return 1;
  }
  const int exit_code = first.result.exit_code;
  // The library decides the replay of `auto` (it knows the set's passes on this chip); say which it took.
  const profiling::ProfileRun& header = first.samples;
  if (options.api == client::kApiCuda && !header.replay.empty() && !options.quiet) {
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
  if (result.interrupted_by != 0) {
    run.messages.push_back("interrupted by signal " + std::to_string(result.interrupted_by) + " (" +
                           strsignal(result.interrupted_by) + "); the results hold what was collected until then");
    std::cerr << "opengpa profile: " << run.messages.back() << '\n';
  } else if (!first.ended && !run.samples.empty() && truncated.empty()) {
    // A program that never used the API never started the profiler, and has no end record to miss.
    run.messages.emplace_back("the program ended before the profiler wrote its end record (crash or _exit?)");
    std::cerr << "opengpa profile: warning: " << run.messages.back() << '\n';
  }

  if (run.samples.empty()) {
    // Nothing to keep: earlier results under the same prefix are left as they were.
    std::cerr << "opengpa profile: no kernel launch was profiled (" << options.program[0] << " exited with "
              << result.exit_code << "); nothing written\n";
    return result.exit_code != 0 ? result.exit_code : 1;
  }
  // Each output complete under its name or not there at all (output_file.h); one failing does not stop the
  // others.
  std::vector<std::string> written;
  std::vector<std::string> failures;
  const std::vector<std::function<void(std::ostream&)>> writers = {
      [&run](std::ostream& out) { profiling::WriteProfileCsv(run, out); },
      [&run](std::ostream& out) { out << profiling::ProfileJson(run).dump(2) << '\n'; },
      [&run](std::ostream& out) { out << profiling::ChromeTrace(run).dump() << '\n'; }};
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    if (WriteFile(outputs[i], options.force, writers[i], &error)) {
      written.push_back(outputs[i]);
    } else {
      failures.push_back(error);
    }
  }
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
  const std::string kept = late_signal || options.keep_stream ? keep_streams() : std::string();

  std::cout << run.samples.size() << " kernel launch(es) of " << options.program[0] << " on "
            << (run.device.empty() ? std::string("?") : run.device) << ", " << result.wall_time_s
            << " s under the profiler, exit code " << result.exit_code << "\n\n";
  profiling::WriteProfileSummary(run, std::cout, StdoutWidth());
  std::cout << "\nwrote " << outputs[0] << ", " << outputs[1] << ", " << outputs[2] << '\n';
  if (!kept.empty()) std::cout << "sample stream kept at " << kept << '\n';
  if (late_signal) {
    const int signal_number = SignalGuard::Last();
    std::cerr << "opengpa profile: signal " << signal_number << " (" << strsignal(signal_number)
              << ") arrived while the results were written; they are complete (" << list(written)
              << "), and the sample stream is kept at " << kept << '\n';
    return 128 + signal_number;
  }
  if (!truncated.empty()) return exit_code != 0 ? exit_code : 1;
  return exit_code;
}

void SetUpProfile(CLI::App& command, RunFunction* run) {
  auto options = std::make_shared<ProfileOptions>();
  command.add_option("--api", options->api, "The program's API: cuda or cl")
      ->transform(CLI::Validator(ApiNameTransform(), "{cuda,vk,gl,cl}"));
  AddCounterSelectionOptions(command, &options->counters);
  command
      .add_option("-o,--output", options->prefix,
                  "Prefix of the files written: <prefix>.csv, <prefix>.json, <prefix>.trace.json")
      ->capture_default_str();
  command.add_flag("-f,--force", options->force, "Overwrite existing output files");
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
  command.add_option("--kernel-name", options->kernel_name,
                     "CUDA: profile only kernels whose demangled name contains a match of this regular expression");
  command.add_option("--launch-skip", options->launch_skip, "CUDA: leave the first N matching launches unprofiled");
  command.add_option("--launch-count", options->launch_count,
                     "CUDA: profile at most N matching launches, then let the program run unprofiled (0: all)");
  command
      .add_option("--nvtx-include", options->nvtx_include,
                  "CUDA: profile only launches inside an NVTX push/pop range of this name (name, or domain@name); "
                  "repeatable, a launch counts when any open range matches")
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
  command.add_option("program", options->program, "The program and its arguments (after --)")->required();
  *run = [options] { return RunProfile(*options); };
}

const bool registered = RegisterCommand(
    {"profile", "Profile an unmodified CUDA or OpenCL program, one sample per kernel launch", &SetUpProfile});

}  // namespace
}  // namespace opengpa::cli
