#include "nvidia/pm_sampling_pipeline.h"

#include <algorithm>

namespace opengpa::nvidia {

std::chrono::nanoseconds PmDecodePeriodFor(uint64_t interval_ns) {
  return interval_ns < 100'000 ? kPmDecodePeriod / 4 : kPmDecodePeriod;
}

size_t PmHardwareBufferFor(uint64_t interval_ns) {
  return interval_ns < 100'000 ? size_t{256} << 20 : size_t{64} << 20;
}

PmSamplingPipeline::PmSamplingPipeline(PmSampler& sampler) : sampler_(sampler) {
  const std::chrono::nanoseconds decode_period = sampler.decode_period();
  readier_ = std::thread([this] { ReadyImages(); });
  evaluator_ = std::thread([this] { Evaluate(); });
  decoder_ = std::thread([this, decode_period] { Decode(decode_period); });
}

PmSamplingPipeline::~PmSamplingPipeline() { Finish(); }

void PmSamplingPipeline::Decode(std::chrono::nanoseconds period) {
  std::unique_lock<std::mutex> lock(mutex_);
  auto next = std::chrono::steady_clock::now();
  while (!stopping_) {
    next += period;
    if (wake_.wait_until(lock, next, [this] { return stopping_; })) break;
    lock.unlock();
    // A failed decode is logged by the sampler (once) and counted in its losses; the next period tries again.
    std::vector<std::vector<uint8_t>> images;
    static_cast<void>(sampler_.DecodeImages(&images, false));
    lock.lock();
    for (auto& image : images) decoded_.push_back(std::move(image));
    peak_waiting_ = std::max(peak_waiting_, decoded_.size());
    if (!images.empty()) decoded_image_.notify_all();
  }
}

void PmSamplingPipeline::Evaluate() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    decoded_image_.wait(lock, [this] { return !decoded_.empty() || decoding_done_; });
    if (decoded_.empty()) return;
    std::vector<uint8_t> image = std::move(decoded_.front());
    decoded_.pop_front();
    lock.unlock();
    PmSamples samples;
    static_cast<void>(sampler_.EvaluateImage(image, &samples));
    lock.lock();
    // Only as many as a decode can use: the rest are freed here rather than initialised for nothing.
    if (to_ready_.size() < 4) {
      to_ready_.push_back(std::move(image));
      evaluated_image_.notify_one();
    }
    evaluated_.times.insert(evaluated_.times.end(), samples.times.begin(), samples.times.end());
    evaluated_.values.insert(evaluated_.values.end(), samples.values.begin(), samples.values.end());
  }
}

void PmSamplingPipeline::ReadyImages() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    evaluated_image_.wait(lock, [this] { return !to_ready_.empty() || evaluating_done_; });
    if (evaluating_done_) return;  // no decode is left to use them
    std::vector<uint8_t> image = std::move(to_ready_.front());
    to_ready_.pop_front();
    lock.unlock();
    // A failed initialisation is logged; the decoding thread then readies its own.
    static_cast<void>(sampler_.ReadyImage(std::move(image)));
    lock.lock();
  }
}

void PmSamplingPipeline::TakeSamples(PmSamples* samples) {
  std::lock_guard<std::mutex> lock(mutex_);
  samples->times.insert(samples->times.end(), evaluated_.times.begin(), evaluated_.times.end());
  samples->values.insert(samples->values.end(), evaluated_.values.begin(), evaluated_.values.end());
  evaluated_.times.clear();
  evaluated_.values.clear();
}

size_t PmSamplingPipeline::PeakWaitingImages() {
  std::lock_guard<std::mutex> lock(mutex_);
  return peak_waiting_;
}

void PmSamplingPipeline::Finish() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (decoder_.joinable()) decoder_.join();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    decoding_done_ = true;
  }
  decoded_image_.notify_all();
  if (evaluator_.joinable()) evaluator_.join();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    evaluating_done_ = true;
  }
  evaluated_image_.notify_all();
  if (readier_.joinable()) readier_.join();
}

}  // namespace opengpa::nvidia
