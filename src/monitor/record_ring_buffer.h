// A bounded FIFO of monitor records shared by the sampler thread (Push) and readers (Read). When a
// reader falls behind, the oldest records are overwritten and counted, so a slow reader never stalls
// sampling and never makes memory grow.
#ifndef OPENGPA_MONITOR_RECORD_RING_BUFFER_H_
#define OPENGPA_MONITOR_RECORD_RING_BUFFER_H_

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

#include "monitor/monitor_types.h"

namespace opengpa::monitor {

class RecordRingBuffer {
 public:
  explicit RecordRingBuffer(size_t capacity);

  void Push(const MonitorRecord* records, size_t count);
  // Moves up to `capacity` of the oldest records into `out`; returns how many.
  size_t Read(MonitorRecord* out, size_t capacity);

  // Makes room for `capacity` records (never less than now), keeping the unread ones in order.
  void Grow(size_t capacity);
  size_t Capacity() const;
  size_t Size() const;
  uint64_t Dropped() const;  // records overwritten before anyone read them

 private:
  mutable std::mutex mutex_;
  std::vector<MonitorRecord> slots_;
  size_t head_ = 0;  // the oldest record
  size_t size_ = 0;
  uint64_t dropped_ = 0;
};

}  // namespace opengpa::monitor

#endif  // OPENGPA_MONITOR_RECORD_RING_BUFFER_H_
