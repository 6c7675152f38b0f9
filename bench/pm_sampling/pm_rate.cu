// How fine a PM sampling interval the host can keep up with: runs known GPU work (a DRAM copy kernel launched
// back to back) while nvidia::PmSampler samples at the interval asked, decoded every `decode_ms` and evaluated
// by nvidia::PmSamplingPipeline as the monitor and the profiler's sampled mode do, and prints one table row:
// records, the time they cover, gaps, overflows, the cost of decoding and evaluating per record, the counter-data
// image's size, what readying one cost a decode, the most images that waited for evaluation at once, and the DRAM
// bytes read against the bytes the kernels read (ground truth); on stderr, DescribePmSampling's line (where the
// first holes fell). Built by build.sh; run by run.sh on the GPU machine.
//   pm_rate INTERVAL_US BUFFER_MIB DECODE_MS SECONDS [METRIC,METRIC,...]  (the first metric should be
//   dram__bytes_read.sum, which the ground truth is for)
// With PM_RATE_WORK=fma the work is FMA loops instead (no ground truth) and stderr says which samples the decodes
// disturbed (ReportDecodeDisturbance); the first metric should then be an SM-unit count. With PM_RATE_CONTEXT=none
// the sampler is enabled without the program's CUDA context; with PM_RATE_WORK=none it runs no work of its own and
// samples another process's for SECONDS (the DRAM column then reads nan).
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "nvidia/cuda_driver.h"
#include "nvidia/cupti_pm_library.h"
#include "nvidia/cupti_profiler_session.h"
#include "nvidia/pm_sampler.h"
#include "nvidia/pm_sampling_pipeline.h"

namespace {

__global__ void CopyKernel(const float4* __restrict__ in, float4* __restrict__ out, size_t n) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += size_t{gridDim.x} * blockDim.x) out[i] = in[i];
}

// Keeps every SM busy with FMAs for about a millisecond a launch: the work whose SM-unit counts a decode zeroes.
__global__ void FmaKernel(float* out, int iterations) {
  float a = threadIdx.x * 1e-3f;
  float b = 1.0001f;
  for (int i = 0; i < iterations; ++i) a = fmaf(a, b, 1e-7f);
  if (a == 12345.f) out[0] = a;  // never: keeps the loop
}

// With PM_RATE_WORK=fma: which samples a decode disturbs. For each metric, a sample whose value per ns reads under
// half the run's median is "low". Each decode call (its start on CUPTI's clock) is looked at from 3 intervals
// before to 11 after: the low samples there are counted by k = floor((sample start - decode start) / interval).
void ReportDecodeDisturbance(const opengpa::nvidia::PmSamples& samples, size_t metric_count,
                             const std::vector<uint64_t>& decodes, double interval_ns) {
  const std::vector<uint8_t> marked =
      opengpa::nvidia::PmDecodeDisturbedSamples(samples.times, decodes, static_cast<uint64_t>(interval_ns));
  for (size_t metric = 0; metric < metric_count; ++metric) {
    std::vector<double> rates;
    for (size_t i = 0; i < samples.times.size(); ++i) {
      const double span = static_cast<double>(samples.times[i].end_ns - samples.times[i].start_ns);
      rates.push_back(span > 0 ? samples.values[i * metric_count + metric] / span : 0.0);
    }
    std::vector<double> sorted = rates;
    std::sort(sorted.begin(), sorted.end());
    const double median = sorted.empty() ? 0.0 : sorted[sorted.size() / 2];
    size_t low = 0;
    size_t low_marked = 0;
    size_t marked_count = 0;
    for (size_t i = 0; i < rates.size(); ++i) {
      low += rates[i] < 0.5 * median;
      low_marked += rates[i] < 0.5 * median && marked[i] != 0;
      marked_count += marked[i] != 0;
    }
    constexpr int kBefore = 3;
    std::vector<int> by_offset(kBefore + 12, 0);
    size_t looked_at = 0;
    size_t first = 0;  // the first sample that can be near the next decode
    for (const uint64_t decode_start : decodes) {
      const double from = static_cast<double>(decode_start) - kBefore * interval_ns;
      while (first < samples.times.size() && static_cast<double>(samples.times[first].start_ns) < from) ++first;
      ++looked_at;
      for (size_t i = first; i < samples.times.size(); ++i) {
        const double k = std::floor(
            (static_cast<double>(samples.times[i].start_ns) - static_cast<double>(decode_start)) / interval_ns);
        if (k >= 12) break;
        if (rates[i] < 0.5 * median) ++by_offset[static_cast<size_t>(static_cast<int>(k) + kBefore)];
      }
    }
    std::fprintf(stderr,
                 "decode disturbance, metric %zu: %zu samples, %zu decodes, median %.4f per ns, %zu low, %zu marked "
                 "(PmDecodeDisturbedSamples), %zu low and marked; low samples by k from -%d to 11:",
                 metric, rates.size(), looked_at, median, low, marked_count, low_marked, kBefore);
    for (int n : by_offset) std::fprintf(stderr, " %d", n);
    std::fprintf(stderr, "\n");
  }
}

}  // namespace

