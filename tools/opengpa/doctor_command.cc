// `opengpa doctor`: proves each API's GPA library against work of known size before anyone relies on its counters
// (docs/doctor.md). For each API it runs that API's probe (tools/opengpa/doctor, a separate executable in
// libexec/opengpa) with the library folders this CLI would load from, gathers the probes' reports, prints them as
// a table or JSON (docs/schema/doctor.schema.json) and exits with doctor_report.h's code.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "api_name.h"
#include "choice_option.h"
#include "client/gpa_library_search.h"
#include "command_registry.h"
#include "doctor_probe_run.h"
#include "doctor_report.h"
#include "doctor_table.h"
#include "library_path.h"
#include "name_matching.h"
#include "number_option.h"
#include "output_file.h"
#include "terminal.h"

#ifndef OPENGPA_VERSION
#define OPENGPA_VERSION "unknown"
#endif

namespace opengpa::cli {
namespace {

enum class DoctorFormat { kTable, kJson };

// What the doctor checks, in order: the GPA libraries' APIs, then the monitor (libOpenGPAMonitor.so).
const std::vector<std::string> kDoctorApis = {"cuda", "vk", "gl", "cl", "monitor"};

struct DoctorOptions {
  std::vector<std::string> apis;  // short names of kDoctorApis; empty: all
  bool quick = false;
  DoctorFormat format = DoctorFormat::kTable;
  std::string output;
  bool force = false;
  std::string library_dir;
  double timeout_seconds = 120;
  bool verbose = false;
};

// --api's value as a short name of kDoctorApis: the CLI's API names (api_name.h, any case, long spellings too) or
// "monitor"; an unknown name is refused naming it and the choices.
std::function<std::string(std::string&)> DoctorApiTransform() {
  return [](std::string& value) -> std::string {
    const std::string lower = LowerCase(value);
    if (lower == "monitor") {
      value = lower;
      return {};
    }
    const auto names = ApiNames();
    const auto found = names.find(lower);
    if (found == names.end()) return "unknown API '" + value + "' (choose cuda, vk, gl, cl or monitor)";
    value = std::string(ApiShortName(found->second));
    return {};
  };
}

// The probes live in libexec/opengpa beside the executable's bin/ (the build tree and an install alike).
std::string ProbePath(const std::string& api) {
  return client::ExecutableDirectory() + "/../libexec/opengpa/opengpa-doctor-" + api;
}

std::vector<std::string> ProbeArguments(const DoctorOptions& options, const std::string& api) {
  std::vector<std::string> argv = {ProbePath(api)};
  if (options.quick) argv.emplace_back("--quick");
  if (options.verbose) argv.emplace_back("--verbose");
  if (!options.library_dir.empty()) {
    argv.insert(argv.end(), {"--library-dir", options.library_dir});
  } else {
    // Where `opengpa list` and the other commands load from (gpa_library.cc), then the loader's path.
    for (const std::string& folder : {LibraryDirectoryBesideExecutable(), client::ExecutableDirectory()}) {
      if (!folder.empty()) argv.insert(argv.end(), {"--folder", folder});
    }
  }
  return argv;
}

nlohmann::json CheckBackend(const DoctorOptions& options, const std::string& api) {
  const std::string probe = ProbePath(api);
  if (access(probe.c_str(), X_OK) != 0) return BackendNotBuilt(api, probe);
  const ProbeRun run = RunProbeProcess(ProbeArguments(options, api), options.timeout_seconds);
  if (options.verbose && !run.err.empty()) std::cerr << "opengpa doctor: the " << api << " probe said:\n" << run.err;
  return BackendFromProbeRun(api, probe, run);
}

int RunDoctor(DoctorOptions options) {
  std::string error;
  if (!CheckOutputPath("-o", options.output, options.force, &error)) {
    std::cerr << "opengpa doctor: " << error << '\n';
    return 1;
  }
  if (options.library_dir.empty()) {
    // The folder Python's opengpa package also honours; ignored in set-user-id programs.
    if (const char* folder = secure_getenv("OPENGPA_LIBRARY_DIR"); folder != nullptr) options.library_dir = folder;
  }
  std::vector<std::string> apis;
  for (const std::string& api : kDoctorApis) {
    if (options.apis.empty() || std::find(options.apis.begin(), options.apis.end(), api) != options.apis.end()) {
      apis.push_back(api);
    }
  }

  const auto start = std::chrono::steady_clock::now();
  nlohmann::json document;
  document["schema"] = "opengpa-doctor/1";
  document["opengpa_version"] = OPENGPA_VERSION;
  document["quick"] = options.quick;
  document["library_dir"] = options.library_dir.empty() ? nlohmann::json(nullptr) : nlohmann::json(options.library_dir);
  document["backends"] = nlohmann::json::array();
  for (const std::string& api : apis) {
    if (options.format == DoctorFormat::kTable && (options.output.empty() || options.output == "-") &&
        isatty(STDERR_FILENO)) {
      std::cerr << "opengpa doctor: checking " << api << "...\n";
    }
    document["backends"].push_back(CheckBackend(options, api));
  }
  document["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const int exit_code = DoctorExitCode(document["backends"]);
  document["exit_code"] = exit_code;

  OutputFile file("-o", options.output, options.force, &error);
  std::ostream* out = file.Stream();
  if (out == nullptr) {
    std::cerr << "opengpa doctor: " << error << '\n';
    return 1;
  }
  if (options.format == DoctorFormat::kJson) {
    *out << document.dump(2) << '\n';
  } else {
    WriteDoctorTable(document, options.output.empty() || options.output == "-" ? StdoutWidth() : 0, *out);
  }
  if (!file.Finish(&error)) {
    std::cerr << "opengpa doctor: " << error << '\n';
    return 1;
  }
  return exit_code;
}

void SetUpDoctor(CLI::App& command, RunFunction* run) {
  auto options = std::make_shared<DoctorOptions>();
  command.add_option("--api", options->apis, "Check only this API (repeatable): cuda, vk, gl, cl, monitor")
      ->transform(CLI::Validator(DoctorApiTransform(), "{cuda,vk,gl,cl,monitor}"));
  command.add_flag("--quick", options->quick, "Only the fastest check of each kind (for CI images)");
  command.add_option("--format", options->format, "table (default) or json")
      ->transform(
          ChoiceOf(std::map<std::string, DoctorFormat>{{"table", DoctorFormat::kTable}, {"json", DoctorFormat::kJson}},
                   "format"));
  command.add_option("-o,--output", options->output, "Write to this file instead of stdout");
  command.add_flag("-f,--force", options->force, "Overwrite an existing --output file");
  command.add_option("--library-dir", options->library_dir,
                     "Load the GPA libraries from this folder only (default: $OPENGPA_LIBRARY_DIR, else where "
                     "`opengpa list` loads them)");
  command.add_option("--timeout", options->timeout_seconds, "Seconds each API's probe may take (default 120)")
      ->check(NumberOf("seconds", /*zero_allowed=*/false));
  command.add_flag("-v,--verbose", options->verbose, "Print GPA's messages and each probe's own output on stderr");
  *run = [options] { return RunDoctor(*options); };
}

const bool registered = RegisterCommand(
    {"doctor", "Check each API's counters against work of known size and explain every failure", &SetUpDoctor});

}  // namespace
}  // namespace opengpa::cli
