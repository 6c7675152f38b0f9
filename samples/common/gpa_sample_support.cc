#include "gpa_sample_support.h"

#include <cstdio>
#include <iostream>

#include "client/gpa_library_search.h"

namespace opengpa::sample {

bool ParseFlagValues(int argc, char** argv, const FlagHandlers& handlers) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (i + 1 >= argc) return false;
    const std::string value = argv[++i];
    auto handler = handlers.find(arg);
    if (handler == handlers.end()) return false;
    handler->second(value);
  }
  return true;
}

void LogToStderr(GpaLoggingType type, const char* message) {
  std::fprintf(stderr, "[GPA %s] %s\n", type == kGpaLoggingError ? "error" : "info", message);
}

std::unique_ptr<client::LoadedGpaLibrary> LoadGpa(client::ApiNumber api, const std::string& gpa_lib,
                                                  const char* program) {
  const std::string file = client::GpaLibraryFileName(api);
  std::string error;
  std::unique_ptr<client::LoadedGpaLibrary> library =
      client::LoadedGpaLibrary::Load(client::GpaLibraryPaths(file, gpa_lib, client::FoldersBesideExecutable()), &error);
  if (library == nullptr) {
    std::cerr << program << ": cannot load " << file << ":" << error << "\n  build it, or pass --gpa-lib PATH\n";
    return nullptr;
  }
  library->Table().GpaRegisterLoggingCallback(kGpaLoggingError, LogToStderr);
  return library;
}

std::vector<EnabledCounter> EnabledCounters(const opengpa::Session& session) {
  std::vector<EnabledCounter> counters;
  for (GpaUInt32 index : session.EnabledCounters()) {
    const opengpa::CounterInfo info = session.context().Counter(index);
    counters.push_back({info.name, info.data_type});
  }
  return counters;
}

CsvOutput::CsvOutput(const std::string& path) : to_stdout_(path.empty()) {
  if (!to_stdout_) file_.open(path);
}

}  // namespace opengpa::sample
