// GPA v3 sessions as NvPmApi uses them: an experiment is one session (its passes GPA's passes, its objects
// GPA samples); a real-time interval is a one-pass session with one sample from one Sample call to the next.
#ifndef OPENGPA_ENTRY_NVPMAPI_GPA_SESSION_H_
#define OPENGPA_ENTRY_NVPMAPI_GPA_SESSION_H_

#include <map>
#include <string>
#include <vector>

#include "entry/nvpmapi/gpa_backend.h"

namespace opengpa::nvpm {

// A new session on `context` with `counters` (GPA indices, duplicates allowed) enabled, not begun; its pass
// count in *passes. nullptr and *why when GPA refuses.
GpaSessionId CreateSession(const GpaBackend& backend, GpaContextId context, const std::vector<GpaUInt32>& counters,
                           GpaUInt32* passes, std::string* why);

// Waits (up to `timeout_ms`) for an ended session's results. False and *why on failure or time-out.
bool WaitForResults(const GpaBackend& backend, GpaContextId context, GpaSessionId session, int timeout_ms,
                    std::string* why);

// One sample's results, GPA index -> value (integers converted). False and *why when GPA has none.
bool ReadSample(const GpaBackend& backend, GpaContextId context, GpaSessionId session, GpaUInt32 sample_id,
                std::map<GpaUInt32, double>* values, std::string* why);

// Why GpaBeginCommandList(GPA_NULL_COMMAND_LIST, kGpaCommandListNone) answered kGpaStatusErrorInvalidParameter:
// the context's API records samples into its command buffers (Vulkan), and NvPmApi's passes, objects and
// Sample intervals name none. Experiments and Sample are then NVPM_ERROR_CONTEXT_NOT_SUPPORTED.
inline constexpr const char* kNeedsCommandBuffers =
    "this context's GPA library records samples only into the API's command buffers (Vulkan's VkCommandBuffer), "
    "which NvPmApi's passes, objects and Sample name none of: experiments and Sample need a CUDA, OpenGL or "
    "OpenCL context (docs/nvpmapi.md)";

// How long EndExperiment and Sample wait for results the application's synchronisation should have made
// ready (the guide asks it to flush the GPU before EndObject and Sample).
inline constexpr int kResultTimeoutMs = 10000;

}  // namespace opengpa::nvpm

#endif  // OPENGPA_ENTRY_NVPMAPI_GPA_SESSION_H_
