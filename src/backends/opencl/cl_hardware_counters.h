// The hardware counters of the OpenCL backend: the profiling timestamps of the two markers GPA enqueues
// around each sample, at GpaBeginSample and at GpaEndSample.
//
// A marker completes when every command enqueued before it has completed, so the two markers' times
// bracket the sample's work. In an in-order queue nothing enqueued after the begin marker starts before
// it; in an out-of-order queue GPA also enqueues a barrier waiting on the begin marker (without an event
// of its own) to keep the sample's commands after it. Markers, not barriers, carry the times: the NVIDIA
// driver reports CL_PROFILING_COMMAND_START/END of 0 for barrier events (seen on the H100, driver 580).
// Values are nanoseconds since GpaBeginSession (the QUEUED time of a marker GPA enqueues there).
#ifndef OPENGPA_BACKENDS_OPENCL_CL_HARDWARE_COUNTERS_H_
#define OPENGPA_BACKENDS_OPENCL_CL_HARDWARE_COUNTERS_H_

#include <vector>

#include "backends/opencl/cl_handles.h"
#include "core/backend.h"

namespace opengpa::cl {

enum class Bracket { kBeginMarker, kEndMarker };

struct ClHardwareCounter {
  HardwareCounterInfo info;
  Bracket bracket;
  cl_profiling_info when;  // CL_PROFILING_COMMAND_QUEUED / SUBMIT / START / END
};

// Every counter, in HardwareCounterIndex order (the same on every device).
const std::vector<ClHardwareCounter>& BuildHardwareCounters();

}  // namespace opengpa::cl

#endif  // OPENGPA_BACKENDS_OPENCL_CL_HARDWARE_COUNTERS_H_
