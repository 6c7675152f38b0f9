#include "profiler/sampled_attribution.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "platform/text_affixes.h"

namespace opengpa::profiling {
namespace {

std::uint64_t Overlap(std::uint64_t a_start, std::uint64_t a_end, std::uint64_t b_start, std::uint64_t b_end) {
  const std::uint64_t start = std::max(a_start, b_start);
  const std::uint64_t end = std::min(a_end, b_end);
  return end > start ? end - start : 0;
}

bool Disturbed(const SampleSeries& samples, std::size_t s) {
  return s < samples.disturbed.size() && samples.disturbed[s] != 0;
}

// The first sample that ends after `start_ns` (samples are in time order).
std::size_t FirstSampleEndingAfter(const SampleSeries& samples, std::uint64_t start_ns) {
  auto it = std::upper_bound(samples.spans.begin(), samples.spans.end(), start_ns,
                             [](std::uint64_t t, const SampleSeries::Span& span) { return t < span.end_ns; });
  return static_cast<std::size_t>(it - samples.spans.begin());
}

// Marks every piece of work that shares time with another (work sorted by start, `order` gives that order).
void MarkOverlaps(const std::vector<TimedWork>& work, const std::vector<std::size_t>& order,
                  std::vector<AttributedWork>* result) {
  std::vector<std::size_t> running;  // work started earlier and not yet ended at the current start
  for (std::size_t index : order) {
    const TimedWork& current = work[index];
    running.erase(std::remove_if(running.begin(), running.end(),
                                 [&](std::size_t other) { return work[other].end_ns <= current.start_ns; }),
                  running.end());
    if (!running.empty() && current.end_ns > current.start_ns) {
      (*result)[index].overlapped = true;
      for (std::size_t other : running) (*result)[other].overlapped = true;
    }
    running.push_back(index);
  }
}

// Each piece's own rate of each amount: over the samples it ran alone for their whole span (empty: no such sample).
// A sample shared at a boundary then goes to the pieces by their time in it times their own rates, and what is
// left to those with no rate of their own (too short to have a sample alone) by their time. Shared by time alone, a
// 210 µs PyTorch max_pool read 1.9-7.6 % too many DRAM bytes at 20 µs, its neighbours moving bytes several times
// faster; shared by rates, 0.2-1.3 % (the H100's samples at 5 µs, merged into 20 µs ones).
std::vector<std::vector<double>> OwnRates(const std::vector<TimedWork>& work, const SampleSeries& samples,
                                          const std::vector<double>& quantities, const std::vector<double>& work_time,
                                          std::size_t metrics) {
  const std::size_t count = samples.spans.size();
  std::vector<std::vector<double>> rates(work.size());
  for (std::size_t index = 0; index < work.size(); ++index) {
    const TimedWork& piece = work[index];
    std::vector<double> sums(metrics, 0.0);
    double alone_time = 0.0;
    for (std::size_t s = FirstSampleEndingAfter(samples, piece.start_ns);
         s < count && samples.spans[s].start_ns < piece.end_ns; ++s) {
      const SampleSeries::Span& span = samples.spans[s];
      const auto span_time = static_cast<double>(span.end_ns - span.start_ns);
      if (span.start_ns < piece.start_ns || span.end_ns > piece.end_ns || work_time[s] != span_time) continue;
      if (Disturbed(samples, s)) continue;
      alone_time += span_time;
      for (std::size_t m = 0; m < metrics; ++m) sums[m] += quantities[s * metrics + m];
    }
    if (alone_time <= 0.0) continue;
    for (double& sum : sums) sum /= alone_time;
    rates[index] = std::move(sums);
  }
  return rates;
}

// Per sample: the amounts the pieces with a rate would have counted in it, and the time of those without one.
struct RatedSamples {
  std::vector<double> expected;  // [sample * metrics + metric]
  std::vector<double> unrated_time;
};

RatedSamples RateSamples(const std::vector<TimedWork>& work, const SampleSeries& samples,
                         const std::vector<std::vector<double>>& rates, std::size_t metrics) {
  const std::size_t count = samples.spans.size();
  RatedSamples rated{std::vector<double>(count * metrics, 0.0), std::vector<double>(count, 0.0)};
  for (std::size_t index = 0; index < work.size(); ++index) {
    const TimedWork& piece = work[index];
    for (std::size_t s = FirstSampleEndingAfter(samples, piece.start_ns);
         s < count && samples.spans[s].start_ns < piece.end_ns; ++s) {
      const SampleSeries::Span& span = samples.spans[s];
      const auto overlap = static_cast<double>(Overlap(piece.start_ns, piece.end_ns, span.start_ns, span.end_ns));
      if (rates[index].empty()) {
        rated.unrated_time[s] += overlap;
      } else {
        for (std::size_t m = 0; m < metrics; ++m) rated.expected[s * metrics + m] += overlap * rates[index][m];
      }
    }
  }
  return rated;
}

}  // namespace

MetricKind MetricKindOf(const std::string& name, bool accumulates) {
  if (accumulates) return MetricKind::kAmount;
  if (EndsWith(name, ".pct_of_peak_sustained_elapsed") || EndsWith(name, ".per_second")) {
    return MetricKind::kTimeAverage;
  }
  return MetricKind::kReading;
}

std::vector<AttributedWork> AttributeSamples(const std::vector<TimedWork>& work, const SampleSeries& samples,
                                             const std::vector<MetricKind>& kinds, std::uint64_t interval_ns) {
  const std::size_t metrics = kinds.size();
  const std::size_t count = samples.spans.size();
  std::vector<AttributedWork> result(work.size());
  std::vector<std::size_t> order(work.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return work[a].start_ns < work[b].start_ns; });
  MarkOverlaps(work, order, &result);

