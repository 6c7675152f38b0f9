// CPU cost of the GPA entry layer and core: recording samples and reading results.
// Run: build/bench/opengpa_bench_api (see docs/benchmarks.md).
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "gpu_performance_api/gpu_perf_api.h"
#include "tests/core/fake_backend.h"

namespace {

void Require(GpaStatus status, const char* what) {
  if (status != kGpaStatusOk) {
    std::fprintf(stderr, "%s failed: %s\n", what, GpaGetStatusAsStr(status));
    std::abort();
  }
}

// GPA initialized with one context on a fake device; `block_limit` 1 makes FakeTotalWork take 2 passes.
class Profiler {
 public:
  explicit Profiler(std::uint32_t block_limit) {
    device_.block_limit = block_limit;
    Require(GpaInitialize(kGpaInitializeDefaultBit), "GpaInitialize");
    Require(GpaOpenContext(&device_, kGpaOpenContextDefaultBit, &context_), "GpaOpenContext");
  }
  ~Profiler() { GpaDestroy(); }

  GpaSessionId BegunSession(const std::vector<const char*>& counters) {
    GpaSessionId session = nullptr;
    Require(GpaCreateSession(context_, kGpaSessionSampleTypeDiscreteCounter, &session), "GpaCreateSession");
    for (const char* name : counters) Require(GpaEnableCounterByName(session, name), name);
    Require(GpaBeginSession(session), "GpaBeginSession");
    return session;
  }

  static void RecordPass(GpaSessionId session, GpaUInt32 pass, GpaUInt32 samples) {
    GpaCommandListId list = nullptr;
    Require(GpaBeginCommandList(session, pass, GPA_NULL_COMMAND_LIST, kGpaCommandListNone, &list), "GpaBeginCommandList");
    for (GpaUInt32 id = 0; id < samples; ++id) {
      GpaBeginSample(id, list);
      GpaEndSample(list);
    }
    Require(GpaEndCommandList(list), "GpaEndCommandList");
  }

  // A session with `samples` samples in every pass, ended.
  GpaSessionId RecordedSession(const std::vector<const char*>& counters, GpaUInt32 samples) {
    GpaSessionId session = BegunSession(counters);
    GpaUInt32 passes = 0;
    Require(GpaGetPassCount(session, &passes), "GpaGetPassCount");
    for (GpaUInt32 pass = 0; pass < passes; ++pass) RecordPass(session, pass, samples);
    Require(GpaEndSession(session), "GpaEndSession");
    return session;
  }

 private:
  opengpa::fake::FakeDevice device_;
  GpaContextId context_ = nullptr;
};

const std::vector<const char*> kAllCounters = {"FakeTotalWork", "FakeBusyPercent", "FakeBytesPerItem",
                                               "FakeTimeMs",    "FakeScaledBytes", "FakeNegative"};
constexpr GpaUInt32 kSamplesPerBatch = 10000;

// Times kSamplesPerBatch GpaBeginSample + GpaEndSample pairs in pass `pass` of a fresh session per iteration;
// the earlier passes are recorded untimed.
void TimeBeginEndSamples(benchmark::State& state, std::uint32_t block_limit, GpaUInt32 pass) {
  Profiler profiler(block_limit);
  for (auto _ : state) {
    state.PauseTiming();
    GpaSessionId session = profiler.BegunSession({"FakeTotalWork"});
    for (GpaUInt32 earlier = 0; earlier < pass; ++earlier) Profiler::RecordPass(session, earlier, kSamplesPerBatch);
    GpaCommandListId list = nullptr;
    Require(GpaBeginCommandList(session, pass, GPA_NULL_COMMAND_LIST, kGpaCommandListNone, &list),
            "GpaBeginCommandList");
    state.ResumeTiming();
    for (GpaUInt32 id = 0; id < kSamplesPerBatch; ++id) {
      benchmark::DoNotOptimize(GpaBeginSample(id, list));
      benchmark::DoNotOptimize(GpaEndSample(list));
    }
    state.PauseTiming();
    GpaDeleteSession(session);
    state.ResumeTiming();
  }
  state.SetItemsProcessed(state.iterations() * kSamplesPerBatch);
}

// GpaBeginSample + GpaEndSample with ids the session has not seen (the first pass: each id gets a slot).
void BM_BeginEndSample_FirstPass(benchmark::State& state) { TimeBeginEndSamples(state, 8, 0); }
BENCHMARK(BM_BeginEndSample_FirstPass)->Unit(benchmark::kMicrosecond);

// The same pair in a later pass: ids already have slots, nothing is allocated.
void BM_BeginEndSample_LaterPass(benchmark::State& state) { TimeBeginEndSamples(state, 1, 1); }
BENCHMARK(BM_BeginEndSample_LaterPass)->Unit(benchmark::kMicrosecond);

// Reading every sample once, the first read included (backend read + evaluating 6 counters per sample).
void BM_GetSampleResult_FirstReadOfAllSamples(benchmark::State& state) {
  const auto samples = static_cast<GpaUInt32>(state.range(0));
  Profiler profiler(8);
  std::vector<GpaUInt64> values(kAllCounters.size());
  const std::size_t size = values.size() * sizeof(GpaUInt64);
  for (auto _ : state) {
    state.PauseTiming();
    GpaSessionId session = profiler.RecordedSession(kAllCounters, samples);
    state.ResumeTiming();
    for (GpaUInt32 id = 0; id < samples; ++id) {
      benchmark::DoNotOptimize(GpaGetSampleResult(session, id, size, values.data()));
    }
    state.PauseTiming();
    GpaDeleteSession(session);
    state.ResumeTiming();
  }
  state.SetItemsProcessed(state.iterations() * samples);
}
BENCHMARK(BM_GetSampleResult_FirstReadOfAllSamples)->Arg(100000)->Unit(benchmark::kMillisecond);

// Reading every sample again once the results are kept: a lookup and a copy each.
void BM_GetSampleResult_RepeatedReadOfAllSamples(benchmark::State& state) {
  const auto samples = static_cast<GpaUInt32>(state.range(0));
  Profiler profiler(8);
  std::vector<GpaUInt64> values(kAllCounters.size());
  const std::size_t size = values.size() * sizeof(GpaUInt64);
  GpaSessionId session = profiler.RecordedSession(kAllCounters, samples);
  Require(GpaGetSampleResult(session, 0, size, values.data()), "GpaGetSampleResult");
  for (auto _ : state) {
    for (GpaUInt32 id = 0; id < samples; ++id) {
      benchmark::DoNotOptimize(GpaGetSampleResult(session, id, size, values.data()));
    }
  }
  state.SetItemsProcessed(state.iterations() * samples);
}
BENCHMARK(BM_GetSampleResult_RepeatedReadOfAllSamples)->Arg(100000)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
