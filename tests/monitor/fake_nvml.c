/* A stand-in for libnvidia-ml.so.1 that exercises the loader's error paths in CI, where no NVIDIA
 * driver exists. Compiled into several libraries, each broken in one way (see CMakeLists.txt):
 *   FAKE_NVML_OMIT_UUID    lacks nvmlDeviceGetUUID (a function the loader requires)
 *   FAKE_NVML_INIT_FAILS   nvmlInit_v2 answers NVML_ERROR_DRIVER_NOT_LOADED (9)
 *   FAKE_NVML_OMIT_POWER   lacks nvmlDeviceGetPowerUsage (a per-counter function)
 *   FAKE_NVML_FIXED_POWER  reports a fixed power draw of 123456 mW (123.456 W), so a test can follow one
 *                          known value from `opengpa monitor` through a real Prometheus server
 *   FAKE_NVML_GPM          FIXED_POWER, and GPM: each metric's value is its id (a PCIe or NVLink rate in MiB/s
 *                          likewise), NVLink's two totals are not supported, and nvmlGpmMetricsGet refuses two
 *                          samples out of order, so a test can tell every value, unit and sample apart
 *   FAKE_NVML_GPM_UNSUPPORTED  FIXED_POWER, exporting GPM on a device that does not support it (pre-Hopper)
 * Otherwise it reports one device and never a counter value: nothing measured comes from here. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(FAKE_NVML_GPM) || defined(FAKE_NVML_GPM_UNSUPPORTED)
#define FAKE_NVML_FIXED_POWER
#define FAKE_NVML_EXPORTS_GPM
#endif

#define EXPORT __attribute__((visibility("default")))

typedef struct nvmlDevice_st* nvmlDevice_t;
static int g_device_token;

EXPORT int nvmlInit_v2(void) {
#ifdef FAKE_NVML_INIT_FAILS
  return 9;
#else
  return 0;
#endif
}
EXPORT int nvmlShutdown(void) { return 0; }
EXPORT const char* nvmlErrorString(int result) { return result == 9 ? "Fake Driver Not Loaded" : "Fake Error"; }
EXPORT int nvmlDeviceGetCount_v2(unsigned int* count) {
  *count = 1;
  return 0;
}
EXPORT int nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t* device) {
  if (index != 0) return 2;
  *device = (nvmlDevice_t)&g_device_token;
  return 0;
}
EXPORT int nvmlDeviceGetName(nvmlDevice_t device, char* name, unsigned int length) {
  (void)device;
  strncpy(name, "Fake NVML device", length);
  return 0;
}
#ifndef FAKE_NVML_OMIT_UUID
EXPORT int nvmlDeviceGetUUID(nvmlDevice_t device, char* uuid, unsigned int length) {
  (void)device;
  strncpy(uuid, "GPU-00000000-0000-0000-0000-000000000000", length);
  return 0;
}
#endif
#ifndef FAKE_NVML_OMIT_POWER
EXPORT int nvmlDeviceGetPowerUsage(nvmlDevice_t device, unsigned int* milliwatts) {
  (void)device;
#ifdef FAKE_NVML_FIXED_POWER
  *milliwatts = 123456;
  return 0;
#else
  (void)milliwatts;
  return 3; /* NVML_ERROR_NOT_SUPPORTED: the fake measures nothing */
#endif
}
#endif

#ifdef FAKE_NVML_EXPORTS_GPM
/* nvmlGpmSample_t is a pointer to the library's own buffer; here it holds when the sample was taken. */
typedef struct nvmlGpmSample_st {
  long long taken_ns;
} * nvmlGpmSample_t;
typedef struct {
  unsigned int version;
  unsigned int isSupportedDevice;
} nvmlGpmSupport_t;
typedef struct {
  unsigned int metricId;
  int nvmlReturn;
  double value;
  struct {
    char* shortName;
    char* longName;
    char* unit;
  } metricInfo;
} nvmlGpmMetric_t;
typedef struct {
  unsigned int version;
  unsigned int numMetrics;
  nvmlGpmSample_t sample1;
  nvmlGpmSample_t sample2;
  nvmlGpmMetric_t metrics[210];
} nvmlGpmMetricsGet_t;

EXPORT int nvmlGpmQueryDeviceSupport(nvmlDevice_t device, nvmlGpmSupport_t* support) {
  if (device != (nvmlDevice_t)&g_device_token || support == NULL || support->version != 1) return 2;
#ifdef FAKE_NVML_GPM_UNSUPPORTED
  support->isSupportedDevice = 0;
#else
  support->isSupportedDevice = 1;
#endif
  return 0;
}
EXPORT int nvmlGpmSampleAlloc(nvmlGpmSample_t* sample) {
  *sample = calloc(1, sizeof(**sample));
  return *sample != NULL ? 0 : 2;
}
EXPORT int nvmlGpmSampleFree(nvmlGpmSample_t sample) {
  free(sample);
  return 0;
}
EXPORT int nvmlGpmSampleGet(nvmlDevice_t device, nvmlGpmSample_t sample) {
  struct timespec now;
  if (device != (nvmlDevice_t)&g_device_token || sample == NULL) return 2;
  clock_gettime(CLOCK_MONOTONIC, &now);
  sample->taken_ns = now.tv_sec * 1000000000LL + now.tv_nsec;
  return 0;
}
EXPORT int nvmlGpmMetricsGet(nvmlGpmMetricsGet_t* request) {
  unsigned int i;
  if (request == NULL || request->version != 1 || request->numMetrics > 210) return 2;
  if (request->sample1 == NULL || request->sample2 == NULL) return 2;
  if (request->sample2->taken_ns <= request->sample1->taken_ns) return 2; /* out of order, or one sample twice */
  for (i = 0; i < request->numMetrics; ++i) {
    const unsigned int id = request->metrics[i].metricId;
    if (id == 60 || id == 61) {
      request->metrics[i].nvmlReturn = 3; /* NVLink: not supported, as on a PCIe board */
      continue;
    }
    request->metrics[i].nvmlReturn = 0;
    request->metrics[i].value = (double)id;
  }
  return 0;
}
#endif
