// What `opengpa profile` tells the library it loads into the program, beyond the stream and the counters
// (sample_stream.h): how to replay, whether to flush caches, which launches to profile. Each setting is
// one environment variable, written by the CLI and read by the injected library, so both sides share
// these names and their parsing.
//
//   OPENGPA_PROFILE_REPLAY         none | kernel | application | auto      (default auto)
//   OPENGPA_PROFILE_PASS           application replay: the pass this run of the program collects (from 0)
//   OPENGPA_PROFILE_CACHE_CONTROL  all | none: flush and invalidate the L2 before every profiled launch
//   OPENGPA_PROFILE_KERNEL_NAME    ECMAScript regular expression searched in the demangled kernel name
//   OPENGPA_PROFILE_LAUNCH_SKIP    matching launches left unprofiled before the first profiled one
//   OPENGPA_PROFILE_LAUNCH_COUNT   matching launches profiled at most (0: no limit)
//   OPENGPA_PROFILE_NVTX_INCLUDE   --nvtx-include specs (nvtx_filter.h), one per line
//   OPENGPA_PROFILE_RANGE_MODE     kernel | nvtx: one sample per kernel launch or per NVTX push/pop range
//   OPENGPA_PROFILE_GRAPH_PROFILING node | graph: a CUDA graph launch is one sample per kernel node, or
//                                  one sample in all
//   OPENGPA_PROFILE_MODE           exact | sampled: counters per launch in ranges, or the launches' own times
//                                  only (kernel_timeline.h) while the CLI samples the GPU (sampled_attribution.h)
//   OPENGPA_PROFILE_COLLECTIVE_KERNEL  regular expression naming kernels that wait for peers, beside NCCL's
//                                  (collective_kernels.h)
#ifndef OPENGPA_PROFILER_PROFILE_ENVIRONMENT_H_
#define OPENGPA_PROFILER_PROFILE_ENVIRONMENT_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace opengpa::profiling {

inline constexpr const char* kReplayVariable = "OPENGPA_PROFILE_REPLAY";
inline constexpr const char* kPassVariable = "OPENGPA_PROFILE_PASS";
inline constexpr const char* kCacheControlVariable = "OPENGPA_PROFILE_CACHE_CONTROL";
inline constexpr const char* kKernelNameVariable = "OPENGPA_PROFILE_KERNEL_NAME";
inline constexpr const char* kLaunchSkipVariable = "OPENGPA_PROFILE_LAUNCH_SKIP";
inline constexpr const char* kLaunchCountVariable = "OPENGPA_PROFILE_LAUNCH_COUNT";
inline constexpr const char* kNvtxIncludeVariable = "OPENGPA_PROFILE_NVTX_INCLUDE";
inline constexpr const char* kRangeModeVariable = "OPENGPA_PROFILE_RANGE_MODE";
inline constexpr const char* kGraphProfilingVariable = "OPENGPA_PROFILE_GRAPH_PROFILING";
inline constexpr const char* kModeVariable = "OPENGPA_PROFILE_MODE";
inline constexpr const char* kCollectiveKernelVariable = "OPENGPA_PROFILE_COLLECTIVE_KERNEL";

// ncu's names: none runs once with no replay (one-pass sets), kernel lets CUPTI replay each launch once per
// pass, application runs the whole program once per pass, auto picks the cheapest of them that is correct.
enum class ReplayMode { kNone, kKernel, kApplication, kAuto };

std::string_view ReplayModeName(ReplayMode mode);
std::optional<ReplayMode> ParseReplayMode(std::string_view text);

// ncu's --range-mode: what one sample spans, a kernel launch or an NVTX push/pop range (nvtx_sample_ranges.h).
enum class RangeMode { kKernel, kNvtx };

std::string_view RangeModeName(RangeMode mode);
std::optional<RangeMode> ParseRangeMode(std::string_view text);

// ncu's --graph-profiling: each kernel node of a CUDA graph launch a sample of its own (graph_expansion.h),
// or the whole launch one sample (graph_sampling.h).
enum class GraphProfiling { kNode, kGraph };

std::string_view GraphProfilingName(GraphProfiling mode);
std::optional<GraphProfiling> ParseGraphProfiling(std::string_view text);

struct ProfileSettings {
  ReplayMode replay = ReplayMode::kAuto;
  std::uint32_t pass = 0;    // application replay: which pass this run collects
  bool flush_caches = true;  // --cache-control all
  std::string kernel_name;   // regular expression; empty: every kernel
  std::uint64_t launch_skip = 0;
  std::uint64_t launch_count = 0;         // 0: no limit
  std::vector<std::string> nvtx_include;  // nvtx_filter.h; empty: launches in any range or none
  RangeMode range_mode = RangeMode::kKernel;
  GraphProfiling graph_profiling = GraphProfiling::kNode;
  // `opengpa profile --mode sampled`: no ranges, no replay, no serialization; the library records each launch's
  // start and end, and the CLI attributes the GPU's PM samples to them.
  bool sampled = false;
  // --collective-kernel: kernels that wait for peers beside NCCL's (collective_kernels.h); empty: NCCL's only.
  std::string collective_kernel;
};

// The variables that carry `settings`.
std::map<std::string, std::string> SettingsEnvironment(const ProfileSettings& settings);

// Reads the variables; false and *error naming the variable and its value when one does not parse.
bool SettingsFromEnvironment(ProfileSettings* settings, std::string* error);

}  // namespace opengpa::profiling

#endif  // OPENGPA_PROFILER_PROFILE_ENVIRONMENT_H_
