// The NVTX push/pop ranges open on each thread of the profiled program, followed through CUPTI's NVTX
// callbacks (CUPTI sees NVTX calls only when NVTX_INJECTION64_PATH names libcupti before the program's first
// NVTX call; `opengpa profile` sets it). Domains and registered strings are named by the calls that created
// them, so "domain@name" filters (nvtx_filter.h) and labels work for nvtxDomainRangePushEx too. A message that
// is neither ASCII nor a registered ASCII string (wide text) is named "nvtx", so pushes and pops stay balanced.
#ifndef OPENGPA_PROFILER_NVTX_RANGES_H_
#define OPENGPA_PROFILER_NVTX_RANGES_H_

#include <cupti.h>

#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "profiler/nvtx_filter.h"

namespace opengpa::inject_cuda {

class NvtxRanges {
 public:
  // Every NVTX callback of the program, on the calling thread.
  void OnCallback(CUpti_CallbackId cbid, const CUpti_NvtxData& data);
  // The ranges open on the calling thread, outermost first.
  static const std::vector<profiling::NvtxRange>& OpenOnThisThread();

 private:
  std::string DomainName(const void* domain);
  std::string Message(const void* attributes);

  std::mutex mutex_;  // guards the names (domains and strings are created on any thread)
  std::map<const void*, std::string> domains_;
  std::map<const void*, std::string> strings_;
};

}  // namespace opengpa::inject_cuda

#endif  // OPENGPA_PROFILER_NVTX_RANGES_H_
