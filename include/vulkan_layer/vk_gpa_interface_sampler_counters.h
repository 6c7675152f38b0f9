// How OpenGPA's layer VK_LAYER_OPENGPA_gpa_interface publishes NVIDIA's hardware counters (PerfWorks' GPU periodic
// sampler) as VK_AMD_gpa_interface counters, and the two commands a client uses to learn what each event of any of
// the layer's blocks is and how many sampler passes a counter set needs. docs/vulkan-layer.md has the rules; in
// short:
//
//   block   OPENGPA_GPA_PERF_BLOCK_NVIDIA_GPU_PERIODIC_SAMPLER, one instance, listed after the pipeline-statistics
//           blocks on a GPU the sampler supports (absent elsewhere: lavapipe, other vendors, no PerfWorks library,
//           another profiler holding the GPU's counters, OPENGPA_GRAPHICS_HARDWARE_COUNTERS=0; the layer says why
//           once on stderr). Its value spells "OPGN": no AMD block and no Vulkan enum.
//   event   the position of the metric in PerfWorks' list of what one sampler pass of the chip can collect (as
//           OpenGPA's libGPUPerfAPIVK offers them: counts as `.sum`, ratios as `.pct`, throughputs as
//           `.avg.pct_of_peak_sustained_elapsed`). vkGetPerfBlockEventsOPENGPA names every event.
//   value   64 bits per counter in a cumulative sample's result: the bits of an IEEE-754 double. A count is the sum
//           over the sampler intervals between the sample's begin and end; a ratio or throughput (additive ==
//           VK_FALSE) their mean weighted by duration, in percent.
//
// A cumulative sample delimits its hardware counters with engine triggers recorded at its begin and end (each after
// a top- and a bottom-of-pipe timestamp, as libGPUPerfAPIVK records them on its core path), so they count the work
// between the two. The set of sampler events one sample asks for must fit one sampler pass
// (vkGetPerfCounterPassCountOPENGPA == 1); otherwise vkCmdBeginGpaSampleAMD answers VK_ERROR_FEATURE_NOT_PRESENT
// and logs the count: split the set over several samples (or sessions). Only primary command buffers; the sampler
// counts every process's work on the GPU between two triggers.
#ifndef OPENGPA_VULKAN_LAYER_VK_GPA_INTERFACE_SAMPLER_COUNTERS_H_
#define OPENGPA_VULKAN_LAYER_VK_GPA_INTERFACE_SAMPLER_COUNTERS_H_

#include "vk_amd_gpa_interface.h"

#define OPENGPA_GPA_PERF_BLOCK_NVIDIA_GPU_PERIODIC_SAMPLER ((VkGpaPerfBlockAMD)0x4F50474E)

#define OPENGPA_PERF_EVENT_NAME_SIZE 256u
#define OPENGPA_PERF_EVENT_UNIT_SIZE 64u
#define OPENGPA_PERF_EVENT_DESCRIPTION_SIZE 512u

// One event of a block, as vkGetPerfBlockEventsOPENGPA describes it. Strings are NUL-terminated (cut to fit).
typedef struct OpenGpaPerfEventInfo {
  uint32_t eventID;
  VkBool32 additive;  // VK_TRUE: a count (summed over the sample); VK_FALSE: a percentage (mean over the sample)
  char name[OPENGPA_PERF_EVENT_NAME_SIZE];                // PerfWorks' metric name, or the statistic's / driver's
  char unit[OPENGPA_PERF_EVENT_UNIT_SIZE];                // PerfWorks' hardware unit ("sm", "dram"...), may be empty
  char description[OPENGPA_PERF_EVENT_DESCRIPTION_SIZE];  // may be empty
} OpenGpaPerfEventInfo;

// vkGetDeviceProcAddr(device, OPENGPA_GET_PERF_BLOCK_EVENTS_NAME), on a device where the layer implements
// VK_AMD_gpa_interface (see OPENGPA_LAYER_GPA_INTERFACE_PROBE). The events of `blockType` on this device, in event-id
// order, two-call idiom: pEvents NULL sets *pEventCount to the count; else up to *pEventCount are written, *pEventCount
// is set to the number written, and VK_INCOMPLETE says some were left out. VK_ERROR_FEATURE_NOT_PRESENT: the device
// does not publish that block.
#define OPENGPA_GET_PERF_BLOCK_EVENTS_NAME "vkGetPerfBlockEventsOPENGPA"
typedef VkResult(VKAPI_PTR* PFN_vkGetPerfBlockEventsOPENGPA)(VkDevice device, VkGpaPerfBlockAMD blockType,
                                                             uint32_t* pEventCount, OpenGpaPerfEventInfo* pEvents);

// vkGetDeviceProcAddr(device, OPENGPA_GET_PERF_COUNTER_PASS_COUNT_NAME): how many sampler passes the GPU periodic
// sampler's events among `pCounters` need together (as PerfWorks plans them); 1 for a set without any (every other
// block's events are counted in the pass they are sampled in). VK_ERROR_FEATURE_NOT_PRESENT: a counter the device
// does not publish (logged).
#define OPENGPA_GET_PERF_COUNTER_PASS_COUNT_NAME "vkGetPerfCounterPassCountOPENGPA"
typedef VkResult(VKAPI_PTR* PFN_vkGetPerfCounterPassCountOPENGPA)(VkDevice device, uint32_t counterCount,
                                                                  const VkGpaPerfCounterAMD* pCounters,
                                                                  uint32_t* pPassCount);

#endif  // OPENGPA_VULKAN_LAYER_VK_GPA_INTERFACE_SAMPLER_COUNTERS_H_
