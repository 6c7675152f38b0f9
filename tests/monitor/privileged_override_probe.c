/* A program such as a set-user-ID-root tool that links libOpenGPAMonitor.so: it loads the library named by
 * argv[1] (dlopen by absolute path: a privileged program's loader ignores LD_LIBRARY_PATH and $ORIGIN), routes
 * the library's messages to stdout, opens a monitor of the NVML counter power_watts, and prints its effective
 * user id and which GPU it found ("device GPU-...") or the status it got. The check around it
 * (privileged_override_check.sh) runs it as user nobody with OPENGPA_NVML_LIBRARY pointing at a fake NVML:
 * set-user-ID root, the fake must not be loaded; as an ordinary program, it must. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "gpu_performance_api/opengpa_monitor.h"

static void PrintMessage(GpaLoggingType type, const char* message) {
  (void)type;
  printf("log: %s\n", message);
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s /absolute/path/libOpenGPAMonitor.so\n", argv[0]);
    return 2;
  }
  void* library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) {
    printf("cannot load %s: %s\n", argv[1], dlerror());
    return 1;
  }
  typedef GpaStatus (*Register)(GpaLoggingType, GpaLoggingCallbackPtrType);
  typedef GpaStatus (*Create)(const OpenGpaMonitorConfig*, OpenGpaMonitor*);
  typedef GpaStatus (*GetDeviceInfo)(OpenGpaMonitor, GpaUInt32, OpenGpaMonitorDeviceInfo*);
  Register register_logging = (Register)dlsym(library, "OpenGpaMonitorRegisterLoggingCallback");
  Create create = (Create)dlsym(library, "OpenGpaMonitorCreate");
  GetDeviceInfo device_info = (GetDeviceInfo)dlsym(library, "OpenGpaMonitorGetDeviceInfo");
  if (register_logging == NULL || create == NULL || device_info == NULL) {
    printf("%s lacks the monitor's functions\n", argv[1]);
    return 1;
  }
  printf("euid %u uid %u\n", (unsigned)geteuid(), (unsigned)getuid());
  register_logging(kGpaLoggingAll, PrintMessage);
  const char* counters[] = {"power_watts"};
  OpenGpaMonitorConfig config;
  memset(&config, 0, sizeof config);
  config.struct_size = sizeof config;
  config.counter_names = counters;
  config.counter_count = 1;
  OpenGpaMonitor monitor = NULL;
  const GpaStatus status = create(&config, &monitor);
  if (status != kGpaStatusOk) {
    printf("create failed: status %d\n", (int)status);
    return 0;
  }
  OpenGpaMonitorDeviceInfo info;
  if (device_info(monitor, 0, &info) == kGpaStatusOk) printf("device %s\n", info.uuid);
  return 0;
}
