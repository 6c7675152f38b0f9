// One chip's metrics through CUPTI's profiler host API (cupti_profiler_host.h). Works without a GPU or
// driver: everything here needs only a chip name (and, for a live device, its counter-availability
// image so that metrics the device cannot collect right now are left out).
//
//   CuptiHostMetrics   what the chip offers: base metrics, their sub-metrics and properties.
//   CuptiMetricConfig  one set of metrics scheduled by CUPTI: config image, pass count, and evaluation
//                      of a decoded counter-data image into metric values.
//
// Reusable on its own (the `opengpa profile` CLI uses it with kernel replay); the GPA backend is one client.
#ifndef OPENGPA_NVIDIA_CUPTI_HOST_METRICS_H_
#define OPENGPA_NVIDIA_CUPTI_HOST_METRICS_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "gpu_performance_api/gpu_perf_api_types.h"

struct CUpti_Profiler_Host_Object;

namespace opengpa::nvidia {

// CUPTI's three kinds of metric (CUpti_MetricType).
enum class MetricKind { kCounter, kRatio, kThroughput };

struct MetricProperties {
  std::string description;  // CUPTI's own sentence; may be empty
  std::string hw_unit;      // e.g. "dram", "lts", "sm"
  std::string dim_unit;     // e.g. "byte", "nanosecond", "gpc_cycle", "percent"; may be empty
  MetricKind kind = MetricKind::kCounter;
};

struct HostObjectDeleter {
  void operator()(CUpti_Profiler_Host_Object* object) const;
};
using HostObjectPtr = std::unique_ptr<CUpti_Profiler_Host_Object, HostObjectDeleter>;

// Creates a range-profiler host object for `chip`; `counter_availability` may be empty.
[[nodiscard]] GpaStatus CreateHostObject(std::string_view chip, const std::vector<std::uint8_t>& counter_availability,
                                         HostObjectPtr* out);

// The chips the installed CUPTI can profile ("GV100", ..., "GH100", "AD102", "GB202", ...).
std::vector<std::string> SupportedChips();

class CuptiHostMetrics {
  struct Key {  // only Create constructs one
    explicit Key() = default;
  };

 public:
  CuptiHostMetrics(Key, std::string chip, std::vector<std::uint8_t> availability, HostObjectPtr host);

  // Fails with kGpaStatusErrorHardwareNotSupported (logged) when CUPTI does not know `chip`.
  [[nodiscard]] static GpaStatus Create(std::string_view chip, std::vector<std::uint8_t> counter_availability,
                                        std::unique_ptr<CuptiHostMetrics>* out);

  const std::string& chip() const { return chip_; }
  const std::vector<std::uint8_t>& counter_availability() const { return counter_availability_; }

  // Base metric names of one kind, in CUPTI's order.
  const std::vector<std::string>& BaseMetrics(MetricKind kind) const;
  // Suffixes CUPTI offers for `base` (".sum", ".avg.pct_of_peak_sustained_elapsed", ".pct", ...).
  [[nodiscard]] GpaStatus SubMetrics(MetricKind kind, std::string_view base, std::vector<std::string>* suffixes) const;
  // Properties of a base metric or of a full name with rollup/sub-metric. Fails (not logged) for a name
  // the chip does not have.
  [[nodiscard]] GpaStatus Properties(std::string_view metric, MetricProperties* out) const;

 private:
  // Read once: CUPTI 13.0 appends to its list again on every cuptiProfilerHostGetBaseMetrics call.
  [[nodiscard]] GpaStatus ReadBaseMetrics();

  std::string chip_;
  std::vector<std::string> base_metrics_[3];  // by MetricKind
  std::vector<std::uint8_t> counter_availability_;
  HostObjectPtr host_;
};

// A set of full metric names ("dram__bytes_read.sum", "lts__t_sector_hit_rate.pct") scheduled by CUPTI.
// Owns the host object that scheduled them, which also evaluates their values.
class CuptiMetricConfig {
  struct Key {  // only Create constructs one
    explicit Key() = default;
  };

 public:
  explicit CuptiMetricConfig(Key) {}

  // Fails when CUPTI cannot schedule the set; the log names the first metric CUPTI refused (unknown on
  // this chip, or not collectable together with the metrics before it, as PCIe counters with SM counters).
  [[nodiscard]] static GpaStatus Create(const CuptiHostMetrics& chip, std::vector<std::string> metrics,
                                        std::unique_ptr<CuptiMetricConfig>* out);

  const std::vector<std::string>& metrics() const { return metrics_; }
  const std::vector<std::uint8_t>& image() const { return image_; }
  std::size_t pass_count() const { return pass_count_; }

  // values[i] = metrics()[i] for range `range_index` of a decoded counter-data image.
  [[nodiscard]] GpaStatus Evaluate(const std::vector<std::uint8_t>& counter_data, std::size_t range_index,
                                   double* values) const;

 private:
  std::vector<std::string> metrics_;
  std::vector<const char*> metric_pointers_;  // into metrics_, as CUPTI takes them
  std::vector<std::uint8_t> image_;
  std::size_t pass_count_ = 0;
  HostObjectPtr host_;
};

// Ranges stored in a decoded counter-data image, and the name of one (nested names joined by '/').
[[nodiscard]] GpaStatus CounterDataRangeCount(const std::vector<std::uint8_t>& counter_data, std::size_t* count);
[[nodiscard]] GpaStatus CounterDataRangeName(const std::vector<std::uint8_t>& counter_data, std::size_t range_index,
                                             std::string* name);

}  // namespace opengpa::nvidia

#endif  // OPENGPA_NVIDIA_CUPTI_HOST_METRICS_H_
