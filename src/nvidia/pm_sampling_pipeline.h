// PM sampling kept flowing at fine intervals: one PmSampler's records decoded by one thread every decode period,
// evaluated into samples by a second, and the evaluated images readied for the next decodes by a third, so that
// the decoding thread does nothing but decode and returns to the hardware buffer in time. At 5 µs
// with two DRAM metrics on the H100, decoding and evaluating on one thread fell behind and lost a third of the run;
// split, every record was kept (docs/validation.md, "Sampled mode"). One thread that decoded first and evaluated
// only until the next decode was due lost more on the H200 than two (two DRAM metrics at 5 µs: 2,674 of 12,226 ms
// against 1,039 of 8,124): a decode that starts late finds more records and takes longer, so it falls further
// behind; two threads overlap their CUPTI calls. Readying an image (CUPTI's initialisation of two decode periods'
// room) cost the decoding thread as much as decoding with the SOL set at 100 µs (docs/validation.md row 76), hence
// the third thread. One per GPU: one thread decoding two busy GPUs
// in turn fell behind both. Used by the monitor (PmSamplingSource) and `opengpa profile --mode sampled`
// (profiler/pm_recording.h). Only compiled with OPENGPA_WITH_PM_SAMPLING.
#ifndef OPENGPA_NVIDIA_PM_SAMPLING_PIPELINE_H_
#define OPENGPA_NVIDIA_PM_SAMPLING_PIPELINE_H_

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include "nvidia/pm_sampler.h"

namespace opengpa::nvidia {

// The decode period for `interval_ns`: kPmDecodePeriod for coarse intervals (each decode zeroes the SM counters
// of the sample in flight, docs/realtime.md), a quarter of it below 100 µs, where a record's loss is small and the
// hardware buffer would otherwise hold a period of many thousands of records.
std::chrono::nanoseconds PmDecodePeriodFor(uint64_t interval_ns);
// The hardware buffer for `interval_ns`: 256 MiB below 100 µs, where 64 MiB overflowed at 5 µs (a decode failed
// with CUPTI_ERROR_UNKNOWN and two seconds were lost) and 256 MiB kept every record (on the H200 1 GiB lost more
// than 256 MiB: 316 of 8,134 ms with one metric, its decodes taking up to 84 ms); 64 MiB above.
size_t PmHardwareBufferFor(uint64_t interval_ns);

class PmSamplingPipeline {
 public:
  // `sampler` is configured and started by the caller and outlives the pipeline; it decodes every
  // sampler.decode_period().
  explicit PmSamplingPipeline(PmSampler& sampler);
  ~PmSamplingPipeline();  // Finish
  PmSamplingPipeline(const PmSamplingPipeline&) = delete;
  PmSamplingPipeline& operator=(const PmSamplingPipeline&) = delete;

  // Appends the samples evaluated since the last call to `samples`.
  void TakeSamples(PmSamples* samples);
  // Stops decoding and waits until everything decoded is evaluated (the sampler's Stop drains the rest). Idempotent.
  void Finish();
  // The most decoded images that waited for the evaluating thread at once: each holds two decode periods of
  // records, so this says what falling behind cost in memory.
  size_t PeakWaitingImages();

 private:
  void Decode(std::chrono::nanoseconds period);
  void Evaluate();
  void ReadyImages();

  PmSampler& sampler_;
  std::mutex mutex_;
  std::condition_variable wake_;             // the decoding thread: stop
  std::condition_variable decoded_image_;    // the evaluating thread: an image, or decoding ended
  std::condition_variable evaluated_image_;  // the readying thread: an image, or evaluating ended
  std::deque<std::vector<uint8_t>> decoded_;
  std::deque<std::vector<uint8_t>> to_ready_;  // evaluated, for the readying thread
  PmSamples evaluated_;
  size_t peak_waiting_ = 0;
  bool stopping_ = false;
  bool decoding_done_ = false;
  bool evaluating_done_ = false;
  std::thread readier_;
  std::thread evaluator_;
  std::thread decoder_;
};

}  // namespace opengpa::nvidia

#endif  // OPENGPA_NVIDIA_PM_SAMPLING_PIPELINE_H_
