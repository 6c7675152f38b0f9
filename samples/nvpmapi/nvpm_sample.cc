// ********************************************************
// Set up NVPMAPI (the user guide's fragment: NVPM_INITGUID in one file, before the first NvPmApi header)
#define NVPM_INITGUID
#include "nvpmapi/NvPmApi.Manager.h"

#include <unistd.h>

#include <cstring>

#include "nvpm_sample.h"

// Simple singleton implementation for grabbing the NvPmApi
static NvPmApiManager S_NVPMManager;
NvPmApiManager* GetNvPmApiManager() { return &S_NVPMManager; }
const NvPmApi* GetNvPmApi() { return S_NVPMManager.Api(); }

namespace nvpm_sample {

std::string LibraryPath(int argc, char** argv) {
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], "--library") == 0) return argv[i + 1];
  }
  char self[4096] = {};
  ssize_t length = readlink("/proc/self/exe", self, sizeof self - 1);
  if (length > 0) {
    std::string beside = std::string(self, static_cast<size_t>(length));
    beside = beside.substr(0, beside.rfind('/') + 1) + "libNvPmApi.Core.so";
    if (access(beside.c_str(), R_OK) == 0) return beside;
  }
  return OPENGPA_NVPMAPI_LIBRARY;
}

bool LoadAndInit(const std::string& path) {
  if (GetNvPmApiManager()->Construct(path.c_str()) != S_OK) {
    std::printf("cannot load %s: %s\n", path.c_str(), GetNvPmApiManager()->LastError().c_str());
    return false;  // This is an error condition
  }
  NVPMRESULT nvResult;
  if ((nvResult = GetNvPmApi()->Init()) != NVPM_OK) {
    std::printf("Init: %d\n", nvResult);
    return false;  // This is an error condition
  }
  return true;
}

bool Ok(const char* call, NVPMRESULT result) {
  if (result != NVPM_OK) std::printf("FAILED: %s returned %d\n", call, static_cast<int>(result));
  return result == NVPM_OK;
}

void Checks::ExpectEqual(const std::string& what, double got, double want) {
  bool ok = got == want;
  std::printf("%s %-58s %.6g (expected %.6g)\n", ok ? "ok  " : "FAIL", what.c_str(), got, want);
  failed += ok ? 0 : 1;
}

void Checks::ExpectNear(const std::string& what, double got, double want, double relative) {
  bool ok = std::fabs(got - want) <= relative * std::fabs(want);
  std::printf("%s %-58s %.6g (expected %.6g +- %.0f%%)\n", ok ? "ok  " : "FAIL", what.c_str(), got, want,
              relative * 100);
  failed += ok ? 0 : 1;
}

void Checks::ExpectTrue(const std::string& what, bool ok, const std::string& detail) {
  std::printf("%s %-58s %s\n", ok ? "ok  " : "FAIL", what.c_str(), detail.c_str());
  failed += ok ? 0 : 1;
}

double Value(NVPMContext context, const char* name, NVPMUINT object, NVPMUINT64* cycles) {
  NVPMUINT64 value = 0;
  NVPMUINT64 cycle = 0;
  NVPMRESULT result = GetNvPmApi()->GetCounterValueByName(context, name, object, &value, &cycle);
  if (result != NVPM_OK) {
    std::printf("FAILED: GetCounterValueByName(%s, %u) returned %d\n", name, object, static_cast<int>(result));
    return NAN;
  }
  if (cycles != nullptr) *cycles = cycle;
  return static_cast<double>(value);
}

double ExactValue(NVPMContext context, const char* name, NVPMUINT object) {
  NVPMCounterID id = 0;
  NVPMUINT64 type = 0;
  if (GetNvPmApi()->GetCounterIDByContext(context, name, &id) != NVPM_OK ||
      GetNvPmApi()->GetCounterAttribute(id, NVPMA_COUNTER_VALUE_TYPE, &type) != NVPM_OK) {
    std::printf("FAILED: no counter %s\n", name);
    return NAN;
  }
  NVPMUINT64 cycles = 0;
  NVPMUINT8 overflow = 0;
  if (type == NVPM_VALUE_TYPE_FLOAT64) {
    double value = 0;
    NVPMRESULT result = GetNvPmApi()->GetCounterValueByNameFloat64(context, name, object, &value, &cycles, &overflow);
    return result == NVPM_OK ? value : NAN;
  }
  NVPMUINT64 value = 0;
  NVPMRESULT result = GetNvPmApi()->GetCounterValueByNameUint64(context, name, object, &value, &cycles, &overflow);
  return result == NVPM_OK ? static_cast<double>(value) : NAN;
}

}  // namespace nvpm_sample
