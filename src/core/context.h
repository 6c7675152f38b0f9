// An open GPA context: the backend's view of one device plus the counters it exposes.
#ifndef OPENGPA_CORE_CONTEXT_H_
#define OPENGPA_CORE_CONTEXT_H_

#include <atomic>
#include <memory>
#include <vector>

#include "core/backend.h"
#include "core/handle_registry.h"
#include "counters/counter_set.h"
#include "gpu_performance_api/gpu_perf_api_types.h"

namespace opengpa {

class Session;

class Context {
 public:
  // Opens `api_context` through `backend` and builds its counter set. Logs and returns the backend's
  // status, or kGpaStatusErrorFailed when the counter catalogs do not build.
  [[nodiscard]] static GpaStatus Open(Backend& backend, void* api_context, GpaOpenContextFlags flags,
                                      std::unique_ptr<Context>* out);
  Context() = default;  // empty; Open fills it

  void* api_context() const { return api_context_; }
  GpaOpenContextFlags flags() const { return flags_; }
  const DeviceInfo& device() const { return backend_->Device(); }
  // The device's execution resources, as GpaUpdateDeviceInformation last set them (else as the backend found them).
  const DeviceShape& shape() const { return shape_override_ ? *shape_override_ : device().shape; }
  void OverrideShape(const DeviceShape& shape) { shape_override_ = std::make_unique<DeviceShape>(shape); }
  const CounterSet& counters() const { return counters_; }
  BackendContext& backend() { return *backend_; }
  GpaContextSampleTypeFlags supported_sample_types() const { return backend_->SupportedSampleTypes(); }

  // Sessions created on this context (ids in the library's session registry).
  std::vector<HandleValue>& session_ids() { return session_ids_; }

  // At most one session per context is between GpaBeginSession and GpaEndSession.
  bool TryActivate(const Session* session) {
    const Session* expected = nullptr;
    return active_session_.compare_exchange_strong(expected, session);
  }
  void Deactivate(const Session* session) {
    const Session* expected = session;
    active_session_.compare_exchange_strong(expected, nullptr);
  }

 private:
  void* api_context_ = nullptr;
  GpaOpenContextFlags flags_ = 0;
  std::unique_ptr<BackendContext> backend_;
  CounterSet counters_;
  std::unique_ptr<DeviceShape> shape_override_;
  std::vector<HandleValue> session_ids_;
  std::atomic<const Session*> active_session_{nullptr};
};

}  // namespace opengpa

#endif  // OPENGPA_CORE_CONTEXT_H_
