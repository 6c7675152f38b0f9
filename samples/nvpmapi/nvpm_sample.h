// What both NvPmApi samples share: the user guide's loading fragment (an NvPmApiManager singleton,
// GetNvPmApi()), a checked-call helper, and the checks of values against known work.
#ifndef OPENGPA_SAMPLES_NVPMAPI_NVPM_SAMPLE_H_
#define OPENGPA_SAMPLES_NVPMAPI_NVPM_SAMPLE_H_

#include <cmath>
#include <cstdio>
#include <string>

#include "nvpmapi/NvPmApi.Manager.h"

NvPmApiManager* GetNvPmApiManager();
const NvPmApi* GetNvPmApi();

namespace nvpm_sample {

// The library: --library PATH, else libNvPmApi.Core.so beside the program, else the build's.
std::string LibraryPath(int argc, char** argv);

// Loads the library and calls Init, as the guide's "Initialize NvPmApi"; false (printed) on failure.
bool LoadAndInit(const std::string& path);

// Prints the call and its result when it is not NVPM_OK; returns whether it was.
bool Ok(const char* call, NVPMRESULT result);

// Counts checks; Expect* print a line per check.
struct Checks {
  int failed = 0;
  void ExpectEqual(const std::string& what, double got, double want);
  void ExpectNear(const std::string& what, double got, double want, double relative);
  void ExpectTrue(const std::string& what, bool ok, const std::string& detail);
};

// GetCounterValueByName's value for `name` and object `object`, or NAN (printed) on failure.
double Value(NVPMContext context, const char* name, NVPMUINT object, NVPMUINT64* cycles = nullptr);
// GetCounterValueByNameFloat64 / Uint64 by the counter's value type: the exact value, or NAN.
double ExactValue(NVPMContext context, const char* name, NVPMUINT object);

}  // namespace nvpm_sample

#endif  // OPENGPA_SAMPLES_NVPMAPI_NVPM_SAMPLE_H_
