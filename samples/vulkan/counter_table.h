// Sample results as a table: printed with counters as rows (a terminal is taller than wide) and written
// as CSV with one row per sample (what spreadsheets and GPA's own samples expect).
#ifndef OPENGPA_SAMPLES_VULKAN_COUNTER_TABLE_H_
#define OPENGPA_SAMPLES_VULKAN_COUNTER_TABLE_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace opengpa::vkwork {

struct CounterColumn {
  std::string name;
  std::string group;
  std::string usage;  // GpaGetUsageTypeAsStr
  bool is_float = false;
  bool not_meaningful = false;  // printed with " *": the device cannot give this value its usual meaning
};

struct SampleRow {
  std::uint32_t sample_id = 0;
  std::string label;
  std::vector<double> values;  // one per counter column (uint64 results converted exactly up to 2^53)
};

// Counters marked not_meaningful are printed as "<name> *"; the caller explains the mark under the table.
void PrintCounterTable(std::ostream& out, const std::vector<CounterColumn>& counters,
                       const std::vector<SampleRow>& samples);
// Returns false if the file cannot be written.
bool WriteCounterCsv(const std::string& path, const std::string& device_name,
                     const std::vector<CounterColumn>& counters, const std::vector<SampleRow>& samples);

}  // namespace opengpa::vkwork

#endif  // OPENGPA_SAMPLES_VULKAN_COUNTER_TABLE_H_
