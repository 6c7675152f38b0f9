#include "doctor_report.h"

#include <csignal>
#include <cstring>

namespace opengpa::cli {
namespace {

// What a shared library the probe needs at start belongs to, for the absent reason.
std::string WhatLibraryIs(const std::string& library) {
  if (library.rfind("libvulkan", 0) == 0) return "the Vulkan loader";
  if (library.rfind("libEGL", 0) == 0 || library.rfind("libOpenGL", 0) == 0 || library.rfind("libGLdispatch", 0) == 0) {
    return "EGL / OpenGL (libglvnd)";
  }
  if (library.rfind("libOpenCL", 0) == 0) return "the OpenCL ICD loader";
  return "a library the probe needs";
}

// The library named in the dynamic loader's "error while loading shared libraries: <name>: ..." message.
std::string MissingSharedLibrary(const std::string& stderr_text) {
  const std::string marker = "error while loading shared libraries: ";
  const std::size_t at = stderr_text.find(marker);
  if (at == std::string::npos) return {};
  const std::size_t begin = at + marker.size();
  return stderr_text.substr(begin, stderr_text.find(':', begin) - begin);
}

// The last lines of the probe's stderr, for a cause's message.
std::string Tail(const std::string& text, std::size_t lines) {
  std::size_t at = text.size();
  while (at > 0 && text[at - 1] == '\n') --at;
  const std::size_t end = at;
  for (std::size_t seen = 0; at > 0; --at) {
    if (text[at - 1] == '\n' && ++seen == lines) break;
  }
  return text.substr(at, end - at);
}

nlohmann::json Entry(const std::string& api, const std::string& status) {
  return {{"api", api},
          {"status", status},
          {"gpa_library", {{"tried", nlohmann::json::array()}}},
          {"driver", nlohmann::json::object()},
          {"checks", nlohmann::json::array()},
          {"causes", nlohmann::json::array()}};
}

nlohmann::json Unusable(const std::string& api, const std::string& id, const std::string& message,
                        const std::string& fix) {
  nlohmann::json entry = Entry(api, "unusable");
  entry["causes"].push_back({{"id", id}, {"message", message}, {"fix", fix}});
  return entry;
}

}  // namespace

nlohmann::json BackendNotBuilt(const std::string& api, const std::string& probe_path) {
  nlohmann::json entry = Entry(api, "absent");
  entry["reason"] = "this opengpa was built without " + api + " (no " + probe_path + ")";
  return entry;
}

nlohmann::json BackendFromProbeRun(const std::string& api, const std::string& probe_path, const ProbeRun& run) {
  const std::string rerun = "run the probe alone to see everything it prints: " + probe_path + " --verbose";
  nlohmann::json entry;
  if (!run.started) {
    entry = Unusable(api, "probe_not_started", "the " + api + " probe could not be started: " + run.start_error,
                     "reinstall OpenGPA: its probes belong in libexec/opengpa beside bin/opengpa");
  } else if (run.timed_out) {
    entry = Unusable(api, "probe_timed_out",
                     "the " + api + " probe did not finish in " + std::to_string(static_cast<int>(run.seconds)) +
                         " s and was killed; last output: " + Tail(run.err, 3),
                     "the driver or device hangs on a small workload: check it with the API's own tools "
                     "(vulkaninfo, eglinfo, clinfo, nvidia-smi); raise --timeout for a very slow device; " +
                         rerun);
  } else if (run.signal != 0) {
    entry = Unusable(api, "probe_crashed",
                     "the " + api + " probe was ended by signal " + std::to_string(run.signal) + " (" +
                         strsignal(run.signal) + ") inside the driver or GPA; last output: " + Tail(run.err, 3),
                     rerun + "; report it with that output");
  } else if (const std::string missing = MissingSharedLibrary(run.err); !missing.empty()) {
    entry = Entry(api, "absent");
    entry["reason"] =
        missing + " (" + WhatLibraryIs(missing) + ") is not installed: the dynamic loader did not find it";
  } else {
    const std::string first_line = run.out.substr(0, run.out.find('\n'));
    entry = nlohmann::json::parse(first_line, nullptr, /*allow_exceptions=*/false);
    if (entry.is_discarded() || !entry.is_object() || !entry.contains("status")) {
      entry = Unusable(api, "probe_output_unreadable",
                       "the " + api + " probe exited with " + std::to_string(run.exit_code) +
                           " without a report; it said: " + Tail(run.err, 3),
                       rerun);
    }
  }
  entry["api"] = api;
  entry["probe"] = {{"path", probe_path}, {"seconds", run.seconds}};
  if (!run.err.empty()) entry["probe"]["stderr_tail"] = Tail(run.err, 5);
  return entry;
}

int DoctorExitCode(const nlohmann::json& backends) {
  bool unusable = false, failed = false, present = false;
  for (const auto& backend : backends) {
    const std::string status = backend.value("status", "");
    unusable = unusable || status == "unusable";
    failed = failed || status == "fail";
    present = present || status != "absent";
  }
  if (unusable) return kDoctorBackendUnusable;
  if (failed) return kDoctorCheckFailed;
  return present ? kDoctorPassed : kDoctorNothingPresent;
}

}  // namespace opengpa::cli
