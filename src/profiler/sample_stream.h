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
//   {"type":"work","queue":0,"kind":"memcpy","start_ns":...,"end_ns":...}   the sampled mode's copies and memsets
//   {"type":"message","text":"..."}
//   {"type":"unprofiled","reason":"..."}   the process launched work it could not profile (one per reason)
//   {"type":"end","samples":N}
// Headers also say which process wrote them: "host", "rank" (RANK, OMPI_COMM_WORLD_RANK, PMI_RANK or
// SLURM_PROCID, the first set to an integer; absent when none is) and "environment" (the variables named in
// OPENGPA_PROFILE_NAME_VARIABLES, for the -o names' %q{NAME} keys). CUDA queues name their GPU: "gpu" (the CUDA
// ordinal), "gpu_uuid", "pci_bus_id".
//
// Every record also carries "pid", the process that wrote it, right after "type": a program the profiled one
// starts (exec) inherits the environment, loads the library afresh and appends to the same file, each line in
// one write to the file opened for appending, so lines of several processes never mix. Each process writes its
// own header, queues, samples (launch indexes from 0) and end; the reader keeps them apart by pid.
//
// The environment names the stream and the counters (set by the CLI, read by the injected library):
//   OPENGPA_PROFILE_OUTPUT    path of the stream file (required)
//   OPENGPA_PROFILE_COUNTERS  comma-separated counter names
//   OPENGPA_PROFILE_NAME_VARIABLES  comma-separated variable names each header reports (optional)
#ifndef OPENGPA_PROFILER_SAMPLE_STREAM_H_
#define OPENGPA_PROFILER_SAMPLE_STREAM_H_

#include <cstdio>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "profiler/profile_run.h"
#include "profiler/stream_status.h"

namespace opengpa::profiling {

inline constexpr const char* kStreamPathVariable = "OPENGPA_PROFILE_OUTPUT";
inline constexpr const char* kCountersVariable = "OPENGPA_PROFILE_COUNTERS";
inline constexpr const char* kNameVariablesVariable = "OPENGPA_PROFILE_NAME_VARIABLES";

// The process's rank in a job: the first of RANK, OMPI_COMM_WORLD_RANK, PMI_RANK, SLURM_PROCID set to a
// non-negative integer (torchrun, Open MPI, MPICH/Intel MPI, Slurm); none when no variable says.
std::optional<std::int64_t> RankFromEnvironment();

// Thread-safe appender used inside the profiled program. Each line is flushed as written. At the first write
// that fails (a full $TMPDIR), it stops writing, so the file stays a clean prefix, and reports the errno and
// the records it could not write to the CLI (stream_status.h).
class SampleStreamWriter {
 public:
  // Opens $OPENGPA_PROFILE_OUTPUT for appending; nullptr when unset or not writable.
  static std::unique_ptr<SampleStreamWriter> FromEnvironment();
  // `pid`: the process the records are written for (this one, unless a test plays several).
  explicit SampleStreamWriter(std::FILE* file, std::uint32_t pid = CurrentProcessId(),
                              StreamStatusSender status = StreamStatusSender())
      : file_(file), pid_(pid), status_(std::move(status)) {}
  ~SampleStreamWriter();
  SampleStreamWriter(const SampleStreamWriter&) = delete;
  SampleStreamWriter& operator=(const SampleStreamWriter&) = delete;

  void WriteHeader(const std::string& api, const std::vector<ProfiledCounter>& counters);
  // The header with what a run carries beyond its columns: outputs, constants, replay, pass and passes.
  void WriteHeader(const ProfileRun& description);
  void WriteQueue(const Queue& queue);
  void WriteSample(const Sample& sample);
  void WriteWork(const OtherWork& work);
  void WriteMessage(const std::string& text);
  // The process launched work it could not profile: `reason` says why (the CLI names the process and fails).
  void WriteUnprofiled(const std::string& reason);
  void WriteEnd(std::uint64_t samples);

 private:
  static std::uint32_t CurrentProcessId();
  // `record` gets "pid" after its "type" and goes to the file as one line in one write.
  void WriteRecord(nlohmann::ordered_json record);
  // "host", "rank" and "environment" of this process, added to its headers.
  void DescribeProcess(nlohmann::ordered_json* header) const;
  std::mutex mutex_;
  std::FILE* file_;
  std::uint32_t pid_;
  StreamStatusSender status_;
  StreamWriteFailure failure_;  // error_number 0 while every write succeeded
};

// $OPENGPA_PROFILE_COUNTERS split on commas (empty names dropped).
std::vector<std::string> CountersFromEnvironment();

// Reads a stream into *run (api, counters, queues, processes, samples, unprofiled processes, messages, each
// message of a process prefixed with "pid N: "). Samples are grouped by process, in
// the order the processes first wrote, and sorted by index within each; the queues of a later process get
// ids of their own where an earlier one used theirs. Every process must write the same counters. A
// truncated last line (the program died mid-write) is ignored; any other malformed line fails with *error
// naming it. *ended tells whether every process that wrote wrote its "end" record.
bool ReadSampleStream(const std::string& path, ProfileRun* run, bool* ended, std::string* error);

// Counts "sample" lines as the stream grows, reading only what was appended since the last Poll
// (for progress while the program runs), and notes which processes wrote and which wrote their end record.
class SampleStreamProgress {
 public:
  explicit SampleStreamProgress(std::string path) : path_(std::move(path)) {}
  std::uint64_t Poll();
  // The pids that wrote a record but not yet their "end", as of the last Poll, in increasing order.
  std::vector<std::uint32_t> Unfinished() const;
  // Whether `pid` has written its "end" record, as of the last Poll.
  bool HasEnded(std::uint32_t pid) const { return ended_.count(pid) != 0; }
  // Every pid that wrote a record, as of the last Poll.
  const std::set<std::uint32_t>& Writers() const { return writers_; }

 private:
  void NoteWriter(std::string_view line);
  std::string path_;
  std::uint64_t offset_ = 0;
  std::uint64_t samples_ = 0;
  std::string partial_line_;
  std::set<std::uint32_t> writers_;
  std::set<std::uint32_t> ended_;
};

}  // namespace opengpa::profiling

#endif  // OPENGPA_PROFILER_SAMPLE_STREAM_H_
