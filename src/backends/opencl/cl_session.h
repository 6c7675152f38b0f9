// A GPA session on a command queue: GpaBeginSession enqueues a marker whose QUEUED time is the session's
// time origin; every sample enqueues a marker at GpaBeginSample (and, on an out-of-order queue, a barrier
// behind it) and a marker at GpaEndSample, and reads their profiling times (see cl_hardware_counters.h). One pass; no
// command lists (kGpaCommandListNone); samples do not nest. GpaEndSession flushes the queue so the results can
// complete.
#ifndef OPENGPA_BACKENDS_OPENCL_CL_SESSION_H_
#define OPENGPA_BACKENDS_OPENCL_CL_SESSION_H_

#include <memory>
#include <vector>

#include "backends/common/immediate_session.h"
#include "backends/opencl/cl_device.h"
#include "backends/opencl/cl_hardware_counters.h"
#include "core/backend.h"

namespace opengpa::cl {

class ClSession final : public ImmediateSession {
 public:
  ClSession(std::shared_ptr<const QueueState> queue, std::vector<HardwareCounterIndex> counters)
      : ImmediateSession("OpenCL"), queue_(std::move(queue)), columns_(std::move(counters)) {}

  [[nodiscard]] GpaStatus Begin() override;
  [[nodiscard]] GpaStatus End() override;
  [[nodiscard]] GpaStatus BeginSample(BackendCommandList& list, SampleSlot slot) override;
  [[nodiscard]] GpaStatus EndSample(BackendCommandList& list, SampleSlot slot) override;
  bool IsPassComplete(GpaUInt32 pass) override;
  [[nodiscard]] GpaStatus ReadResults(SampleSlot slot_count, std::vector<double>* values) override;

 private:
  struct Sample {
    Event begin;  // marker enqueued at GpaBeginSample
    Event end;    // marker enqueued at GpaEndSample; null while the sample is open
  };

  std::shared_ptr<const QueueState> queue_;
  std::vector<HardwareCounterIndex> columns_;
  Event origin_;                                  // marker enqueued at GpaBeginSession
  std::vector<std::unique_ptr<Sample>> samples_;  // by slot
};

}  // namespace opengpa::cl

#endif  // OPENGPA_BACKENDS_OPENCL_CL_SESSION_H_
