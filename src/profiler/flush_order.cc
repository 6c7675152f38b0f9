#include "profiler/flush_order.h"

#include <cstdio>

namespace opengpa::inject_cuda {

FlushOrderChooser::FlushOrderChooser(std::optional<std::string> forced) {
  if (forced == "gpu" || forced == "host") {
    host_ordered_ = *forced == "host";
    phase_ = Phase::kChosen;
  }
}

std::optional<std::string> FlushOrderChooser::OnBatchEnd(double wall_ms, std::size_t flushed) {
  if (phase_ == Phase::kChosen || flushed < kMinimumLaunches) return std::nullopt;
  const double per_launch = wall_ms / static_cast<double>(flushed);
  switch (phase_) {
    case Phase::kWarmUp: phase_ = Phase::kTimingHost; return std::nullopt;
    case Phase::kTimingHost:
      host_ms_per_launch_ = per_launch;
      host_ordered_ = false;
      phase_ = Phase::kTimingGpu;
      return std::nullopt;
    case Phase::kTimingGpu: {
      host_ordered_ = host_ms_per_launch_ < per_launch;
      phase_ = Phase::kChosen;
      char text[200];
      std::snprintf(text, sizeof text,
                    "L2 flush ordered %s from now on: %.2f ms per launch with host waits, %.2f ms with GPU-side "
                    "waits (one batch each)",
                    host_ordered_ ? "by host waits" : "on the GPU", host_ms_per_launch_, per_launch);
      return std::string(text);
    }
    case Phase::kChosen: break;
  }
  return std::nullopt;
}

}  // namespace opengpa::inject_cuda
