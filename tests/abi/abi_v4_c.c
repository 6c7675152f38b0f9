// The GPA 4.3 ABI as a C11 client of include/v4 sees it: the generated pins (abi_pins_v4.h) are _Static_asserts,
// so a difference fails this file's build. Run, it checks the v4 loader's library names (no OpenCL in GPA 4).
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "gpu_performance_api/gpu_perf_api.h"
#include "gpu_performance_api/gpu_perf_api_counters.h"
#include "gpu_performance_api/gpu_perf_api_interface_loader.h"
#include "gpu_performance_api/opengpa_ext.h"
#ifdef ABI_PINS_WITH_VULKAN
#include "gpu_performance_api/gpu_perf_api_vk.h"
#endif

#define ABI_PIN(condition, what) _Static_assert(condition, what)
#define ABI_ALIGNOF(type) _Alignof(type)
// Floating types are signed; for them the comparison below is not an integer constant expression in C (clang
// refuses it in _Static_assert, gcc accepts it as an extension), so _Generic answers first.
#define ABI_IS_SIGNED(type) \
  _Generic((type)0, float : 1, double : 1, long double : 1, default : ((type)((type)0 - 1) < (type)1))

_Static_assert(sizeof(void*) == 8, "the pins are LP64's (x86_64 and aarch64 Linux)");

#include "tests/abi/abi_pins_v4.h"

GpaFuncTableInfo* gpa_function_table_info = NULL;

int main(void) {
  int failures = 0;
  if (strcmp(GpaInterfaceLoaderGetLibraryFileName(kGpaApiVulkan), "libGPUPerfAPIVK.so") != 0) ++failures;
  if (strcmp(GpaInterfaceLoaderGetLibraryFileName(kGpaApiOpengl), "libGPUPerfAPIGL.so") != 0) ++failures;
  if (strcmp(GpaInterfaceLoaderGetLibraryFileName(kGpaApiCuda), "libGPUPerfAPICUDA.so") != 0) ++failures;
  if (GpaInterfaceLoaderLoadApi(kGpaApiDirectx12, NULL) != kGpaStatusErrorApiNotSupported) ++failures;
  GpaInterfaceLoaderClearLoader();
  if (failures == 0) printf("GPA 4.3 ABI pinned for C: every assertion held at compile time\n");
  return failures == 0 ? 0 : 1;
}
