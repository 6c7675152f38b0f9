// One kernel launch as the CUDA program made it, read from CUPTI's launch callbacks: the kernel's
// (demangled) name, grid, block and stream. Runtime-API launches reach the driver API too; a thread-local
// scope makes each launch count once, taking grid and block from whichever callback carries them.
#ifndef OPENGPA_PROFILER_KERNEL_LAUNCH_H_
#define OPENGPA_PROFILER_KERNEL_LAUNCH_H_

#include <cuda.h>
#include <cupti.h>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace opengpa::inject_cuda {

struct KernelLaunch {
  std::string name;
  std::array<std::uint64_t, 3> grid{0, 0, 0};  // 0: not known (a launch path whose parameters CUPTI hides)
  std::array<std::uint64_t, 3> block{0, 0, 0};
  std::uint32_t stream_id = 0;  // CUPTI's stream id
  bool dimensions_known = false;
  // The stream handle the launch was made on (CU_STREAM_PER_THREAD for a per-thread default stream), for
  // work that must run right before it; known when the callback's parameters are published.
  CUstream stream = nullptr;
  bool stream_known = false;
  // The NVTX ranges open on the launching thread, outermost first, as samples show them (nvtx_filter.h).
  std::vector<std::string> nvtx;
  std::uint32_t context_id = 0;  // CUPTI's id of the launch's CUDA context (0: not known)
  // A CUDA graph launch (graph_sampling.h): the executable graph's CUPTI id, and the kernel node the sample
  // is when the graph's one piece of GPU work is that node (else the sample covers the whole graph).
  std::optional<std::uint32_t> graph;
  std::optional<std::uint32_t> graph_node;
  // The kernel node ran as a launch of its own (graph_expansion.h): counted as any kernel launch is.
  bool graph_node_launched = false;
  // A collective kernel (collective_kernels.h): it waits for peers, so it is never replayed.
  bool collective = false;
};

// Whether `cbid` of `domain` is a kernel launch this library profiles.
bool IsKernelLaunch(CUpti_CallbackDomain domain, CUpti_CallbackId cbid);

// The launch described by a launch callback (ENTER site). Grid and block stay 0 where the callback's
// parameters are not published (the runtime's internal __cudaLaunchKernel of CUDA 13).
KernelLaunch DescribeLaunch(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const CUpti_CallbackData& data);

// "void scale<float>(float*, int)" from "_Z5scaleIfEvPT_i"; the input when it is not a mangled name.
std::string Demangle(const char* symbol);

}  // namespace opengpa::inject_cuda

#endif  // OPENGPA_PROFILER_KERNEL_LAUNCH_H_
