// The result of profiling one program: the counters measured and one sample per kernel launch (CUDA) or
// kernel enqueue (OpenCL), in launch order. Filled from the sample stream (sample_stream.h) that the
// library loaded into the program writes, and printed by profile_writers.h.
#ifndef OPENGPA_PROFILER_PROFILE_RUN_H_
#define OPENGPA_PROFILER_PROFILE_RUN_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace opengpa::profiling {

struct ProfiledCounter {
  std::string name;
  std::string usage;      // GPA usage name ("nanoseconds", "bytes", ...) or the raw metric's unit
  std::string data_type;  // "float64" or "uint64"
};

// A counter the user asked for, as a formula of src/counters' language over the measured columns
// (ProfileRun::counters) and named constants: a raw CUPTI metric is its own name, a GPA counter its catalog
// formula. The CLI evaluates it once every pass of a launch is in (counter_outputs.h).
struct OutputCounter {
  std::string name;
  std::string usage;
  std::string data_type;
  std::string formula;
};

// The GPU a queue runs on. `index` is the CUDA ordinal in the process that launched (its CUDA_VISIBLE_DEVICES
// decides it); the UUID and PCI bus id name the card across processes and hosts. Empty (-1) where not known
// (OpenCL, streams written before GPUs were named).
struct GpuIdentity {
  int index = -1;
  std::string uuid;        // "GPU-5d4c...", as nvidia-smi -L prints it
  std::string pci_bus_id;  // "0000:19:00.0"
};

struct Queue {
  std::uint32_t id = 0;
  std::string name;  // "stream 13", "queue 0"
  std::string device;
  GpuIdentity gpu;
};

// A process of the profiled program that wrote to the sample stream, as its header described it.
struct ProcessInfo {
  std::uint32_t pid = 0;
  std::optional<std::int64_t> rank;  // RANK, OMPI_COMM_WORLD_RANK, PMI_RANK or SLURM_PROCID, the first set
  std::string host;
  // The variables `opengpa profile` asked about (its -o names' %q{NAME} keys), as this process had them.
  std::vector<std::pair<std::string, std::string>> environment;
};

// A process that launched work the profiler could not measure, and why (one entry per reason).
struct UnprofiledProcess {
  std::uint32_t pid = 0;
  std::string reason;
};

struct Sample {
  // The process that launched it: the profiled program or a program it started (exec'd children inherit the
  // injection); 0 where the stream does not say (streams written before processes were told apart).
  std::uint32_t pid = 0;
  std::uint64_t index = 0;                      // launch order within its process, from 0
  std::string name;                             // kernel name (demangled where the API gives a mangled one)
  std::uint32_t queue = 0;                      // Queue::id
  std::array<std::uint64_t, 3> grid{1, 1, 1};   // CUDA grid, or OpenCL global size / local size (work-groups)
  std::array<std::uint64_t, 3> block{1, 1, 1};  // CUDA block, or OpenCL local size
  std::optional<std::uint64_t> start_ns;        // device timeline, when the API reports it
  std::optional<std::uint64_t> end_ns;
  std::vector<double> values;  // one per ProfiledCounter, same order
  // The NVTX push/pop ranges open on the launching thread, outermost first ("name", or "domain@name" for a
  // range of a registered domain): which part of the program the launch belongs to.
  std::vector<std::string> nvtx;
  std::uint32_t context = 0;  // CUDA: CUPTI's id of the launch's context (0: not known, or not CUDA)
  // CUDA graphs: the sample is one launch of the executable graph `graph` (CUPTI's id), covering all its
  // nodes' work, or only its kernel node `graph_node` when that is the graph's one piece of GPU work.
  std::optional<std::uint32_t> graph;
  std::optional<std::uint32_t> graph_node;
};

// GPU work that is not a kernel launch (a copy, a memset), as the sampled mode records it: it takes its share of
// the GPU's samples (sampled_attribution.h) but is not a row of the profile.
struct OtherWork {
  std::uint32_t pid = 0;
  std::uint32_t queue = 0;  // Queue::id
  std::string kind;         // "memcpy", "memset"
  std::uint64_t start_ns = 0;
  std::uint64_t end_ns = 0;
};

struct ProfileRun {
  std::string api;  // "cuda", "cl"
  std::string device;
  std::vector<std::string> command;
  std::vector<ProfiledCounter> counters;  // the columns of Sample::values
  // CUDA: the counters asked for, over `counters`; empty when `counters` are what was asked for (OpenCL).
  std::vector<OutputCounter> outputs;
  std::vector<std::pair<std::string, double>> constants;  // names the formulas of `outputs` may use
  std::string replay;      // how the samples were collected: none, kernel, application ("" when not said)
  std::uint32_t pass = 0;  // application replay: the pass of this run, of `passes`
  std::uint32_t passes = 1;
  std::vector<Queue> queues;
  std::vector<ProcessInfo> processes;  // in the order they first wrote
  std::vector<UnprofiledProcess> unprofiled;
  std::vector<Sample> samples;        // grouped by process (in the order each first wrote), sorted by index within
  std::vector<OtherWork> other_work;  // the sampled mode's copies and memsets
  double wall_time_s = 0.0;           // the profiled program's wall time under the profiler
  int exit_code = 0;                  // the profiled program's
  std::vector<std::string> messages;  // what the injected library reported (warnings, errors)
};

}  // namespace opengpa::profiling

#endif  // OPENGPA_PROFILER_PROFILE_RUN_H_
