#include "monitor/handover_watcher.h"

#include "platform/logging.h"

namespace opengpa::monitor {

namespace {
// A GPU whose sampling failed to come back is tried again after this long (not every watch period).
constexpr std::chrono::seconds kResumeRetry{1};
}  // namespace

HandoverWatcher::HandoverWatcher(const std::string& folder, const std::vector<HandedOverDevice*>& devices,
                                 std::chrono::milliseconds period)
    : period_(period) {
  for (HandedOverDevice* device : devices) {
    Slot slot;
    slot.device = device;
    slot.hold = std::make_unique<nvidia::MonitorHold>(folder, device->Identity().uuid);
    slots_.push_back(std::move(slot));
  }
}

HandoverWatcher::~HandoverWatcher() {
  std::vector<MonitorRecord> discarded;
  if (thread_.joinable()) static_cast<void>(Stop(&discarded));
}

GpaStatus HandoverWatcher::Start() {
  std::lock_guard<std::mutex> lock(mutex_);
  for (size_t i = 0; i < slots_.size(); ++i) {
    Slot& slot = slots_[i];
    if (!slot.hold->TryTake()) {
      // Configured devices hold the GPU's counters already: free them for the profiler.
      static_cast<void>(slot.device->Release(&pending_));
      Log(kGpaLoggingMessage, "monitor: a profiler holds GPU {}'s counters; its PM sampling starts when it is done",
          slot.device->Identity().index);
      continue;
    }
    if (GpaStatus status = slot.device->Resume(); status != kGpaStatusOk) {
      slot.hold->Release();
      for (size_t j = 0; j < i; ++j) {
        if (!slots_[j].sampling) continue;
        static_cast<void>(slots_[j].device->Release(&pending_));
        slots_[j].hold->Release();
        slots_[j].sampling = false;
      }
      pending_.clear();
      return status;
    }
    slot.sampling = true;
  }
  stopping_ = false;
  thread_ = std::thread([this] { Watch(); });
  return kGpaStatusOk;
}

void HandoverWatcher::Collect(std::vector<MonitorRecord>* records) {
  std::lock_guard<std::mutex> lock(mutex_);
  records->insert(records->end(), pending_.begin(), pending_.end());
  pending_.clear();
  for (Slot& slot : slots_) {
    if (slot.sampling) slot.device->Collect(records);
  }
}

GpaStatus HandoverWatcher::Stop(std::vector<MonitorRecord>* records) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
  std::lock_guard<std::mutex> lock(mutex_);
  records->insert(records->end(), pending_.begin(), pending_.end());
  pending_.clear();
  GpaStatus result = kGpaStatusOk;
  for (Slot& slot : slots_) {
    if (!slot.sampling) continue;
    if (GpaStatus status = slot.device->Release(records); status != kGpaStatusOk) result = status;
    slot.hold->Release();
    slot.sampling = false;
  }
  return result;
}

void HandoverWatcher::Watch() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stopping_) {
    CheckOnce();
    wake_.wait_for(lock, period_, [this] { return stopping_; });
  }
}

void HandoverWatcher::CheckOnce() {
  const auto now = std::chrono::steady_clock::now();
  for (Slot& slot : slots_) {
    const uint32_t index = slot.device->Identity().index;
    if (slot.sampling) {
      if (!slot.hold->ProfilerWants()) continue;
      // What was sampled up to here still reaches the monitor; a failure to stop cleanly is logged by the device.
      static_cast<void>(slot.device->Release(&pending_));
      slot.hold->Release();
      slot.sampling = false;
      ++releases_;
      Log(kGpaLoggingMessage, "monitor: GPU {}: PM sampling handed over to a profiler (NVML and GPM values go on)",
          index);
    } else if (now >= slot.next_try && slot.hold->TryTake()) {
      if (GpaStatus status = slot.device->Resume(); status != kGpaStatusOk) {
        slot.hold->Release();
        slot.next_try = now + kResumeRetry;
        continue;
      }
      slot.sampling = true;
      ++resumptions_;
      Log(kGpaLoggingMessage, "monitor: GPU {}: PM sampling taken back (the profiler is done)", index);
    }
  }
}

uint64_t HandoverWatcher::Releases() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return releases_;
}

uint64_t HandoverWatcher::Resumptions() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return resumptions_;
}

bool HandoverWatcher::Sampling(size_t device) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return device < slots_.size() && slots_[device].sampling;
}

}  // namespace opengpa::monitor
