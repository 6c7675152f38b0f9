// CPU cost of `opengpa profile`'s outputs (src/profiler/profile_writers.h) on a run shaped like the sampled mode's
// GPT-2 generation: 17,883 launches, kernel names of about 265 characters with commas (PyTorch's templates), six
// columns of fractional values. The outputs are written after the program has ended, so they add to its time.
// Run: build/bench/opengpa_bench_profile_writers (see docs/benchmarks.md).
#include <benchmark/benchmark.h>

#include <ostream>
#include <streambuf>
#include <string>

#include "profiler/profile_writers.h"

namespace {

using opengpa::profiling::ProfileRun;
using opengpa::profiling::Sample;

ProfileRun GptShapedRun() {
  ProfileRun run;
  run.api = "cuda";
  run.device = "NVIDIA H200";
  for (const char* name : {"dram__bytes_read.sum", "dram__bytes_write.sum", "pm__coverage", "pm__samples",
                           "pm__overlapped", "pm__short"}) {
    run.counters.push_back({name, "bytes", "float64"});
  }
  run.queues.push_back({7, "stream 7", "NVIDIA H200", {0, "GPU-ea214eb5-9946-a287-9d08-f353a15055ec", "0000:00:05.0"}});
  run.processes.push_back({874, std::nullopt, "host", {}});
  std::uint64_t ns = 1'000'000;
  for (std::uint64_t i = 0; i < 17'883; ++i) {
    Sample sample;
    sample.pid = 874;
    sample.index = i;
    sample.name = "void at::native::vectorized_elementwise_kernel<" + std::to_string(i % 8) +
                  ", at::native::BinaryFunctor<c10::Half, c10::Half, c10::Half, at::native::binary_internal::"
                  "MulFunctor<float> >, std::array<char*, 3ul> >(int, at::native::BinaryFunctor<c10::Half, c10::Half, "
                  "c10::Half, at::native::binary_internal::MulFunctor<float> >, std::array<char*, 3ul>)";
    sample.queue = 7;
    sample.context = 1;
    sample.grid = {128 + i % 64, 1, 1};
    sample.block = {256, 1, 1};
    sample.start_ns = ns;
    ns += 4'000 + (i % 97) * 50;
    sample.end_ns = ns;
    ns += 2'000;
    // Attributed shares of samples: fractions, as the sampled mode's are.
    const double bytes = 1.0e6 + static_cast<double>(i) * 1234.567;
    sample.values = {bytes, bytes / 3.0, 0.9987, 3.0, 0.0, 0.0};
    run.samples.push_back(std::move(sample));
  }
  return run;
}

const ProfileRun& Run() {
  static const ProfileRun run = GptShapedRun();
  return run;
}

// Counts what is written and drops it: the formatting is measured, not a growing string or a disk.
class CountingBuffer final : public std::streambuf {
 public:
  std::size_t bytes() const { return bytes_; }

 protected:
  std::streamsize xsputn(const char*, std::streamsize count) override {
    bytes_ += static_cast<std::size_t>(count);
    return count;
  }
  int_type overflow(int_type c) override {
    if (!traits_type::eq_int_type(c, traits_type::eof())) ++bytes_;
    return traits_type::not_eof(c);
  }

 private:
  std::size_t bytes_ = 0;
};

template <void (*Write)(const ProfileRun&, std::ostream&)>
void BM_Write(benchmark::State& state) {
  std::size_t bytes = 0;
  for (auto _ : state) {
    CountingBuffer buffer;
    std::ostream out(&buffer);
    Write(Run(), out);
    bytes = buffer.bytes();
    benchmark::DoNotOptimize(bytes);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(Run().samples.size()));
  state.counters["MB"] = static_cast<double>(bytes) / 1e6;
}

void Csv(const ProfileRun& run, std::ostream& out) { opengpa::profiling::WriteProfileCsv(run, out); }
void Json(const ProfileRun& run, std::ostream& out) { opengpa::profiling::WriteProfileJson(run, out); }
void Trace(const ProfileRun& run, std::ostream& out) { opengpa::profiling::WriteChromeTrace(run, out); }

BENCHMARK_TEMPLATE(BM_Write, Csv)->Name("WriteProfileCsv/17883")->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_Write, Json)->Name("WriteProfileJson/17883")->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_Write, Trace)->Name("WriteChromeTrace/17883")->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
