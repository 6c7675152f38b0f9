// The GPA v3.17 ABI as a C11 client sees it: the generated pins (abi_pins.h) and abi_extra_pins.h are
// _Static_asserts, so a difference fails this file's build. Run, it checks the C interface loader's names.
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

#include "tests/abi/abi_extra_pins.h"
#include "tests/abi/abi_pins.h"

GpaFuncTableInfo* gpa_function_table_info = NULL;

static int failures = 0;

static void ExpectString(const char* what, const char* actual, const char* expected) {
  if (strcmp(actual, expected) != 0) {
    fprintf(stderr, "%s: \"%s\", expected \"%s\"\n", what, actual, expected);
    ++failures;
  }
}

int main(void) {
  ExpectString("library of kGpaApiVulkan", GpaInterfaceLoaderGetLibraryFileName(kGpaApiVulkan), "libGPUPerfAPIVK.so");
  ExpectString("library of kGpaApiOpengl", GpaInterfaceLoaderGetLibraryFileName(kGpaApiOpengl), "libGPUPerfAPIGL.so");
  ExpectString("library of kGpaApiOpencl", GpaInterfaceLoaderGetLibraryFileName(kGpaApiOpencl), "libGPUPerfAPICL.so");
  ExpectString("library of kGpaApiCuda", GpaInterfaceLoaderGetLibraryFileName(kGpaApiCuda), "libGPUPerfAPICUDA.so");
  ExpectString("library of kGpaApiDirectx11", GpaInterfaceLoaderGetLibraryFileName(kGpaApiDirectx11), "");
  ExpectString("full path in /opt/gpa", GpaInterfaceLoaderGetLibraryFullPath(kGpaApiVulkan, TFORMAT("/opt/gpa")),
               "/opt/gpa/libGPUPerfAPIVK.so");
  if (GpaInterfaceLoaderLoadApi(kGpaApiDirectx12, NULL) != kGpaStatusErrorApiNotSupported) {
    fprintf(stderr, "loading DirectX 12 is not kGpaStatusErrorApiNotSupported\n");
    ++failures;
  }
  if (GpaInterfaceLoaderGetFunctionTable(kGpaApiVulkan) != NULL) {
    fprintf(stderr, "a table for an API never loaded\n");
    ++failures;
  }
  GpaInterfaceLoaderClearLoader();
  if (failures == 0) printf("GPA v3.17 ABI pinned for C: every assertion held at compile time\n");
  return failures == 0 ? 0 : 1;
}
