#include "monitor/pm_sampling_source.h"

namespace opengpa::monitor {

const std::vector<std::string>& DefaultPmMetrics() {
  static const std::vector<std::string> metrics = {
      "gpc__cycles_elapsed.max",
      "sm__cycles_active.avg",
      "sm__inst_executed.sum",
      "sm__warps_active.avg.pct_of_peak_sustained_elapsed",
      "dram__throughput.avg.pct_of_peak_sustained_elapsed",
      "dram__bytes_read.sum",
      "dram__bytes_write.sum",
      "pcie__read_bytes.sum",
      "pcie__write_bytes.sum",
  };
  return metrics;
}

bool LooksLikePmMetricName(std::string_view name) { return name.find("__") != std::string_view::npos; }

}  // namespace opengpa::monitor
