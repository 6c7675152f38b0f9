// `opengpa profile --api cuda|cl [--counters ...] -- ./app args`: profiles an unmodified program, one
// sample per kernel launch, and writes <prefix>.csv, <prefix>.json and <prefix>.trace.json (Chrome trace)
// plus a per-kernel summary table on stdout. Progress goes to stderr.
//
// Outputs are checked before the program runs and never replace existing files without -f/--force; a
// run that profiled nothing writes nothing. Ctrl-C reaches the program (program_launcher.h); what was
// collected until it ended is written, and the temporary sample stream is removed. The exit code is the
// program's own when it ran.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>

#include "api_name.h"
#include "command_registry.h"
#include "counter_selection.h"
#include "output_file.h"
#include "profile_injection.h"
#include "profile_writers.h"
#include "program_launcher.h"
#include "sample_stream.h"
#include "terminal.h"

namespace opengpa::cli {
namespace {

struct ProfileOptions {
  GpaApiType api = kGpaApiLast;
  CounterSelection counters;
  std::string prefix = "opengpa_profile";
  bool quiet = false;
  bool keep_stream = false;
  bool force = false;
  std::vector<std::string> program;
};

// A fresh, empty stream file in $TMPDIR; removed when the object goes unless kept.
class StreamFile {
 public:
  explicit StreamFile(bool keep) : keep_(keep) {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/opengpa-samples-XXXXXX";
    const int fd = mkstemp(pattern.data());
    if (fd >= 0) {
      close(fd);
      path_ = pattern;
    }
  }
  ~StreamFile() {
    if (!path_.empty() && !keep_) unlink(path_.c_str());
  }
  const std::string& Path() const { return path_; }

 private:
  bool keep_;
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

int RunProfile(const ProfileOptions& options) {
  std::string error;
  if (options.api == kGpaApiLast) {
    std::cerr << "opengpa profile: choose the program's API with --api cuda|cl\n";
    return 2;
  }
  std::vector<std::string> counters;
  if (options.counters.names.empty() && options.counters.list_file.empty()) {
    counters = DefaultProfileCounters(options.api);
  } else if (!CollectCounterNames(options.counters, &counters, &error)) {
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
  StreamFile stream(options.keep_stream);
  if (stream.Path().empty()) {
    std::cerr << "opengpa profile: cannot create a temporary sample-stream file (TMPDIR)\n";
    return 1;
  }
  std::map<std::string, std::string> environment;
  if (!PrepareInjection(options.api, counters, stream.Path(), &environment, &error)) {
    std::cerr << "opengpa profile: " << error << '\n';
    return 2;
  }

  const bool interactive = isatty(STDERR_FILENO) == 1;
  profiling::SampleStreamProgress progress(stream.Path());
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
    std::fprintf(stderr, "%sopengpa profile: %llu kernel launch(es) profiled%s", interactive ? "\r" : "",
                 static_cast<unsigned long long>(samples), interactive && !final_line ? "" : "\n");
    std::fflush(stderr);
  };

  if (!options.quiet) {
    std::fprintf(stderr, "opengpa profile: running %s with %zu counter(s) (%s)\n", options.program[0].c_str(),
                 counters.size(), std::string(ApiShortName(options.api)).c_str());
  }
  ProgramResult result;
  if (!RunProgram(options.program, environment, [&] { report(false); }, &result, &error)) {
    std::cerr << "opengpa profile: " << error << '\n';
    return 1;
  }
  report(true);

  profiling::ProfileRun run;
  bool ended = false;
  if (!profiling::ReadSampleStream(stream.Path(), &run, &ended, &error)) {
    std::cerr << "opengpa profile: " << error << '\n';
    return 1;
  }
  run.command = options.program;
  run.wall_time_s = result.wall_time_s;
  run.exit_code = result.exit_code;
  if (run.api.empty()) run.api = std::string(ApiShortName(options.api));
  for (const auto& message : run.messages) std::cerr << "opengpa profile: " << message << '\n';
  if (result.interrupted_by != 0) {
    run.messages.push_back("interrupted by signal " + std::to_string(result.interrupted_by) + " (" +
                           strsignal(result.interrupted_by) + "); the results hold what was collected until then");
    std::cerr << "opengpa profile: " << run.messages.back() << '\n';
  } else if (!ended && !run.samples.empty()) {
    // A program that never used the API never started the profiler, and has no end record to miss.
    run.messages.push_back("the program ended before the profiler wrote its end record (crash or _exit?)");
    std::cerr << "opengpa profile: warning: " << run.messages.back() << '\n';
  }

  if (run.samples.empty()) {
    // Nothing to keep: earlier results under the same prefix are left as they were.
    std::cerr << "opengpa profile: no kernel launch was profiled (" << options.program[0] << " exited with "
              << result.exit_code << "); nothing written\n";
    return result.exit_code != 0 ? result.exit_code : 1;
  }
  if (!WriteFile(outputs[0], options.force, [&run](std::ostream& out) { profiling::WriteProfileCsv(run, out); },
                 &error) ||
      !WriteFile(outputs[1], options.force,
                 [&run](std::ostream& out) { out << profiling::ProfileJson(run).dump(2) << '\n'; }, &error) ||
      !WriteFile(outputs[2], options.force,
                 [&run](std::ostream& out) { out << profiling::ChromeTrace(run).dump() << '\n'; }, &error)) {
    std::cerr << "opengpa profile: " << error << '\n';
    return 1;
  }

  std::cout << run.samples.size() << " kernel launch(es) of " << options.program[0] << " on "
            << (run.device.empty() ? std::string("?") : run.device) << ", " << result.wall_time_s
            << " s under the profiler, exit code " << result.exit_code << "\n\n";
  profiling::WriteProfileSummary(run, std::cout, StdoutWidth());
  std::cout << "\nwrote " << outputs[0] << ", " << outputs[1] << ", " << outputs[2] << '\n';
  if (options.keep_stream) std::cout << "sample stream kept at " << stream.Path() << '\n';
  return result.exit_code;
}

void SetUpProfile(CLI::App& command, RunFunction* run) {
  auto options = std::make_shared<ProfileOptions>();
  command.add_option("--api", options->api, "The program's API: cuda or cl")
      ->transform(CLI::Validator(ApiNameTransform(), "{cuda,vk,gl,cl}"));
  AddCounterSelectionOptions(command, &options->counters);
  command.add_option("-o,--output", options->prefix,
                     "Prefix of the files written: <prefix>.csv, <prefix>.json, <prefix>.trace.json")
      ->capture_default_str();
  command.add_flag("-f,--force", options->force, "Overwrite existing output files");
  command.add_flag("-q,--quiet", options->quiet, "No progress on stderr");
  command.add_flag("--keep-stream", options->keep_stream, "Keep the raw sample stream file (for debugging)");
  command.add_option("program", options->program, "The program and its arguments (after --)")->required();
  *run = [options] { return RunProfile(*options); };
}

const bool registered = RegisterCommand(
    {"profile", "Profile an unmodified CUDA or OpenCL program, one sample per kernel launch", &SetUpProfile});

}  // namespace
}  // namespace opengpa::cli
