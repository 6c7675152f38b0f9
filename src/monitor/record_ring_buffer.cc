#include "monitor/record_ring_buffer.h"

#include <algorithm>

namespace opengpa::monitor {

RecordRingBuffer::RecordRingBuffer(size_t capacity) : slots_(std::max<size_t>(capacity, 1)) {}

void RecordRingBuffer::Push(const MonitorRecord* records, size_t count) {
  std::lock_guard<std::mutex> lock(mutex_);
  const size_t capacity = slots_.size();
  for (size_t i = 0; i < count; ++i) {
    if (size_ == capacity) {  // full: the oldest goes
      head_ = (head_ + 1) % capacity;
      --size_;
      ++dropped_;
    }
    slots_[(head_ + size_) % capacity] = records[i];
    ++size_;
  }
}

size_t RecordRingBuffer::Read(MonitorRecord* out, size_t capacity) {
  std::lock_guard<std::mutex> lock(mutex_);
  const size_t count = std::min(capacity, size_);
  for (size_t i = 0; i < count; ++i) out[i] = slots_[(head_ + i) % slots_.size()];
  head_ = (head_ + count) % slots_.size();
  size_ -= count;
  return count;
}

void RecordRingBuffer::Grow(size_t capacity) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (capacity <= slots_.size()) return;
  std::vector<MonitorRecord> grown(capacity);
  for (size_t i = 0; i < size_; ++i) grown[i] = slots_[(head_ + i) % slots_.size()];
  slots_ = std::move(grown);
  head_ = 0;
}

size_t RecordRingBuffer::Capacity() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return slots_.size();
}

size_t RecordRingBuffer::Size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return size_;
}

uint64_t RecordRingBuffer::Dropped() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return dropped_;
}

}  // namespace opengpa::monitor