int main(int argc, char** argv) {
  using namespace opengpa::nvidia;
  if (argc != 5 && argc != 6) {
    std::fprintf(stderr, "usage: pm_rate INTERVAL_US BUFFER_MIB DECODE_MS SECONDS [METRICS]\n");
    return 2;
  }
  const double interval_us = std::atof(argv[1]);
  const size_t buffer_mib = std::strtoul(argv[2], nullptr, 10);
  const int decode_ms = std::atoi(argv[3]);
  const double seconds = std::atof(argv[4]);

  cudaSetDevice(0);
  const size_t n = (size_t{64} << 20) / sizeof(float4);  // 64 MiB each way per launch
  float4* in = nullptr;
  float4* out = nullptr;
  cudaMalloc(&in, n * sizeof(float4));
  cudaMalloc(&out, n * sizeof(float4));
  cudaMemset(in, 1, n * sizeof(float4));
  cudaDeviceSynchronize();
  CUcontext context = nullptr;
  cuCtxGetCurrent(&context);

  std::unique_ptr<cupti::CuptiLibrary> cupti;
  if (cupti::CuptiLibrary::Load(cupti::DefaultCuptiCandidates(), &cupti) != kGpaStatusOk) return 1;
  std::unique_ptr<cupti::ProfilerSession> session;
  if (cupti::ProfilerSession::Begin(*cupti, &session) != kGpaStatusOk) return 1;
  const CudaDriver* driver = LoadCudaDriver();
  // PM_RATE_CONTEXT=none enables sampling without the program's context, as the monitor and the CLI's sampled mode
  // (another process) do.
  const char* context_choice = std::getenv("PM_RATE_CONTEXT");
  const bool without_context = context_choice != nullptr && std::string(context_choice) == "none";
  PmSampler sampler(*cupti, *driver, 0, "GPU 0", without_context ? nullptr : context);
  PmSamplerOptions options;
  options.interval_ns = static_cast<uint64_t>(interval_us * 1000.0);
  options.hardware_buffer_bytes = buffer_mib << 20;
  options.decode_period = std::chrono::milliseconds(decode_ms);
  std::vector<std::string> metrics = {"dram__bytes_read.sum", "dram__bytes_write.sum", "gpc__cycles_elapsed.max",
                                      "sm__cycles_active.avg", "sm__inst_executed.sum"};
  if (argc == 6) {
    metrics.clear();
    std::stringstream list(argv[5]);
    for (std::string name; std::getline(list, name, ',');) metrics.push_back(name);
  }
  if (sampler.Configure(options, metrics) != kGpaStatusOk) return 1;

  PmSamples samples;
  if (sampler.Start() != kGpaStatusOk) return 1;
  auto pipeline = std::make_unique<PmSamplingPipeline>(sampler);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));  // idle before the work, as in a real program
  uint64_t launches = 0;
  const char* work = std::getenv("PM_RATE_WORK");
  const bool fma = work != nullptr && std::string(work) == "fma";
  // PM_RATE_WORK=none: no work of its own; another process's (as the monitor samples a program), no ground truth.
  const bool idle = work != nullptr && std::string(work) == "none";
  const auto work_start = std::chrono::steady_clock::now();
  cudaEvent_t batch_done[2];
  cudaEventCreateWithFlags(&batch_done[0], cudaEventDisableTiming);
  cudaEventCreateWithFlags(&batch_done[1], cudaEventDisableTiming);
  for (int batch = 0; std::chrono::duration<double>(std::chrono::steady_clock::now() - work_start).count() < seconds;
       ++batch) {
    if (idle) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      pipeline->TakeSamples(&samples);
      continue;
    }
    for (int i = 0; i < 20; ++i, ++launches) {
      if (fma) {
        FmaKernel<<<132 * 8, 256>>>(reinterpret_cast<float*>(out), 200000);
      } else {
        CopyKernel<<<1056, 512>>>(in, out, n);
      }
    }
    // FMA work is kept gapless (one batch always queued behind the running one), so that only a decode makes an
    // SM-idle sample; copies wait for each batch as before.
    cudaEventRecord(batch_done[batch % 2]);
    if (fma) {
      if (batch > 0) cudaEventSynchronize(batch_done[(batch + 1) % 2]);
    } else {
      cudaDeviceSynchronize();
    }
    pipeline->TakeSamples(&samples);  // as the monitor's ticks and the profiler's collection do
  }
  cudaDeviceSynchronize();
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  pipeline->Finish();
  pipeline->TakeSamples(&samples);
  const size_t peak_waiting = pipeline->PeakWaitingImages();
  pipeline.reset();
  if (sampler.Stop(&samples) != kGpaStatusOk) std::fprintf(stderr, "stop failed\n");
  std::fprintf(stderr, "%s\n", sampler.Describe().c_str());
  if (fma) ReportDecodeDisturbance(samples, metrics.size(), sampler.DecodeStarts(), interval_us * 1000.0);

  double read = 0;
  std::vector<double> spans_us;
  for (size_t i = 0; i < samples.times.size(); ++i) {
    read += samples.values[i * metrics.size()];
    spans_us.push_back((samples.times[i].end_ns - samples.times[i].start_ns) / 1e3);
  }
  std::sort(spans_us.begin(), spans_us.end());
  const double median_span = spans_us.empty() ? 0.0 : spans_us[spans_us.size() / 2];
  const double p90_span = spans_us.empty() ? 0.0 : spans_us[spans_us.size() * 9 / 10];
  const PmSamplingLosses& loss = sampler.Losses();
  const PmSamplingCosts& cost = sampler.Costs();
  const double expected_read = static_cast<double>(launches) * static_cast<double>(n * sizeof(float4));
  std::printf(
      "| %zu | %g | %zu | %d | %zu | %.1f / %.1f | %.1f / %.1f | %llu / %.2f | %llu | %.2f / %.1f | %.2f | %.1f | %.2f "
      "| %zu | %.4f |\n",
      metrics.size(), interval_us, buffer_mib, decode_ms, samples.times.size(), median_span, p90_span,
      loss.covered_ns / 1e6, loss.sampled_ns / 1e6, static_cast<unsigned long long>(loss.gaps), loss.gap_ns / 1e6,
      static_cast<unsigned long long>(loss.overflows),
      cost.decode_calls ? cost.decode_ns / 1e6 / cost.decode_calls : 0.0, cost.longest_decode_ns / 1e6,
      cost.samples ? static_cast<double>(cost.evaluate_ns) / cost.samples / 1e3 : 0.0,
      static_cast<double>(cost.image_bytes) / (1 << 20),
      cost.decode_calls ? cost.prepare_ns / 1e6 / cost.decode_calls : 0.0, peak_waiting,
      launches != 0 ? read / expected_read : std::nan(""));
  if (idle) std::fprintf(stderr, "DRAM bytes read while sampling: %.6g\n", read);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
