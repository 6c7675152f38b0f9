// Samples recorded on distinct command lists from several threads at once; calls that must not wait
// behind a GpaGetSampleResult waiting for the device.
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <thread>
#include <vector>

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

// Rounds of the stress test: a few in the normal suite; scripts/sanitize.sh runs many under TSan.
int StressRounds() {
  const char* text = std::getenv("OPENGPA_STRESS_ROUNDS");
  const int rounds = text != nullptr ? std::atoi(text) : 0;
  return rounds > 0 ? rounds : 5;
}

TEST_F(ConcurrencyTest, StressOfSessionsAndResultReadsOnSeveralContextsAtOnce) {
  // Four threads, each with its own context, run whole sessions in a loop; three readers read each ended
  // session's results at once while the other threads create, record and delete theirs.
  constexpr int kContexts = 4;
  constexpr int kReaders = 3;
  constexpr GpaUInt32 kSamples = 64;
  const int rounds = StressRounds();
  std::vector<fake::FakeDevice> devices(kContexts);
  std::atomic<int> failures{0};
  std::vector<std::thread> owners;
  for (int c = 0; c < kContexts; ++c) {
    owners.emplace_back([&, c] {
      GpaContextId context = nullptr;
      if (GpaOpenContext(&devices[c], kGpaOpenContextDefaultBit, &context) != kGpaStatusOk) {
        ++failures;
        return;
      }
      for (int round = 0; round < rounds; ++round) {
        GpaSessionId session = nullptr;
        GpaCommandListId list = nullptr;
        bool ok = GpaCreateSession(context, kGpaSessionSampleTypeDiscreteCounter, &session) == kGpaStatusOk &&
                  GpaEnableCounterByName(session, "FakeTotalWork") == kGpaStatusOk &&
                  GpaBeginSession(session) == kGpaStatusOk &&
                  GpaBeginCommandList(session, 0, GPA_NULL_COMMAND_LIST, kGpaCommandListNone, &list) == kGpaStatusOk;
        for (GpaUInt32 id = 0; ok && id < kSamples; ++id) {
          ok = GpaBeginSample(id, list) == kGpaStatusOk && GpaEndSample(list) == kGpaStatusOk;
        }
        ok = ok && GpaEndCommandList(list) == kGpaStatusOk && GpaEndSession(session) == kGpaStatusOk;
        std::vector<std::thread> readers;
        for (int r = 0; ok && r < kReaders; ++r) {
          readers.emplace_back([&, r] {
            for (GpaUInt32 i = 0; i < kSamples; ++i) {
              const GpaUInt32 id = (i + static_cast<GpaUInt32>(r) * 17) % kSamples;
              GpaUInt64 value = 0;
              if (GpaGetSampleResult(session, id, sizeof value, &value) != kGpaStatusOk ||
                  value != static_cast<GpaUInt64>(fake::FakeHardwareValue(0, id) + fake::FakeHardwareValue(1, id))) {
                ++failures;
              }
              GpaIsSessionComplete(session);
            }
          });
        }
        for (auto& reader : readers) reader.join();
        if (!ok || (session != nullptr && GpaDeleteSession(session) != kGpaStatusOk)) ++failures;
      }
      if (GpaCloseContext(context) != kGpaStatusOk) ++failures;
    });
  }
  for (auto& owner : owners) owner.join();
  EXPECT_EQ(failures.load(), 0);
  for (const fake::FakeDevice& device : devices) {
    EXPECT_EQ(device.read_results_calls.load(), rounds);  // each session read once, however many readers
    EXPECT_EQ(device.sessions_alive.load(), 0);
  }
}

