#include "monitor/record_ring_buffer.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

namespace opengpa::monitor {
namespace {

MonitorRecord RecordNumber(uint64_t n) {
  MonitorRecord record;
  record.timestamp_ns = n;
  record.value = static_cast<double>(n);
  return record;
}

TEST(RecordRingBuffer, ReadsRecordsInTheOrderTheyWerePushed) {
  RecordRingBuffer ring(8);
  std::vector<MonitorRecord> in;
  for (uint64_t n = 0; n < 5; ++n) in.push_back(RecordNumber(n));
  ring.Push(in.data(), in.size());
  MonitorRecord out[3];
  ASSERT_EQ(ring.Read(out, 3), 3u);
  EXPECT_EQ(out[0].timestamp_ns, 0u);
  EXPECT_EQ(out[2].timestamp_ns, 2u);
  ASSERT_EQ(ring.Read(out, 3), 2u);
  EXPECT_EQ(out[0].timestamp_ns, 3u);
  EXPECT_EQ(out[1].timestamp_ns, 4u);
  EXPECT_EQ(ring.Read(out, 3), 0u);
  EXPECT_EQ(ring.Dropped(), 0u);
}

TEST(RecordRingBuffer, OverwritesTheOldestWhenFullAndCountsThem) {
  RecordRingBuffer ring(4);
  for (uint64_t n = 0; n < 10; ++n) {
    const MonitorRecord record = RecordNumber(n);
    ring.Push(&record, 1);
  }
  EXPECT_EQ(ring.Size(), 4u);
  EXPECT_EQ(ring.Dropped(), 6u);
  MonitorRecord out[4];
  ASSERT_EQ(ring.Read(out, 4), 4u);
  for (uint64_t i = 0; i < 4; ++i) EXPECT_EQ(out[i].timestamp_ns, 6 + i);
}

TEST(RecordRingBuffer, LosesNothingUnaccountedWithAConcurrentReader) {
  constexpr uint64_t kRecords = 200000;
  RecordRingBuffer ring(1024);
  std::atomic<bool> written{false};
  std::thread writer([&] {
    for (uint64_t n = 0; n < kRecords; n += 10) {
      MonitorRecord batch[10];
      for (uint64_t i = 0; i < 10; ++i) batch[i] = RecordNumber(n + i);
      ring.Push(batch, 10);
    }
    written = true;
  });
  uint64_t read = 0;
  uint64_t previous = 0;
  bool increasing = true;
  MonitorRecord out[256];
  while (true) {
    const bool done = written.load();  // read before draining, so nothing pushed later is missed
    const size_t count = ring.Read(out, 256);
    for (size_t i = 0; i < count; ++i) {
      if (read > 0 && out[i].timestamp_ns <= previous) increasing = false;
      previous = out[i].timestamp_ns;
      ++read;
    }
    if (done && count == 0) break;
  }
  writer.join();
  EXPECT_TRUE(increasing);
  EXPECT_EQ(read + ring.Dropped(), kRecords);
}

TEST(RecordRingBuffer, TreatsCapacityZeroAsOne) {
  RecordRingBuffer ring(0);
  EXPECT_EQ(ring.Capacity(), 1u);
}

}  // namespace
}  // namespace opengpa::monitor
