#include "profiler/profile_environment.h"

#include <algorithm>
#include <cstdlib>

namespace opengpa::profiling {
namespace {

bool ReadCount(const char* variable, std::uint64_t* value, std::string* error) {
  const char* text = std::getenv(variable);
  if (text == nullptr || *text == '\0') return true;
  char* end = nullptr;
  const unsigned long long parsed = std::strtoull(text, &end, 10);
  if (*end != '\0' || text[0] == '-') {
    *error = std::string(variable) + "=" + text + " is not a count";
    return false;
  }
  *value = parsed;
  return true;
}

}  // namespace

std::string_view ReplayModeName(ReplayMode mode) {
  switch (mode) {
    case ReplayMode::kNone: return "none";
    case ReplayMode::kKernel: return "kernel";
    case ReplayMode::kApplication: return "application";
    case ReplayMode::kAuto: return "auto";
  }
  return "auto";
}

std::optional<ReplayMode> ParseReplayMode(std::string_view text) {
  for (ReplayMode mode : {ReplayMode::kNone, ReplayMode::kKernel, ReplayMode::kApplication, ReplayMode::kAuto}) {
    if (text == ReplayModeName(mode)) return mode;
  }
  return std::nullopt;
}

std::string_view RangeModeName(RangeMode mode) { return mode == RangeMode::kNvtx ? "nvtx" : "kernel"; }

std::optional<RangeMode> ParseRangeMode(std::string_view text) {
  for (RangeMode mode : {RangeMode::kKernel, RangeMode::kNvtx}) {
    if (text == RangeModeName(mode)) return mode;
  }
  return std::nullopt;
}

std::string_view GraphProfilingName(GraphProfiling mode) { return mode == GraphProfiling::kGraph ? "graph" : "node"; }

std::optional<GraphProfiling> ParseGraphProfiling(std::string_view text) {
  for (GraphProfiling mode : {GraphProfiling::kNode, GraphProfiling::kGraph}) {
    if (text == GraphProfilingName(mode)) return mode;
  }
  return std::nullopt;
}

std::map<std::string, std::string> SettingsEnvironment(const ProfileSettings& settings) {
  std::map<std::string, std::string> environment;
  environment[kReplayVariable] = std::string(ReplayModeName(settings.replay));
  environment[kPassVariable] = std::to_string(settings.pass);
  environment[kCacheControlVariable] = settings.flush_caches ? "all" : "none";
  environment[kKernelNameVariable] = settings.kernel_name;
  environment[kLaunchSkipVariable] = std::to_string(settings.launch_skip);
  environment[kLaunchCountVariable] = std::to_string(settings.launch_count);
  std::string specs;
  for (const auto& spec : settings.nvtx_include) specs += (specs.empty() ? "" : "\n") + spec;
  environment[kNvtxIncludeVariable] = specs;
  environment[kRangeModeVariable] = std::string(RangeModeName(settings.range_mode));
  environment[kGraphProfilingVariable] = std::string(GraphProfilingName(settings.graph_profiling));
  environment[kModeVariable] = settings.sampled ? "sampled" : "exact";
  environment[kCollectiveKernelVariable] = settings.collective_kernel;
  return environment;
}

bool SettingsFromEnvironment(ProfileSettings* settings, std::string* error) {
  if (const char* replay = std::getenv(kReplayVariable); replay != nullptr && *replay != '\0') {
    const auto mode = ParseReplayMode(replay);
    if (!mode) {
      *error = std::string(kReplayVariable) + "=" + replay + " is not one of none, kernel, application, auto";
      return false;
    }
    settings->replay = *mode;
  }
  if (const char* cache = std::getenv(kCacheControlVariable); cache != nullptr && *cache != '\0') {
    const std::string value = cache;
    if (value != "all" && value != "none") {
      *error = std::string(kCacheControlVariable) + "=" + value + " is not all or none";
      return false;
    }
    settings->flush_caches = value == "all";
  }
  if (const char* range = std::getenv(kRangeModeVariable); range != nullptr && *range != '\0') {
    const auto mode = ParseRangeMode(range);
    if (!mode) {
      *error = std::string(kRangeModeVariable) + "=" + range + " is not kernel or nvtx";
      return false;
    }
    settings->range_mode = *mode;
  }
  if (const char* graphs = std::getenv(kGraphProfilingVariable); graphs != nullptr && *graphs != '\0') {
    const auto mode = ParseGraphProfiling(graphs);
    if (!mode) {
      *error = std::string(kGraphProfilingVariable) + "=" + graphs + " is not node or graph";
      return false;
    }
    settings->graph_profiling = *mode;
  }
  if (const char* mode = std::getenv(kModeVariable); mode != nullptr && *mode != '\0') {
    const std::string value = mode;
    if (value != "exact" && value != "sampled") {
      *error = std::string(kModeVariable) + "=" + value + " is not exact or sampled";
      return false;
    }
    settings->sampled = value == "sampled";
  }
  if (const char* name = std::getenv(kKernelNameVariable)) settings->kernel_name = name;
  if (const char* name = std::getenv(kCollectiveKernelVariable)) settings->collective_kernel = name;
  settings->nvtx_include.clear();
  if (const char* specs = std::getenv(kNvtxIncludeVariable)) {
    const std::string text = specs;
    for (std::size_t start = 0; start < text.size();) {
      const std::size_t newline = std::min(text.find('\n', start), text.size());
      if (newline > start) settings->nvtx_include.push_back(text.substr(start, newline - start));
      start = newline + 1;
    }
  }
  std::uint64_t pass = 0;
  if (!ReadCount(kPassVariable, &pass, error) || !ReadCount(kLaunchSkipVariable, &settings->launch_skip, error) ||
      !ReadCount(kLaunchCountVariable, &settings->launch_count, error)) {
    return false;
  }
  settings->pass = static_cast<std::uint32_t>(pass);
  return true;
}

}  // namespace opengpa::profiling
