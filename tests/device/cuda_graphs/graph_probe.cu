// What CUPTI's range profiler does with CUDA graph launches (issue 12's probe, run once on the H100;
// docs/validation.md). One scenario per process, since a failed pass may leave CUPTI unusable:
//   arrangement     auto range, user replay: a pass of plain launches stopped and decoded; the graphs
//                   captured and instantiated with no pass open; a second pass over G, E, G launches
//   userrange       user range, user replay: one range pushed around each graph launch
//   kernelreplay    auto range, kernel replay, over G and E launches
//   capture         a pass left open while a stream captures G (no graph launch in it)
//   capturelaunch   a pass left open while a stream captures G, then G launched in the same pass
// Each decoded range is printed with its name and counters. Usage: graph_probe SCENARIO
#include <cuda.h>

#include <string>
#include <vector>

#include "known_work.cuh"
#include "nvidia/cupti_host_metrics.h"
#include "nvidia/cupti_range_session.h"

using namespace opengpa::nvidia;

namespace {

// One pass on GH100 (FFMA counts would need a second).
const std::vector<std::string> kMetrics = {"smsp__inst_executed.sum", "dram__bytes_read.sum", "dram__bytes_write.sum",
                                           "gpu__time_duration.sum"};

struct Probe {
  CUcontext context = nullptr;
  std::unique_ptr<CuptiHostMetrics> chip;
  std::unique_ptr<CuptiMetricConfig> config;
  std::unique_ptr<CuptiRangeSession> session;

  bool Setup(CUpti_ProfilerRange range, CUpti_ProfilerReplayMode replay) {
    CHECK(cudaFree(nullptr));
    cuCtxGetCurrent(&context);
    std::string chip_name;
    std::vector<std::uint8_t> availability;
    if (EnsureCuptiProfilerInitialized() != kGpaStatusOk || CuptiChipName(0, &chip_name) != kGpaStatusOk ||
        CounterAvailabilityImage(context, &availability) != kGpaStatusOk ||
        CuptiHostMetrics::Create(chip_name, availability, &chip) != kGpaStatusOk ||
        CuptiMetricConfig::Create(*chip, kMetrics, &config) != kGpaStatusOk) {
      std::printf("SETUP FAILED\n");
      return false;
    }
    std::printf("chip %s, %zu pass(es) for the metrics\n", chip_name.c_str(), config->pass_count());
    RangeProfilerOptions options;
    options.range = range;
    options.replay = replay;
    options.max_ranges_per_pass = 64;
    if (CuptiRangeSession::Create(context, *config, options, &session) != kGpaStatusOk) {
      std::printf("SESSION FAILED\n");
      return false;
    }
    return true;
  }

  void Start(const char* what) {
    std::printf("[%s] Start: %s\n", what, session->Start() == kGpaStatusOk ? "ok" : "FAILED");
  }

  // Stops the pass, decodes it and prints every range; then readies the object for another pass.
  void StopAndPrint(const char* what) {
    bool all = false;
    const bool stopped = session->Stop(&all) == kGpaStatusOk;
    std::printf("[%s] Stop: %s\n", what, stopped ? "ok" : "FAILED");
    if (!stopped) return;
    std::size_t dropped = 0, ranges = 0;
    const bool decoded = session->Decode(&dropped) == kGpaStatusOk;
    const bool counted = CounterDataRangeCount(session->counter_data(), &ranges) == kGpaStatusOk;
    if (!counted) ranges = 0;  // the probe prints what CUPTI gives; an unreadable image has no ranges to print
    std::printf("[%s] Decode: %s, %zu ranges, %zu dropped\n", what, decoded ? "ok" : "FAILED", ranges, dropped);
    std::vector<double> values(kMetrics.size());
    for (std::size_t r = 0; r < ranges; ++r) {
      std::string name;
      if (CounterDataRangeName(session->counter_data(), r, &name) != kGpaStatusOk) name = "(no name)";
      const bool evaluated = config->Evaluate(session->counter_data(), r, values.data()) == kGpaStatusOk;
      std::printf("  range %2zu %-40.40s inst %12.0f read %12.0f write %12.0f ns %9.0f%s\n", r, name.c_str(), values[0],
                  values[1], values[2], values[3], evaluated ? "" : " (EVAL FAILED)");
    }
    if (session->ResetCounterData(false) != kGpaStatusOk) std::printf("[%s] ResetCounterData: FAILED\n", what);
  }
};

}  // namespace

int main(int argc, char** argv) {
  const std::string scenario = argc > 1 ? argv[1] : "arrangement";
  Probe probe;
  const bool user_range = scenario == "userrange";
  if (!probe.Setup(user_range ? CUPTI_UserRange : CUPTI_AutoRange,
                   scenario == "kernelreplay" ? CUPTI_KernelReplay : CUPTI_UserReplay)) {
    return 1;
  }
  KnownWork work;
  work.Allocate();
  cudaStream_t stream;
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  const char* s = scenario.c_str();
  if (scenario == "arrangement") {
    probe.Start("plain");
    work.PlainLaunches(stream);
    CHECK(cudaStreamSynchronize(stream));
    probe.StopAndPrint("plain");
  }
  if (scenario == "capture" || scenario == "capturelaunch") {
    probe.Start(s);
    work.PlainLaunches(stream);
  }
  cudaGraph_t captured = work.Capture(stream);
  cudaGraphExec_t g = KnownWork::Instantiate(captured);
  cudaGraphExec_t e = KnownWork::Instantiate(work.Build());
  if (scenario == "capture") {
    CHECK(cudaStreamSynchronize(stream));
    probe.StopAndPrint(s);
    return 0;
  }
  if (scenario != "capturelaunch") probe.Start(s);
  if (user_range) {
    if (probe.session->PushRange("graph G") != kGpaStatusOk) std::printf("PushRange: FAILED\n");
    CHECK(cudaGraphLaunch(g, stream));
    CHECK(cudaStreamSynchronize(stream));
    if (probe.session->PopRange() != kGpaStatusOk) std::printf("PopRange: FAILED\n");
    if (probe.session->PushRange("graph E") != kGpaStatusOk) std::printf("PushRange: FAILED\n");
    CHECK(cudaGraphLaunch(e, stream));
    CHECK(cudaStreamSynchronize(stream));
    if (probe.session->PopRange() != kGpaStatusOk) std::printf("PopRange: FAILED\n");
  } else {
    CHECK(cudaGraphLaunch(g, stream));
    CHECK(cudaGraphLaunch(e, stream));
    CHECK(cudaGraphLaunch(g, stream));
    known_ffma<<<KnownWork::kFfmaBlocks, KnownWork::kThreads, 0, stream>>>(work.out, KnownWork::kIterations);
  }
  const cudaError_t synced = cudaStreamSynchronize(stream);
  std::printf("[%s] synchronize: %s\n", s, cudaGetErrorString(synced));
  probe.StopAndPrint(s);
  return 0;
}
