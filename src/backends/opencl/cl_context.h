// BackendContext for an application's cl_command_queue.
#ifndef OPENGPA_BACKENDS_OPENCL_CL_CONTEXT_H_
#define OPENGPA_BACKENDS_OPENCL_CL_CONTEXT_H_

#include <memory>
#include <string_view>
#include <vector>

#include "backends/opencl/cl_device.h"
#include "core/backend.h"

namespace opengpa::cl {

class ClContext final : public BackendContext {
 public:
  // `api_context` is the cl_command_queue itself (what GPA's OpenCL library casts it to; GPA's table says
  // cl_command_queue*, but its implementation and its users pass the queue). Statuses, each logged:
  // kGpaStatusErrorInvalidParameter: not a command queue, or created without CL_QUEUE_PROFILING_ENABLE;
  // kGpaStatusErrorDriverNotSupported: the device is older than OpenCL 1.2 (no markers with events).
  [[nodiscard]] static GpaStatus Open(void* api_context, GpaOpenContextFlags flags,
                                      std::unique_ptr<BackendContext>* out);

  explicit ClContext(std::shared_ptr<QueueState> queue);

  const DeviceInfo& Device() const override { return queue_->info; }
  GpaContextSampleTypeFlags SupportedSampleTypes() const override { return kGpaContextSampleTypeDiscreteCounter; }
  const std::vector<HardwareCounterInfo>& HardwareCounters() const override { return counter_infos_; }
  std::vector<std::string_view> DerivedCatalogs() const override;
  [[nodiscard]] GpaStatus CountPasses(const std::vector<HardwareCounterIndex>& counters, GpaUInt32* passes) override;
  [[nodiscard]] GpaStatus CreateSession(int type, const std::vector<HardwareCounterIndex>& counters,
                                        std::unique_ptr<BackendSession>* out) override;

 private:
  std::shared_ptr<QueueState> queue_;
  std::vector<HardwareCounterInfo> counter_infos_;
};

}  // namespace opengpa::cl

#endif  // OPENGPA_BACKENDS_OPENCL_CL_CONTEXT_H_
