// The sample-recording hot path allocates nothing once warm. Its own program: it replaces the global
// operator new to count allocations (which also keeps it away from valgrind runs of the other tests).
#include <atomic>
#include <cstdlib>
#include <new>

#include "tests/core/gpa_api_test_fixture.h"

// Counts every allocation in the process (the library's included: it calls this operator new).
namespace {
std::atomic<long> g_allocations{0};
}  // namespace

#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
void* operator new(std::size_t size) {
  ++g_allocations;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace opengpa::testing {
namespace {

using AllocationTest = GpaApiTest;

TEST_F(AllocationTest, RecordingALaterPassAllocatesNothing) {
  device_.block_limit = 1;
  GpaSessionId session = BegunSession({"FakeTotalWork"});
  ASSERT_EQ(PassCount(session), 2u);
  constexpr GpaUInt32 kSamples = 5000;
  std::vector<GpaUInt32> ids(kSamples);
  for (GpaUInt32 i = 0; i < kSamples; ++i) ids[i] = i * 3;
  RecordPass(session, 0, ids);
  GpaCommandListId list = nullptr;
  ASSERT_EQ(GpaBeginCommandList(session, 1, GPA_NULL_COMMAND_LIST, kGpaCommandListNone, &list), kGpaStatusOk);
  int failures = 0;
  const long before = g_allocations.load();
  for (GpaUInt32 id : ids) {
    failures += GpaBeginSample(id, list) != kGpaStatusOk;
    failures += GpaEndSample(list) != kGpaStatusOk;
  }
  const long allocations = g_allocations.load() - before;
  EXPECT_EQ(failures, 0);
  EXPECT_EQ(allocations, 0);
  ASSERT_EQ(GpaEndCommandList(list), kGpaStatusOk);
  ASSERT_EQ(GpaEndSession(session), kGpaStatusOk);
}

TEST_F(AllocationTest, RepeatedResultReadsAllocateNothing) {
  GpaSessionId session = BegunSession({"FakeTotalWork", "FakeTimeMs"});
  RecordAllPasses(session, {0, 1, 2, 3});
  ASSERT_EQ(GpaEndSession(session), kGpaStatusOk);
  GpaUInt64 values[2];
  ASSERT_EQ(GpaGetSampleResult(session, 0, sizeof values, values), kGpaStatusOk);
  const long before = g_allocations.load();
  for (GpaUInt32 id = 0; id < 4; ++id) ASSERT_EQ(GpaGetSampleResult(session, id, sizeof values, values), kGpaStatusOk);
  EXPECT_EQ(g_allocations.load() - before, 0);
}

}  // namespace
}  // namespace opengpa::testing
