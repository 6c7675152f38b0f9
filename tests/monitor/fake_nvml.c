/* A stand-in for libnvidia-ml.so.1 that exercises the loader's error paths in CI, where no NVIDIA
 * driver exists. Compiled into several libraries, each broken in one way (see CMakeLists.txt):
 *   FAKE_NVML_OMIT_UUID    lacks nvmlDeviceGetUUID (a function the loader requires)
 *   FAKE_NVML_INIT_FAILS   nvmlInit_v2 answers NVML_ERROR_DRIVER_NOT_LOADED (9)
 *   FAKE_NVML_OMIT_POWER   lacks nvmlDeviceGetPowerUsage (a per-counter function)
 *   FAKE_NVML_FIXED_POWER  reports a fixed power draw of 123456 mW (123.456 W), so a test can follow one
 *                          known value from `opengpa monitor` through a real Prometheus server
 * Otherwise it reports one device and never a counter value: nothing measured comes from here. */
#include <string.h>

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
