// The sample stream: how a library loaded into the profiled program (CUDA injection, OpenCL interception)
// hands its measurements to `opengpa profile`. One JSON object per line, appended as samples complete, so
// the CLI can show progress while the program runs and a crash loses at most the last line:
//
//   {"type":"header","api":"cl","counters":[{"name":"GPUTime","usage":"nanoseconds","data_type":"float64"}]}
//   CUDA headers add "outputs" (the counters asked for, as formulas over "counters"), "constants" and the
//   replay: {"replay":"application","pass":1,"passes":3}
//   {"type":"queue","id":0,"name":"queue 0","device":"cpu-haswell-..."}
//   {"type":"sample","index":0,"name":"vector_add","queue":0,"grid":[1024,1,1],"block":[64,1,1],
//    "start_ns":..., "end_ns":..., "values":[12345]}
//   {"type":"message","text":"..."}
//   {"type":"end","samples":N}
//
// The environment names the stream and the counters (set by the CLI, read by the injected library):
//   OPENGPA_PROFILE_OUTPUT    path of the stream file (required)
//   OPENGPA_PROFILE_COUNTERS  comma-separated counter names
#ifndef OPENGPA_TOOLS_OPENGPA_PROFILING_SAMPLE_STREAM_H_
#define OPENGPA_TOOLS_OPENGPA_PROFILING_SAMPLE_STREAM_H_

#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "profile_run.h"

namespace opengpa::profiling {

inline constexpr const char* kStreamPathVariable = "OPENGPA_PROFILE_OUTPUT";
inline constexpr const char* kCountersVariable = "OPENGPA_PROFILE_COUNTERS";

// Thread-safe appender used inside the profiled program. Each line is flushed as written.
class SampleStreamWriter {
 public:
  // Opens $OPENGPA_PROFILE_OUTPUT for appending; nullptr when unset or not writable.
  static std::unique_ptr<SampleStreamWriter> FromEnvironment();
  explicit SampleStreamWriter(std::FILE* file) : file_(file) {}
  ~SampleStreamWriter();
  SampleStreamWriter(const SampleStreamWriter&) = delete;
  SampleStreamWriter& operator=(const SampleStreamWriter&) = delete;

  void WriteHeader(const std::string& api, const std::vector<ProfiledCounter>& counters);
  // The header with what a run carries beyond its columns: outputs, constants, replay, pass and passes.
  void WriteHeader(const ProfileRun& description);
  void WriteQueue(const Queue& queue);
  void WriteSample(const Sample& sample);
  void WriteMessage(const std::string& text);
  void WriteEnd(std::uint64_t samples);

 private:
  void WriteLine(const std::string& line);
  std::mutex mutex_;
  std::FILE* file_;
};

// $OPENGPA_PROFILE_COUNTERS split on commas (empty names dropped).
std::vector<std::string> CountersFromEnvironment();

// Reads a stream into *run (api, counters, queues, samples sorted by index, messages). A truncated last
// line (the program died mid-write) is ignored; any other malformed line fails with *error naming it.
// *ended tells whether the "end" record was seen.
bool ReadSampleStream(const std::string& path, ProfileRun* run, bool* ended, std::string* error);

// Counts "sample" lines as the stream grows, reading only what was appended since the last Poll
// (for progress while the program runs).
class SampleStreamProgress {
 public:
  explicit SampleStreamProgress(std::string path) : path_(std::move(path)) {}
  std::uint64_t Poll();

 private:
  std::string path_;
  std::uint64_t offset_ = 0;
  std::uint64_t samples_ = 0;
  std::string partial_line_;
};

}  // namespace opengpa::profiling

#endif  // OPENGPA_TOOLS_OPENGPA_PROFILING_SAMPLE_STREAM_H_
