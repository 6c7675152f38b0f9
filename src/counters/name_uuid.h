// Name-based UUIDs for public counters (RFC 4122 version 5: SHA-1 of a namespace UUID and the name), so a
// counter keeps its GpaUuid across runs, machines and library versions.
#ifndef OPENGPA_COUNTERS_NAME_UUID_H_
#define OPENGPA_COUNTERS_NAME_UUID_H_

#include <array>
#include <cstdint>
#include <string_view>

#include "gpu_performance_api/gpu_perf_api_types.h"

namespace opengpa {

// SHA-1 digest of `data` (FIPS 180-4); only used for UUIDs, not for security.
std::array<std::uint8_t, 20> Sha1(std::string_view data);

// uuid5(NAMESPACE_URL, "opengpa:" + name): Python's uuid.uuid5(uuid.NAMESPACE_URL, "opengpa:GPUTime")
// gives the same value, which is how the tests check it.
GpaUuid CounterUuid(std::string_view counter_name);

}  // namespace opengpa

#endif  // OPENGPA_COUNTERS_NAME_UUID_H_
