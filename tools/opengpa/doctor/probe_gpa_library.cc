#include "probe_gpa_library.h"

#include <cstdio>
#include <mutex>

#include "client/gpa_library_search.h"
#include "gpa_failure_causes.h"

namespace opengpa::doctor {
namespace {

std::mutex log_mutex;
std::vector<std::string> error_log;
bool verbose_log = false;

void KeepGpaLog(GpaLoggingType type, const char* message) {
  const std::string text = message ? message : "";
  if ((type & kGpaLoggingError) != 0) {
    std::lock_guard<std::mutex> lock(log_mutex);
    error_log.push_back(text);
  }
  if (verbose_log) std::fprintf(stderr, "GPA: %s\n", text.c_str());
}

std::string VersionOf(const GpaFunctionTable& table) {
  if (table.GpaGetVersion == nullptr) return {};
  GpaUInt32 major = 0, minor = 0, build = 0, update = 0;
  if (table.GpaGetVersion(&major, &minor, &build, &update) != kGpaStatusOk) return {};
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(build) + "." +
         std::to_string(update);
}

}  // namespace

LibraryCandidatePaths SearchPaths(const GpaSearch& search, const std::string& file_name) {
  const auto in = [&file_name](std::string folder) { return folder.append("/").append(file_name); };
  LibraryCandidatePaths candidates;
  if (!search.library_dir.empty()) {
    candidates.paths.push_back(in(search.library_dir));
    candidates.tried = candidates.paths;
    return candidates;
  }
  for (const std::string& folder : search.folders) candidates.tried.push_back(in(folder));
  candidates.paths = client::GpaLibraryPaths(file_name, "", search.folders);
  candidates.tried.push_back(file_name + " on the dynamic loader's path");
  return candidates;
}

std::vector<std::string> ProbeGpaLibrary::ErrorLog() {
  std::lock_guard<std::mutex> lock(log_mutex);
  return error_log;
}

void ProbeGpaLibrary::ClearLog() {
  std::lock_guard<std::mutex> lock(log_mutex);
  error_log.clear();
}

Cause ProbeGpaLibrary::Explain(const opengpa::Error& failure) {
  const std::string what = failure.what();
  const std::size_t split = what.find(" failed: ");
  if (split == std::string::npos) return ExplainGpaFailure(what, "an error", ErrorLog());
  return ExplainGpaFailure(what.substr(0, split), what.substr(split + 9), ErrorLog());
}

std::unique_ptr<ProbeGpaLibrary> ProbeGpaLibrary::Load(GpaApiType api, const GpaSearch& search, ProbeReport* report) {
  verbose_log = search.verbose;
  const std::string file = client::GpaLibraryFileName(api);
  const auto [paths, tried] = SearchPaths(search, file);
  std::string load_errors;
  std::unique_ptr<client::LoadedGpaLibrary> loaded = client::LoadedGpaLibrary::Load(paths, &load_errors);
  if (loaded == nullptr) {
    report->SetGpaLibraryTried(tried);
    report->AddCause(ExplainLibraryNotLoaded(file, tried, load_errors, !search.library_dir.empty()));
    return nullptr;
  }
  const GpaFunctionTable& table = loaded->Table();
  report->SetGpaLibrary(loaded->Path(), tried, VersionOf(table));
  table.GpaRegisterLoggingCallback(kGpaLoggingErrorAndMessage, &KeepGpaLog);
  auto library = std::make_unique<ProbeGpaLibrary>(std::move(loaded));
  try {
    library->initialized_.emplace(&library->loaded_->Table());
  } catch (const opengpa::Error& failure) {
    report->AddCause(Explain(failure));
    return nullptr;
  }
  return library;
}

}  // namespace opengpa::doctor
