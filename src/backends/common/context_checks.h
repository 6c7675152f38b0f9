// Argument checks that BackendContext implementations share: hardware-counter indices in range, and
// session sample types for a backend that only offers discrete counters. Each failure is logged with the
// GPA function, the argument and its value.
#ifndef OPENGPA_BACKENDS_COMMON_CONTEXT_CHECKS_H_
#define OPENGPA_BACKENDS_COMMON_CONTEXT_CHECKS_H_

#include <cstddef>
#include <string_view>
#include <vector>

#include "core/backend.h"

namespace opengpa {

// kGpaStatusErrorIndexOutOfRange, naming `operation`, for the first index >= `counter_count`.
[[nodiscard]] GpaStatus CheckHardwareCounterIndices(const std::vector<HardwareCounterIndex>& counters,
                                                    std::size_t counter_count, std::string_view operation);

// kGpaStatusErrorIncompatibleSampleTypes for any type but kGpaSessionSampleTypeDiscreteCounter; `api`
// ("OpenGL", "OpenCL") names the backend in the message.
[[nodiscard]] GpaStatus CheckDiscreteCountersOnly(int type, std::string_view api);

}  // namespace opengpa

#endif  // OPENGPA_BACKENDS_COMMON_CONTEXT_CHECKS_H_
