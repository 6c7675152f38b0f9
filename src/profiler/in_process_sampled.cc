// The sampled session inside the calling process (include/opengpa/opengpa_profile.h: OpenGpaProfileStartSampled,
// ended by OpenGpaProfileStop), for Python's opengpa.profile(..., per_kernel=True, mode="sampled"). The pieces of
// `opengpa profile --mode sampled`, in one process instead of two: PM sampling on every GPU (pm_recording.h, which
// the CLI runs in its own process), the launches' timeline with their labels (kernel_timeline.h, which the CLI
// injects into the program), each launch's share of the samples (sampled_profile.h) and the profile JSON
// (profile_writers.h). No second engine: the CLI's rows and these are made by the same functions.
#include <dlfcn.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "nvidia/cuda_driver.h"
#include "nvidia/cupti_loader.h"
#include "profiler/counter_outputs.h"
#include "profiler/in_process_state.h"
#include "profiler/kernel_timeline.h"
#include "profiler/launch_filter.h"
#include "profiler/profile_api.h"
#include "profiler/profile_writers.h"
#include "profiler/sample_stream.h"
#include "profiler/sampled_counters.h"
#include "profiler/sampled_profile.h"
#ifdef OPENGPA_PROFILE_PM_SAMPLING
#include "profiler/pm_recording.h"
#endif

namespace opengpa::inject_cuda {

class SampledSession {
 public:
#ifdef OPENGPA_PROFILE_PM_SAMPLING
  std::unique_ptr<profiling::PmRecording> recording;
#endif
  std::string stream_path;
  std::string output_path;
  std::string kernel_name;
  profiling::SampledCounterPlan counters;  // the rows' columns as asked (sampled_counters.h)
  std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
};

namespace {

// `opengpa profile --mode sampled`'s default metrics (tools/opengpa/sampled_mode.h): DRAM traffic, which the H100
// keeps at a 5 µs interval without losing a record.
const char* const kDefaultMetrics = "dram__bytes_read.sum,dram__bytes_write.sum";
// Finer than the PM sampler's resolution or coarser than a second is no sampling interval anyone means.
constexpr double kMinIntervalUs = 0.5;
constexpr double kMaxIntervalUs = 1e6;

#ifdef OPENGPA_PROFILE_PM_SAMPLING
// The file the process's CUPTI functions come from (nvidia/cupti_loader.h), so that PM sampling uses the same
// libcupti as the timeline; empty when not known (the default candidates are tried then).
std::string LoadedCuptiPath() {
  std::string why;
  const DynamicLibrary* cupti = nvidia::LoadedCupti(&why);
  if (cupti == nullptr) return "";
  Dl_info info{};
  const void* function = cupti->Symbol("cuptiSubscribe");
  if (function == nullptr || dladdr(function, &info) == 0 || info.dli_fname == nullptr) return "";
  return info.dli_fname;
}

// The calling process's command line (/proc/self/cmdline), which the profile names as its command.
std::vector<std::string> OwnCommand() {
  std::ifstream cmdline("/proc/self/cmdline", std::ios::binary);
  std::vector<std::string> command;
  std::string argument;
  while (std::getline(cmdline, argument, '\0')) command.push_back(argument);
  if (command.empty()) command.emplace_back("(this process)");
  return command;
}
#endif

}  // namespace

#ifdef OPENGPA_PROFILE_PM_SAMPLING
bool StopSampledSession(SampledSessionPointer session, std::vector<InProcessLaunch>* launches, std::string* error) {
  std::vector<WrittenLabel> written;
  StopKernelTimeline(&written);
  std::string stop_error;
  const bool stopped = session->recording->Stop(&stop_error);
  profiling::ProfileRun run;
  bool ended = false;
  if (!profiling::ReadSampleStream(session->stream_path, &run, &ended, error)) return false;
  // The rows' indices are CUPTI's correlation ids until AttributeSampledRun numbers them in launch order.
  std::unordered_map<std::uint64_t, const profiling::LaunchLabel*> label_of;
  for (const WrittenLabel& label : written) label_of.emplace(label.first, &label.second);
  std::vector<const profiling::LaunchLabel*> row_labels;
  for (const profiling::Sample& sample : run.samples) {
    auto found = label_of.find(sample.index);
    row_labels.push_back(found == label_of.end() ? nullptr : found->second);
  }
  std::vector<profiling::GpuSampleSeries> series;
  for (const profiling::RecordedGpu& gpu : session->recording->Gpus()) series.push_back(gpu.series);
  profiling::AttributeSampledRun(series, session->recording->Columns(), session->recording->Kinds(),
                                 session->recording->interval_ns(), &run);
  for (const std::string& note : session->recording->CoverageNotes()) run.messages.push_back(note);
  if (!stopped) run.messages.push_back("PM sampling: " + stop_error);
  if (!ended) run.messages.emplace_back("the launches' timeline has no end record: launches may be missing");
  // Row i's label, by the index it now has (KeepChosenLaunches keeps indices).
  std::unordered_map<std::uint64_t, const profiling::LaunchLabel*> label_of_index;
  for (std::size_t row = 0; row < run.samples.size(); ++row) label_of_index[run.samples[row].index] = row_labels[row];
  if (!profiling::KeepChosenLaunches(session->kernel_name, 0, 0, &run, error)) return false;
  profiling::SetSampledOutputs(session->counters, &run);
  if (!profiling::EvaluateOutputs(&run, error)) return false;
  launches->clear();
  for (const profiling::Sample& sample : run.samples) {
    InProcessLaunch launch;
    launch.index = sample.index;
    launch.ranges = sample.nvtx;
    if (const profiling::LaunchLabel* label = label_of_index[sample.index]) {
      launch.context = label->context;
      launch.thread = label->thread;
      launch.host_ns = label->host_ns;
    }
    launches->push_back(std::move(launch));
  }
  run.command = OwnCommand();
  run.wall_time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - session->started).count();
  std::ofstream out(session->output_path);
  profiling::WriteProfileJson(run, out);
  if (!out.good()) {
    *error = "cannot write the profile " + session->output_path;
    return false;
  }
  return true;
}
#else
bool StopSampledSession(SampledSessionPointer, std::vector<InProcessLaunch>*, std::string* error) {
  *error = "this libOpenGPAProfile.so was built without CUPTI PM sampling";
  return false;
}
#endif