  // Per sample: the work time inside it, summed over pieces (amount shares) and as a union (the busy time).
  std::vector<double> work_time(count, 0.0);
  std::vector<double> busy_time(count, 0.0);
  bool have_union = false;
  std::uint64_t union_start = 0;
  std::uint64_t union_end = 0;
  auto add_busy = [&](std::uint64_t start, std::uint64_t end) {
    for (std::size_t s = FirstSampleEndingAfter(samples, start); s < count && samples.spans[s].start_ns < end; ++s) {
      busy_time[s] += static_cast<double>(Overlap(start, end, samples.spans[s].start_ns, samples.spans[s].end_ns));
    }
  };
  for (std::size_t index : order) {
    const TimedWork& piece = work[index];
    if (piece.end_ns <= piece.start_ns) continue;
    for (std::size_t s = FirstSampleEndingAfter(samples, piece.start_ns);
         s < count && samples.spans[s].start_ns < piece.end_ns; ++s) {
      work_time[s] += static_cast<double>(
          Overlap(piece.start_ns, piece.end_ns, samples.spans[s].start_ns, samples.spans[s].end_ns));
    }
    // The union of the work intervals, merged as they come in start order.
    if (!have_union || piece.start_ns > union_end) {
      if (have_union) add_busy(union_start, union_end);
      have_union = true;
      union_start = piece.start_ns;
      union_end = piece.end_ns;
    } else {
      union_end = std::max(union_end, piece.end_ns);
    }
  }
  if (have_union) add_busy(union_start, union_end);

  // What adds up over time in each sample: an amount itself, a time average times the sample's span.
  std::vector<double> quantities(samples.values);
  for (std::size_t s = 0; s < count; ++s) {
    const auto span_time = static_cast<double>(samples.spans[s].end_ns - samples.spans[s].start_ns);
    for (std::size_t m = 0; m < metrics; ++m) {
      if (kinds[m] == MetricKind::kTimeAverage) quantities[s * metrics + m] *= span_time;
    }
  }
  const std::vector<std::vector<double>> rates = OwnRates(work, samples, quantities, work_time, metrics);
  const RatedSamples rated_samples = RateSamples(work, samples, rates, metrics);
  const std::vector<double>& expected = rated_samples.expected;
  const std::vector<double>& unrated_time = rated_samples.unrated_time;
  // A piece's share of sample `s`'s amount `value` of metric `m`.
  auto amount_share = [&](std::size_t index, std::size_t s, std::size_t m, double overlap, double value) {
    const double rated = expected[s * metrics + m];
    if (rates[index].empty()) {
      return unrated_time[s] > 0.0 ? std::max(value - rated, 0.0) * overlap / unrated_time[s] : 0.0;
    }
    const double mine = overlap * rates[index][m];
    if (unrated_time[s] > 0.0) return rated > value ? mine * value / rated : mine;
    if (rated > 0.0) return mine * value / rated;
    return value * overlap / work_time[s];  // every rate is 0 here: by time
  };

  const double short_limit = kShortIntervals * static_cast<double>(interval_ns);
  for (std::size_t index = 0; index < work.size(); ++index) {
    const TimedWork& piece = work[index];
    AttributedWork& out = result[index];
    out.values.assign(metrics, 0.0);
    std::vector<double> reading_time(metrics, 0.0);
    const auto duration = static_cast<double>(piece.end_ns > piece.start_ns ? piece.end_ns - piece.start_ns : 0);
    out.short_work = duration < short_limit;
    double covered = 0.0;
    const std::size_t first = FirstSampleEndingAfter(samples, piece.start_ns);
    // Disturbed samples are left out of the averages only when an undisturbed one remains.
    bool undisturbed = false;
    for (std::size_t s = first; s < count && samples.spans[s].start_ns < piece.end_ns; ++s) {
      const SampleSeries::Span& span = samples.spans[s];
      undisturbed = undisturbed ||
                    (!Disturbed(samples, s) && Overlap(piece.start_ns, piece.end_ns, span.start_ns, span.end_ns) > 0);
    }
    if (duration > 0.0) {
      for (std::size_t s = first; s < count && samples.spans[s].start_ns < piece.end_ns; ++s) {
        const SampleSeries::Span& span = samples.spans[s];
        const auto overlap = static_cast<double>(Overlap(piece.start_ns, piece.end_ns, span.start_ns, span.end_ns));
        if (overlap <= 0.0) continue;
        ++out.samples;
        covered += overlap;
        const bool left_out = undisturbed && Disturbed(samples, s);
        out.disturbed_samples += left_out;
        const auto span_time = static_cast<double>(span.end_ns - span.start_ns);
        for (std::size_t m = 0; m < metrics; ++m) {
          if (left_out && kinds[m] != MetricKind::kAmount) continue;
          if (kinds[m] == MetricKind::kReading) {
            out.values[m] += samples.values[s * metrics + m] * (span_time / busy_time[s]) * overlap;
          } else {
            out.values[m] += amount_share(index, s, m, overlap, quantities[s * metrics + m]);
          }
          if (kinds[m] != MetricKind::kAmount) reading_time[m] += overlap;
        }
      }
    }
    out.coverage = duration > 0.0 ? std::min(1.0, covered / duration) : 0.0;
    for (std::size_t m = 0; m < metrics; ++m) {
      if (out.samples == 0) {
        out.values[m] = std::numeric_limits<double>::quiet_NaN();
      } else if (kinds[m] != MetricKind::kAmount) {
        out.values[m] /= reading_time[m];
      }
    }
  }
  return result;
}

}  // namespace opengpa::profiling