// Waits (bounded) until `device` has `count` reads waiting in ReadResults.
bool ReadsWaiting(const fake::FakeDevice& device, int count) {
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (device.reads_waiting.load() != count) {
    if (std::chrono::steady_clock::now() > give_up) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

// A session of `context` with FakeTotalWork and sample 0 recorded in every pass, ended.
class BlockedReaderTest : public GpaApiTest {
 protected:
  GpaSessionId EndedSession() {
    GpaSessionId session = BegunSession({"FakeTotalWork"});
    RecordAllPasses(session, {0});
    EXPECT_EQ(GpaEndSession(session), kGpaStatusOk) << ErrorLog::Last();
    return session;
  }

  // Starts a GpaGetSampleResult of sample 0 that waits in the device until hold_reads is cleared.
  void StartBlockedReader(GpaSessionId session) {
    device_.hold_reads = true;
    reader_ = std::thread(
        [this, session] { reader_status_ = GpaGetSampleResult(session, 0, sizeof reader_value_, &reader_value_); });
    ASSERT_TRUE(ReadsWaiting(device_, 1)) << "the reader never reached the device";
  }

  GpaStatus FinishReader() {
    device_.hold_reads = false;
    reader_.join();
    return reader_status_;
  }

  void TearDown() override {
    device_.hold_reads = false;
    if (reader_.joinable()) reader_.join();
    GpaApiTest::TearDown();
  }

  std::thread reader_;
  GpaStatus reader_status_ = kGpaStatusInternal;
  GpaUInt64 reader_value_ = 0;
};

TEST_F(BlockedReaderTest, AReaderWaitingForTheDeviceDelaysNoCallOfAnotherContext) {
  GpaSessionId session = EndedSession();
  StartBlockedReader(session);

  // A whole profile on another context, every call taking the library lock exclusively at least once.
  fake::FakeDevice other_device;
  GpaContextId other = OpenContext(other_device);
  GpaSessionId other_session = CreateSession(other);
  ASSERT_EQ(GpaEnableCounterByName(other_session, "FakeTotalWork"), kGpaStatusOk);
  ASSERT_EQ(GpaBeginSession(other_session), kGpaStatusOk);
  RecordAllPasses(other_session, {7});
  ASSERT_EQ(GpaEndSession(other_session), kGpaStatusOk);
  GpaUInt64 value = 0;
  ASSERT_EQ(GpaGetSampleResult(other_session, 7, sizeof value, &value), kGpaStatusOk) << ErrorLog::Last();
  EXPECT_EQ(value, static_cast<GpaUInt64>(fake::FakeHardwareValue(0, 0) + fake::FakeHardwareValue(1, 0)));
  EXPECT_EQ(GpaDeleteSession(other_session), kGpaStatusOk);
  EXPECT_EQ(GpaCloseContext(other), kGpaStatusOk);
  // Another session of the reader's own context too.
  GpaSessionId sibling = CreateSession(context_);
  EXPECT_EQ(GpaDeleteSession(sibling), kGpaStatusOk);
  // Calls on the session being read answer without waiting: its results are not ready yet.
  EXPECT_EQ(GpaIsSessionComplete(session), kGpaStatusResultNotReady);
  EXPECT_EQ(GpaIsPassComplete(session, 0), kGpaStatusResultNotReady);
  std::size_t size = 0;
  EXPECT_EQ(GpaGetSampleResultSize(session, 0, &size), kGpaStatusOk);

  // All of that happened while the reader was still waiting (without the fix, the first call above waited
  // for the reader, whose device gives up only after 20 s).
  EXPECT_EQ(device_.reads_waiting.load(), 1);
  ASSERT_EQ(FinishReader(), kGpaStatusOk) << ErrorLog::Last();
  EXPECT_EQ(reader_value_, static_cast<GpaUInt64>(fake::FakeHardwareValue(0, 0) + fake::FakeHardwareValue(1, 0)));
  EXPECT_EQ(GpaIsSessionComplete(session), kGpaStatusOk);
}

TEST_F(BlockedReaderTest, ASecondReaderOfTheSameSessionWaitsForTheFirstAndTheDeviceIsReadOnce) {
  GpaSessionId session = EndedSession();
  StartBlockedReader(session);
  GpaUInt64 second_value = 0;
  GpaStatus second_status = kGpaStatusInternal;
  std::thread second([&] { second_status = GpaGetSampleResult(session, 0, sizeof second_value, &second_value); });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(device_.reads_waiting.load(), 1);
  ASSERT_EQ(FinishReader(), kGpaStatusOk);
  second.join();
  EXPECT_EQ(second_status, kGpaStatusOk);
  EXPECT_EQ(second_value, reader_value_);
  EXPECT_EQ(device_.read_results_calls.load(), 1);
}

TEST_F(BlockedReaderTest, DeletingTheSessionBeingReadWaitsForTheReaderAndStalesTheIdAtOnce) {
  GpaSessionId session = EndedSession();
  StartBlockedReader(session);
  std::atomic<bool> deleted{false};
  std::thread deleter([&] {
    EXPECT_EQ(GpaDeleteSession(session), kGpaStatusOk);
    deleted = true;
  });
  // The id is stale as soon as the delete took it out, while the session object waits for its reader.
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (GpaIsSessionComplete(session) != kGpaStatusErrorSessionNotFound &&
         std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_EQ(GpaIsSessionComplete(session), kGpaStatusErrorSessionNotFound);
  EXPECT_FALSE(deleted.load());
  EXPECT_EQ(device_.sessions_alive.load(), 1);
  // Other calls are not held up by the waiting delete.
  GpaSessionId sibling = CreateSession(context_);
  EXPECT_EQ(GpaDeleteSession(sibling), kGpaStatusOk);
  EXPECT_EQ(FinishReader(), kGpaStatusOk);
  deleter.join();
  EXPECT_TRUE(deleted.load());
  EXPECT_EQ(device_.sessions_alive.load(), 0);
}

TEST_F(BlockedReaderTest, ClosingTheContextBeingReadWaitsForTheReader) {
  GpaSessionId session = EndedSession();
  StartBlockedReader(session);
  std::thread closer([&] { EXPECT_EQ(GpaCloseContext(context_), kGpaStatusOk); });
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (GpaIsSessionComplete(session) != kGpaStatusErrorSessionNotFound &&
         std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_EQ(device_.sessions_alive.load(), 1);
  EXPECT_EQ(FinishReader(), kGpaStatusOk);
  closer.join();
  EXPECT_EQ(device_.sessions_alive.load(), 0);
  EXPECT_EQ(reader_value_, static_cast<GpaUInt64>(fake::FakeHardwareValue(0, 0) + fake::FakeHardwareValue(1, 0)));
}

}  // namespace
}  // namespace opengpa::testing
