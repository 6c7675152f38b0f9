// What the sampled mode knows of a kernel launch on the host, kept until the kernel's activity record arrives
// (kernel_timeline.h): the labels open on the launching thread (NVTX push/pop ranges, Python's opengpa.region),
// the thread, the host time and the context. CUPTI gives the launch call and the kernel's record the same
// correlation id, but a runtime launch (cudaLaunchKernel) nests a driver launch (cuLaunchKernel) that has its own
// id, and which of the two a kernel record carries is CUPTI's choice: the outer call's label is recorded under its
// id and the nested call's id is an alias of it. Pure bookkeeping, no CUDA: tested without a GPU.
#ifndef OPENGPA_PROFILER_LAUNCH_LABELS_H_
#define OPENGPA_PROFILER_LAUNCH_LABELS_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace opengpa::profiling {

struct LaunchLabel {
  std::vector<std::string> ranges;  // open on the launching thread, outermost first
  std::string context;              // the CUcontext, as "0x..." (what the exact mode's launch labels say)
  std::int64_t thread = 0;          // the launching thread's OS id (gettid)
  std::int64_t host_ns = 0;         // the launch's entry on CLOCK_REALTIME, ns (torch.profiler's clock on Linux)
};

class LaunchLabelBook {
 public:
  // The label of the launch call `correlation` (the outermost launch call on its thread).
  void Record(std::uint64_t correlation, LaunchLabel label);
  // A launch call `nested` made inside the launch call `outer` (the runtime's driver call): the same launch.
  void Alias(std::uint64_t nested, std::uint64_t outer);
  // The label of the kernel whose activity record carries `correlation` (either call's id); nullopt when no
  // launch call of that id was recorded. `shared`: more kernels carry the id (the nodes of a CUDA graph launch),
  // so the label stays; otherwise it is forgotten (records arrive once).
  std::optional<LaunchLabel> Take(std::uint64_t correlation, bool shared);
  std::size_t size() const { return labels_.size(); }
  void Clear();

 private:
  struct Entry {
    LaunchLabel label;
    std::optional<std::uint64_t> nested;  // the alias that names it too
  };
  std::unordered_map<std::uint64_t, Entry> labels_;
  std::unordered_map<std::uint64_t, std::uint64_t> aliases_;  // nested call -> outer call
};

}  // namespace opengpa::profiling

#endif  // OPENGPA_PROFILER_LAUNCH_LABELS_H_