void SampledSessionDeleter::operator()(SampledSession* session) const { delete session; }

}  // namespace opengpa::inject_cuda

using namespace opengpa;
using namespace opengpa::inject_cuda;
using opengpa::profiler::Fail;
using opengpa::profiler::GuardedProfile;

OpenGpaProfileStatus OpenGpaProfileStartSampled(const OpenGpaProfileSampledOptions* options) {
  constexpr const char* kFunction = "OpenGpaProfileStartSampled";
  return GuardedProfile(kFunction, [&] {
    const std::string prefix = std::string(kFunction) + ": ";
    if (options == nullptr) return Fail(kOpenGpaProfileStatusErrorNullPointer, prefix + "options is NULL");
    if (options->struct_size < sizeof(OpenGpaProfileSampledOptions)) {
      return Fail(kOpenGpaProfileStatusErrorInvalidArgument,
                  prefix + "options->struct_size " + std::to_string(options->struct_size) +
                      " is less than this version's sizeof(OpenGpaProfileSampledOptions), " +
                      std::to_string(sizeof(OpenGpaProfileSampledOptions)));
    }
    const char* metric_text =
        options->metrics != nullptr && *options->metrics != '\0' ? options->metrics : kDefaultMetrics;
    const std::vector<std::string> metrics = profiler::SplitCounterNames(metric_text);
    if (metrics.empty()) return Fail(kOpenGpaProfileStatusErrorInvalidArgument, prefix + "options->metrics names none");
    profiling::SampledCounterPlan counters;
    std::string plan_error;
    if (!profiling::PlanSampledCounters(metrics, &counters, &plan_error)) {
      return Fail(kOpenGpaProfileStatusErrorInvalidArgument, prefix + plan_error);
    }
    const double interval_us =
        options->interval_us == 0.0 ? profiling::DefaultSampledIntervalUs(counters) : options->interval_us;
    if (!(interval_us >= kMinIntervalUs && interval_us <= kMaxIntervalUs)) {
      return Fail(kOpenGpaProfileStatusErrorInvalidArgument, prefix + "options->interval_us " +
                                                                 std::to_string(options->interval_us) +
                                                                 " is outside 0.5 to 1,000,000 microseconds");
    }
    for (const auto& [path, name] :
         {std::pair{options->stream_path, "stream_path"}, std::pair{options->output_path, "output_path"}}) {
      if (path == nullptr || *path == '\0') {
        return Fail(kOpenGpaProfileStatusErrorInvalidArgument, prefix + "options->" + name + " is empty");
      }
    }
    const std::string kernel_name = options->kernel_name != nullptr ? options->kernel_name : "";
    std::string error;
    profiling::LaunchFilter filter;
    if (!profiling::LaunchFilter::Create(kernel_name, 0, 0, &filter, &error)) {
      return Fail(kOpenGpaProfileStatusErrorInvalidArgument, prefix + error);
    }
    InProcessState& state = InProcess();
    if (state.running) return Fail(kOpenGpaProfileStatusErrorAlreadyRunning, prefix + "a session is already running");
    if (nvidia::LoadCudaDriver() == nullptr) {
      return Fail(kOpenGpaProfileStatusErrorNoDriver,
                  prefix + "no CUDA driver (libcuda.so.1) on this machine: the sampled mode needs a GPU");
    }
#ifndef OPENGPA_PROFILE_PM_SAMPLING
    static_cast<void>(interval_us);
    return Fail(kOpenGpaProfileStatusErrorFailed,
                prefix +
                    "this libOpenGPAProfile.so was built without CUPTI PM sampling (the CUDA toolkit's "
                    "cupti_pmsampling.h was not found): the sampled mode is not available");
#else
    SampledSessionPointer session(new SampledSession);
    session->stream_path = options->stream_path;
    session->output_path = options->output_path;
    session->kernel_name = kernel_name;
    session->counters = counters;
    std::FILE* file = std::fopen(options->stream_path, "w");
    if (file == nullptr) {
      return Fail(kOpenGpaProfileStatusErrorFailed, prefix + "cannot write the timeline " + options->stream_path);
    }
    auto stream = std::make_unique<profiling::SampleStreamWriter>(file);
    // Sampling starts before the timeline, so that the first launch is inside samples.
    profiling::PmRecordingOptions recording;
    recording.metrics = counters.pm_metrics;
    recording.interval_ns = static_cast<std::uint64_t>(std::llround(interval_us * 1000.0));
    const std::string cupti = LoadedCuptiPath();
    if (!cupti.empty()) recording.cupti_candidates = {cupti};
    if (!profiling::PmRecording::Start(recording, &session->recording, &error)) {
      return Fail(kOpenGpaProfileStatusErrorFailed, prefix + error);
    }
    TimelineLabels labels;
    labels.open_ranges = [] { return OpenRangesOfThisThread(); };
    if (options->with_nvtx != 0) labels.on_nvtx = &FollowNvtx;
    labels.from_start = true;  // Python's regions label launches whether or not NVTX is used
    labels.keep = true;        // the rows' threads and host times, for GetLaunches
    if (!StartKernelTimeline(std::move(stream), std::move(labels), &error)) {
      session.reset();  // stops the PM sampling
      return Fail(kOpenGpaProfileStatusErrorFailed, prefix + error);
    }
    {
      std::lock_guard<std::mutex> lock(state.mutex);
      state.launches.clear();
    }
    state.sampled = std::move(session);
    state.running = true;
    return kOpenGpaProfileStatusOk;
#endif
  });
}
