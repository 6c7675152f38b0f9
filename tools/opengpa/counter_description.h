// Everything GPA (and the OpenGPA extensions, where the library offers them) says about each counter of
// an open context, read once so every output format prints the same facts.
#ifndef OPENGPA_TOOLS_OPENGPA_COUNTER_DESCRIPTION_H_
#define OPENGPA_TOOLS_OPENGPA_COUNTER_DESCRIPTION_H_

#include <optional>
#include <string>
#include <vector>

#include "gpa_library.h"

namespace opengpa::cli {

struct CounterDescription {
  GpaUInt32 index = 0;
  std::string name;
  std::string group;
  std::string description;
  std::string data_type;                     // GpaGetDataTypeAsStr
  std::string usage;                         // GpaGetUsageTypeAsStr
  std::string uuid;                          // 8-4-4-4-12 hex
  std::string sample_type;                   // "discrete" / "streaming" / "discrete+streaming"
  std::optional<std::string> formula;        // OpenGpaGetCounterFormula, when exported
  std::optional<std::string> hardware_unit;  // OpenGpaGetCounterHardwareUnit, when exported and non-empty
};

struct DeviceDescription {
  std::string name;
  GpaUInt32 device_id = 0;
  GpaUInt32 revision_id = 0;
  std::string generation;
};

bool DescribeCounters(const GpaLibrary& library, const GpaContext& context, std::vector<CounterDescription>* out,
                      std::string* error);
bool DescribeDevice(const GpaLibrary& library, const GpaContext& context, DeviceDescription* out, std::string* error);

std::string FormatUuid(const GpaUuid& uuid);

}  // namespace opengpa::cli

#endif  // OPENGPA_TOOLS_OPENGPA_COUNTER_DESCRIPTION_H_
