// Samples recorded on distinct command lists from several threads at once.
#include <thread>

#include "tests/core/gpa_api_test_fixture.h"

namespace opengpa::testing {
namespace {

using ConcurrencyTest = GpaApiTest;

TEST_F(ConcurrencyTest, ThreadsRecordingOnTheirOwnCommandListsLoseNoSample) {
  device_.block_limit = 1;
  GpaSessionId session = BegunSession({"FakeTotalWork"});
  const GpaUInt32 passes = PassCount(session);
  ASSERT_EQ(passes, 2u);
  constexpr GpaUInt32 kThreads = 6;
  constexpr GpaUInt32 kSamplesPerThread = 2000;
  int api_lists[kThreads] = {};
  for (GpaUInt32 pass = 0; pass < passes; ++pass) {
    std::vector<std::thread> threads;
    std::vector<int> failures(kThreads, 0);
    for (GpaUInt32 t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        GpaCommandListId list = nullptr;
        if (GpaBeginCommandList(session, pass, &api_lists[t], kGpaCommandListPrimary, &list) != kGpaStatusOk) {
          ++failures[t];
          return;
        }
        for (GpaUInt32 i = 0; i < kSamplesPerThread; ++i) {
          const GpaUInt32 id = t * kSamplesPerThread + i;
          if (GpaBeginSample(id, list) != kGpaStatusOk) ++failures[t];
          if (GpaEndSample(list) != kGpaStatusOk) ++failures[t];
        }
        if (GpaEndCommandList(list) != kGpaStatusOk) ++failures[t];
      });
    }
    for (auto& thread : threads) thread.join();
    for (GpaUInt32 t = 0; t < kThreads; ++t) EXPECT_EQ(failures[t], 0) << "thread " << t;
  }
  ASSERT_EQ(GpaEndSession(session), kGpaStatusOk) << ErrorLog::Last();
  GpaUInt32 count = 0;
  ASSERT_EQ(GpaGetSampleCount(session, &count), kGpaStatusOk);
  ASSERT_EQ(count, kThreads * kSamplesPerThread);
  // Slots follow first use in pass 0, which interleaved across threads: read each id's slot back
  // through GpaGetSampleId and check its value.
  for (GpaUInt32 slot = 0; slot < count; ++slot) {
    GpaUInt32 id = 0;
    ASSERT_EQ(GpaGetSampleId(session, slot, &id), kGpaStatusOk);
    GpaUInt64 value = 0;
    ASSERT_EQ(GpaGetSampleResult(session, id, sizeof value, &value), kGpaStatusOk);
    ASSERT_EQ(value, static_cast<GpaUInt64>(fake::FakeHardwareValue(0, slot) + fake::FakeHardwareValue(1, slot)))
        << "sample " << id;
  }
}

TEST_F(ConcurrencyTest, ConcurrentResultReadsEvaluateOnce) {
  GpaSessionId session = BegunSession({"FakeTotalWork"});
  std::vector<GpaUInt32> ids(500);
  for (GpaUInt32 i = 0; i < ids.size(); ++i) ids[i] = i;
  RecordAllPasses(session, ids);
  ASSERT_EQ(GpaEndSession(session), kGpaStatusOk);
  std::vector<std::thread> readers;
  std::atomic<int> wrong{0};
  for (int t = 0; t < 4; ++t) {
    readers.emplace_back([&] {
      for (GpaUInt32 id : ids) {
        GpaUInt64 value = 0;
        if (GpaGetSampleResult(session, id, sizeof value, &value) != kGpaStatusOk ||
            value != static_cast<GpaUInt64>(fake::FakeHardwareValue(0, id) + fake::FakeHardwareValue(1, id))) {
          ++wrong;
        }
      }
    });
  }
  for (auto& reader : readers) reader.join();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_EQ(device_.read_results_calls.load(), 1);
}

}  // namespace
}  // namespace opengpa::testing
