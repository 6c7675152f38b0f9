#include "gpa_sample_support.h"

#include <cstdio>
#include <iostream>

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

std::string DefaultLibraryFolder(const char* argv0) {
  std::string self = argv0;
  const std::size_t slash = self.rfind('/');
  return slash == std::string::npos ? "../../lib" : self.substr(0, slash) + "/../../lib";
}

const GpaFunctionTable* LoadGpa(GpaApiType api, const std::string& gpa_lib, const char* argv0, const char* program,
                                const char* library_file) {
  GpaApiManager* manager = GpaApiManager::Instance();
  const std::string library = gpa_lib.empty() ? DefaultLibraryFolder(argv0) : gpa_lib;
  if (manager->LoadApi(api, library) != kGpaStatusOk && manager->LoadApi(api) != kGpaStatusOk) {
    std::cerr << program << ": cannot load " << library_file << ": " << manager->GetLastError()
              << "\n  build it, or pass --gpa-lib PATH\n";
    return nullptr;
  }
  const GpaFunctionTable* gpa = manager->GetFunctionTable(api);
  gpa->GpaRegisterLoggingCallback(kGpaLoggingError, LogToStderr);
  return gpa;
}

std::vector<EnabledCounter> EnabledCounters(const GpaFunctionTable& gpa, GpaContextId context, GpaSessionId session) {
  GpaUInt32 enabled = 0;
  gpa.GpaGetNumEnabledCounters(session, &enabled);
  std::vector<EnabledCounter> counters(enabled);
  for (GpaUInt32 e = 0; e < enabled; ++e) {
    GpaUInt32 index = 0;
    const char* name = nullptr;
    gpa.GpaGetEnabledIndex(session, e, &index);
    gpa.GpaGetCounterName(context, index, &name);
    gpa.GpaGetCounterDataType(context, index, &counters[e].type);
    counters[e].name = name;
  }
  return counters;
}

CsvOutput::CsvOutput(const std::string& path) : to_stdout_(path.empty()) {
  if (!to_stdout_) file_.open(path);
}

}  // namespace opengpa::sample
