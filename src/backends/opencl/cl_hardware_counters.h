// The hardware counters of the OpenCL backend: the profiling timestamps of the two commands GPA enqueues
// around each sample, a barrier at GpaBeginSample and a marker at GpaEndSample.
//
// The barrier completes when every command enqueued before the sample has completed and no command
// enqueued after it starts before that, in in-order and out-of-order queues alike; the marker completes
// when every command enqueued before GpaEndSample has completed. Their CL_PROFILING_COMMAND_* times
// therefore bracket the sample's work. Values are nanoseconds since GpaBeginSession (the QUEUED time of
// a marker GPA enqueues there).
#ifndef OPENGPA_BACKENDS_OPENCL_CL_HARDWARE_COUNTERS_H_
#define OPENGPA_BACKENDS_OPENCL_CL_HARDWARE_COUNTERS_H_

#include <vector>

#include "backends/backend.h"
#include "backends/opencl/cl_handles.h"

namespace opengpa::cl {

enum class Bracket { kBeginBarrier, kEndMarker };

struct HardwareCounter {
  HardwareCounterInfo info;
  Bracket bracket;
  cl_profiling_info when;  // CL_PROFILING_COMMAND_QUEUED / SUBMIT / START / END
};

// Every counter, in HardwareCounterIndex order (the same on every device).
const std::vector<HardwareCounter>& HardwareCounters();

}  // namespace opengpa::cl

#endif  // OPENGPA_BACKENDS_OPENCL_CL_HARDWARE_COUNTERS_H_
