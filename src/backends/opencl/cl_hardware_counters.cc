#include "backends/opencl/cl_hardware_counters.h"

#include <string>

namespace opengpa::cl {
namespace {

ClHardwareCounter Make(Bracket bracket, cl_profiling_info when) {
  const bool begin = bracket == Bracket::kBeginMarker;
  const char* command = begin ? "BeginMarker" : "EndMarker";
  const char* stage = when == CL_PROFILING_COMMAND_QUEUED   ? "Queued"
                      : when == CL_PROFILING_COMMAND_SUBMIT ? "Submit"
                      : when == CL_PROFILING_COMMAND_START  ? "Start"
                                                            : "End";
  const char* profiling = when == CL_PROFILING_COMMAND_QUEUED   ? "CL_PROFILING_COMMAND_QUEUED"
                          : when == CL_PROFILING_COMMAND_SUBMIT ? "CL_PROFILING_COMMAND_SUBMIT"
                          : when == CL_PROFILING_COMMAND_START  ? "CL_PROFILING_COMMAND_START"
                                                                : "CL_PROFILING_COMMAND_END";
  std::string description = std::string(profiling) + " of the " +
                            (begin ? "marker GPA enqueues at GpaBeginSample" : "marker GPA enqueues at GpaEndSample") +
                            ", in nanoseconds since GpaBeginSession.";
  return ClHardwareCounter{HardwareCounterInfo{std::string(command) + stage, "EventProfiling", description,
                                               kGpaDataTypeUint64, kGpaUsageTypeNanoseconds, "command_queue"},
                           bracket, when};
}

std::vector<ClHardwareCounter> Build() {
  std::vector<ClHardwareCounter> counters;
  for (Bracket bracket : {Bracket::kBeginMarker, Bracket::kEndMarker}) {
    for (cl_profiling_info when : {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT, CL_PROFILING_COMMAND_START,
                                   CL_PROFILING_COMMAND_END}) {
      counters.push_back(Make(bracket, when));
    }
  }
  return counters;
}

}  // namespace

const std::vector<ClHardwareCounter>& BuildHardwareCounters() {
  static const std::vector<ClHardwareCounter> counters = Build();
  return counters;
}

}  // namespace opengpa::cl
