// `opengpa list --api vk|gl|cl|cuda --vendor-id V --device-id D`: the counters AMD's offline counter library
// (libGPUPerfAPICounters.so, gpu_perf_api_counters.h) describes for a device named by its ids, with no GPU and no
// driver: what a context on that device would list (docs/counter-library.md), and for devices no OpenGPA backend
// reads, what the library computes from values read elsewhere: Arm's Mali G1 (vendor 0x13B5, docs/arm-mali.md).
// The counters come out as CounterDescriptions, so `list` prints them as it prints a live context's.
#ifndef OPENGPA_TOOLS_OPENGPA_COUNTER_LIBRARY_LISTING_H_
#define OPENGPA_TOOLS_OPENGPA_COUNTER_LIBRARY_LISTING_H_

#include <string>
#include <vector>

#include "client/gpa_library_search.h"  // ApiNumber
#include "counter_description.h"
#include "gpu_performance_api/gpu_perf_api_types.h"

namespace opengpa::cli {

struct CounterLibraryDevice {
  client::ApiNumber api = kGpaApiVulkan;  // a number: client::kApiCuda lies outside GpaApiType
  GpaUInt32 vendor_id = 0;
  GpaUInt32 device_id = 0;
  GpaUInt32 revision_id = 0;
  bool hardware = false;  // kGpaOpenContextEnableHardwareCountersBit
  bool verbose = false;   // the library's messages on stderr, not only its errors
};

// Every counter of the library's context for `device`; false and *error (with the library's own reason) when the
// library does not load or refuses the device.
bool DescribeThroughCounterLibrary(const CounterLibraryDevice& device, DeviceDescription* description,
                                   std::vector<CounterDescription>* counters, std::string* error);

// "0x13B5" or "5045" as a 32-bit id; false for anything else.
bool ParseDeviceId(const std::string& text, GpaUInt32* value);

}  // namespace opengpa::cli

#endif  // OPENGPA_TOOLS_OPENGPA_COUNTER_LIBRARY_LISTING_H_
