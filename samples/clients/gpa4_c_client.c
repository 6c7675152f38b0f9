/* gpa4_c_client: gpa4_c_client (a GPA application in C, written the way GPA's example programs are) against
 * GPA 4's headers (include/v4) and the C interface loader (GpaInterfaceLoader*): the same library hands it the
 * v4 function table, whose counter queries take the session. It also asks the v4-only questions: the sample
 * types (discrete must be a bit of them) and the device limits (a software driver or an offline chip reports
 * kGpaStatusErrorHardwareNotSupported; GpaUpdateDeviceInformation then makes the wave slots known). It loads
 * libGPUPerfAPI<X>.so from its own folder (or the dynamic loader's path), opens a context on the application's device,
 * enables counters, samples two pieces of real work in every pass, reads the results and checks them against what the
 * work must produce (client_workloads.h). Exit status 0 when every step and check passed.
 *
 * It also checks the GpaSpm* (streaming counter) statuses a context gives: without streaming (lavapipe,
 * llvmpipe) every call on a discrete session is kGpaStatusErrorIncompatibleSampleTypes; with it (the offline
 * GH100) a streaming session answers each call in the order of its state (docs/gpa4.md).
 *
 * usage: gpa4_c_client vulkan|opengl|cuda   (GPA 4 has no OpenCL)
 *   cuda: an offline GH100 context (no GPU): lists counters, enables the default groups, counts passes, and
 *   expects GpaBeginSession to refuse sampling. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "client_workloads.h"
#include "gpu_performance_api/gpu_perf_api.h"
#include "gpu_performance_api/gpu_perf_api_interface_loader.h"
#include "gpu_performance_api/opengpa_ext.h"
#ifdef OPENGPA_CLIENT_WITH_VULKAN
#include "gpu_performance_api/gpu_perf_api_vk.h"
#endif

/* The interface loader's list of loaded libraries (gpu_perf_api_interface_loader.h asks for it once). */
GpaFuncTableInfo* gpa_function_table_info = NULL;

static const GpaFunctionTable* gpa = NULL;

static void LogGpa(GpaLoggingType type, const char* message) {
  fprintf(stderr, "GPA %s: %s\n", (type & kGpaLoggingError) ? "error" : "message", message);
}

/* Stops the client when a GPA call does not return kGpaStatusOk. */
#define GPA_CHECK(call)                                                                                              \
  do {                                                                                                               \
    GpaStatus status_ = (call);                                                                                      \
    if (status_ != kGpaStatusOk) {                                                                                   \
      fprintf(stderr, "gpa4_c_client: %s returned %d (%s)\n", #call, (int)status_, gpa->GpaGetStatusAsStr(status_)); \
      return 1;                                                                                                      \
    }                                                                                                                \
  } while (0)

static int ParseApi(const char* name, GpaApiType* api) {
  if (strcmp(name, "vulkan") == 0)
    *api = kGpaApiVulkan;
  else if (strcmp(name, "opengl") == 0)
    *api = kGpaApiOpengl;
  else if (strcmp(name, "cuda") == 0)
    *api = kGpaApiCuda;
  else
    return 0;
  return 1;
}

/* Enables the counters the workload wants; *enabled gets how many. */
static int EnableCounters(ClientWorkload* workload, GpaSessionId session, GpaUInt32* enabled) {
  GpaUInt32 count = 0;
  GpaUInt32 index;
  GPA_CHECK(gpa->GpaGetNumCounters(session, &count));
  printf("%u counters\n", count);
  *enabled = 0;
  for (index = 0; index < count; ++index) {
    const char* name = NULL;
    const char* group = NULL;
    GPA_CHECK(gpa->GpaGetCounterName(session, index, &name));
    GPA_CHECK(gpa->GpaGetCounterGroup(session, index, &group));
    if (ClientWorkloadWantsCounter(workload, name, group)) {
      GPA_CHECK(gpa->GpaEnableCounter(session, index));
      ++*enabled;
    }
  }
  return 0;
}

/* Records and submits every pass: in each, samples 0 and 1 around the workload's two pieces of work. */
static int RecordPasses(ClientWorkload* workload, GpaSessionId session, GpaUInt32 passes) {
  GpaUInt32 pass;
  for (pass = 0; pass < passes; ++pass) {
    void* command_list = ClientWorkloadBeginCommandList(workload);
    GpaCommandListId gpa_list = NULL;
    GpaUInt32 sample;
    GPA_CHECK(
        gpa->GpaBeginCommandList(session, pass, command_list, ClientWorkloadCommandListType(workload), &gpa_list));
    for (sample = 0; sample < 2; ++sample) {
      GPA_CHECK(gpa->GpaBeginSample(sample, gpa_list));
      ClientWorkloadDoWork(workload, command_list, sample);
      GPA_CHECK(gpa->GpaEndSample(gpa_list));
    }
    GPA_CHECK(gpa->GpaEndCommandList(gpa_list));
    if (!ClientWorkloadSubmit(workload, command_list)) {
      fprintf(stderr, "gpa4_c_client: pass %u: the work failed\n", pass);
      return 1;
    }
  }
  return 0;
}

/* Reads every sample's results, prints them and checks them; *checks gets the number of checks made. */
static int ReadResults(ClientWorkload* workload, GpaSessionId session, GpaUInt32 enabled, int* checks) {
  GpaUInt32 sample_count = 0;
  GpaUInt32 s;
  const char** names = (const char**)calloc(enabled, sizeof(const char*));
  double* values = (double*)calloc(enabled, sizeof(double));
  GpaUInt64* raw = (GpaUInt64*)calloc(enabled, sizeof(GpaUInt64));
  int failed = 0;
  *checks = 0;
  if (names == NULL || values == NULL || raw == NULL) {
    failed = 1;
  }
  if (!failed && gpa->GpaGetSampleCount(session, &sample_count) != kGpaStatusOk) {
    failed = 1;
  }
  for (s = 0; !failed && s < sample_count; ++s) {
    GpaUInt32 sample_id = 0;
    size_t size = 0;
    GpaUInt32 e;
    char message[512];
    int made;
    if (gpa->GpaGetSampleId(session, s, &sample_id) != kGpaStatusOk ||
        gpa->GpaGetSampleResultSize(session, sample_id, &size) != kGpaStatusOk || size != enabled * sizeof(GpaUInt64) ||
        gpa->GpaGetSampleResult(session, sample_id, size, raw) != kGpaStatusOk) {
      fprintf(stderr, "gpa4_c_client: cannot read sample %u\n", s);
      failed = 1;
      break;
    }
    for (e = 0; e < enabled; ++e) {
      GpaUInt32 index = 0;
      GpaDataType type = kGpaDataTypeUint64;
      gpa->GpaGetEnabledIndex(session, e, &index);
      gpa->GpaGetCounterName(session, index, &names[e]);
      gpa->GpaGetCounterDataType(session, index, &type);
      if (type == kGpaDataTypeFloat64) {
        memcpy(&values[e], &raw[e], sizeof(double));
      } else {
        values[e] = (double)raw[e];
      }
      printf("sample %u  %-24s %.6f\n", sample_id, names[e], values[e]);
    }
    made = ClientWorkloadCheckSample(workload, sample_id, enabled, names, values, message, sizeof message);
    if (made < 0) {
      fprintf(stderr, "gpa4_c_client: %s\n", message);
      failed = 1;
    } else {
      *checks += made;
    }
  }
  free(names);
  free(values);
  free(raw);
  return failed;
}

/* The v4 context questions: discrete counters are a sample-type bit; the device limits are known or
 * kGpaStatusErrorHardwareNotSupported, and GpaUpdateDeviceInformation's shape gives the wave slots. */
static int CheckGpa4Context(GpaContextId context) {
  GpaContextSampleTypeFlags types = 0;
  GpaUInt32 wave_slots = 0;
  GpaUInt32 vgprs = 0;
  GpaUInt32 lds = 0;
  GpaStatus status;
  GPA_CHECK(gpa->GpaGetSupportedSampleTypes(context, &types));
  if ((types & kGpaContextSampleTypeDiscreteCounter) == 0) {
    fprintf(stderr, "gpa4_c_client: sample types 0x%x lack kGpaContextSampleTypeDiscreteCounter\n", types);
    return 1;
  }
  status = gpa->GpaGetDeviceMaxWaveSlots(context, &wave_slots);
  if (status != kGpaStatusOk && status != kGpaStatusErrorHardwareNotSupported) GPA_CHECK(status);
  if (gpa->GpaGetDeviceMaxVgprs(context, &vgprs) != kGpaStatusOk) vgprs = 0;
  if (gpa->GpaGetDeviceMaxLdsBytes(context, &lds) != kGpaStatusOk) lds = 0;
  printf("sample types 0x%x; wave slots %u, VGPRs %u, LDS bytes %u (0: not reported)\n", types, wave_slots, vgprs, lds);
  if (status == kGpaStatusErrorHardwareNotSupported) {
    /* 2 shader engines, 4 compute units, 16 SIMDs of 10 waves: 160 wave slots. */
    GPA_CHECK(gpa->GpaUpdateDeviceInformation(context, 2, 4, 16, 10));
    GPA_CHECK(gpa->GpaGetDeviceMaxWaveSlots(context, &wave_slots));
    if (wave_slots != 160) {
      fprintf(stderr, "gpa4_c_client: %u wave slots after GpaUpdateDeviceInformation, expected 160\n", wave_slots);
      return 1;
    }
  }
  return 0;
}

/* Fails the client when `call` does not return `expected`. */
#define GPA_EXPECT(call, expected)                                                                           \
  do {                                                                                                       \
    GpaStatus status_ = (call);                                                                              \
    if (status_ != (expected)) {                                                                             \
      fprintf(stderr, "gpa4_c_client: %s returned %d, expected %d\n", #call, (int)status_, (int)(expected)); \
      return 1;                                                                                              \
    }                                                                                                        \
  } while (0)

/* The SPM calls' statuses: on a discrete session every one refuses the sample type; on a context with streaming
 * counters a streaming session answers by its state (before GpaBeginSession), and an offline context cannot begin. */
static int CheckGpa4Spm(GpaContextId context, GpaSessionId discrete) {
  GpaContextSampleTypeFlags types = 0;
  GpaSessionId streaming = NULL;
  size_t size = 0;
  GpaUInt64 buffer[8];
  GpaSpmData data;
  memset(&data, 0, sizeof data);
  GPA_CHECK(gpa->GpaGetSupportedSampleTypes(context, &types));
  GPA_EXPECT(gpa->GpaSpmSetSampleInterval(discrete, 100000), kGpaStatusErrorIncompatibleSampleTypes);
  GPA_EXPECT(gpa->GpaSpmSetDuration(discrete, 1000000), kGpaStatusErrorIncompatibleSampleTypes);
  GPA_EXPECT(gpa->GpaSpmBegin(discrete, NULL), kGpaStatusErrorIncompatibleSampleTypes);
  GPA_EXPECT(gpa->GpaSpmEnd(discrete, NULL), kGpaStatusErrorIncompatibleSampleTypes);
  GPA_EXPECT(gpa->GpaSpmGetSampleResultSize(discrete, &size), kGpaStatusErrorIncompatibleSampleTypes);
  GPA_EXPECT(gpa->GpaSpmGetSampleResult(discrete, sizeof buffer, buffer), kGpaStatusErrorIncompatibleSampleTypes);
  GPA_EXPECT(gpa->GpaSpmCalculateDerivedCounters(discrete, &data, 1, buffer), kGpaStatusErrorIncompatibleSampleTypes);
  GPA_EXPECT(gpa->GpaSpmBegin(NULL, NULL), kGpaStatusErrorNullPointer);
  if ((types & kGpaContextSampleTypeStreamingCounter) == 0) {
    GPA_EXPECT(gpa->GpaCreateSession(context, kGpaSessionSampleTypeStreamingCounter, &streaming),
               kGpaStatusErrorIncompatibleSampleTypes);
    printf("SPM: no streaming counters; every GpaSpm* call refuses the discrete session\n");
    return 0;
  }
  GPA_CHECK(gpa->GpaCreateSession(context, kGpaSessionSampleTypeStreamingCounter, &streaming));
  GPA_CHECK(gpa->GpaEnableCounterByName(streaming, "FetchSize"));
  GPA_EXPECT(gpa->GpaSpmSetSampleInterval(streaming, 0), kGpaStatusErrorInvalidParameter);
  GPA_CHECK(gpa->GpaSpmSetSampleInterval(streaming, 100000));
  GPA_EXPECT(gpa->GpaSpmSetDuration(streaming, 0), kGpaStatusErrorInvalidParameter);
  GPA_EXPECT(gpa->GpaSpmBegin(streaming, NULL), kGpaStatusErrorSessionNotStarted);
  GPA_EXPECT(gpa->GpaSpmEnd(streaming, NULL), kGpaStatusErrorSessionNotStarted);
  GPA_EXPECT(gpa->GpaSpmGetSampleResultSize(streaming, NULL), kGpaStatusErrorNullPointer);
  GPA_EXPECT(gpa->GpaSpmGetSampleResultSize(streaming, &size), kGpaStatusErrorSessionNotEnded);
  GPA_EXPECT(gpa->GpaSpmGetSampleResult(streaming, sizeof buffer, NULL), kGpaStatusErrorNullPointer);
  GPA_EXPECT(gpa->GpaSpmCalculateDerivedCounters(streaming, NULL, 1, buffer), kGpaStatusErrorNullPointer);
  GPA_EXPECT(gpa->GpaBeginSession(streaming), kGpaStatusErrorHardwareNotSupported); /* offline: no GPU */
  GPA_CHECK(gpa->GpaDeleteSession(streaming));
  printf("SPM: a streaming session answers every GpaSpm* call by its state\n");
  return 0;
}

#ifdef OPENGPA_CLIENT_WITH_VULKAN
/* GPA 4's way to open a Vulkan context: GpaVkContextOpenInfo2, the workload's handles with the entry-point
 * resolvers of the application's Vulkan loader, chosen by kGpaOpenContextVkUseInfoType2. */
static GpaVkContextOpenInfo2 vk_open_info2;

static void* VulkanOpenInfo2(const GpaVkContextOpenInfo* handles) {
  void* loader = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
  if (loader == NULL) return NULL;
  vk_open_info2.instance = handles->instance;
  vk_open_info2.physical_device = handles->physical_device;
  vk_open_info2.device = handles->device;
  vk_open_info2.get_instance_proc_addr = (PFN_vkGetInstanceProcAddr)dlsym(loader, "vkGetInstanceProcAddr");
  if (vk_open_info2.get_instance_proc_addr == NULL) return NULL;
  vk_open_info2.get_device_proc_addr =
      (PFN_vkGetDeviceProcAddr)vk_open_info2.get_instance_proc_addr(handles->instance, "vkGetDeviceProcAddr");
  return vk_open_info2.get_device_proc_addr != NULL ? &vk_open_info2 : NULL;
}
#endif

/* What GpaOpenContext takes, and with which flags: on Vulkan GPA 4's GpaVkContextOpenInfo2. */
static void* OpenInfo(GpaApiType api, ClientWorkload* workload, GpaOpenContextFlags* flags) {
  *flags = ClientWorkloadOpenFlags(workload);
#ifdef OPENGPA_CLIENT_WITH_VULKAN
  if (api == kGpaApiVulkan) {
    *flags |= kGpaOpenContextVkUseInfoType2;
    return VulkanOpenInfo2((const GpaVkContextOpenInfo*)ClientWorkloadGpaContext(workload));
  }
#endif
  (void)api;
  return ClientWorkloadGpaContext(workload);
}

static int Profile(GpaApiType api, ClientWorkload* workload) {
  GpaContextId context = NULL;
  GpaSessionId session = NULL;
  const char* device = NULL;
  GpaHwGeneration generation = kGpaHwGenerationNone;
  GpaUInt32 enabled = 0;
  GpaUInt32 passes = 0;
  int checks = 0;
  time_t deadline;

  GpaOpenContextFlags flags = 0;
  void* info = OpenInfo(api, workload, &flags);
  if (info == NULL) {
    fprintf(stderr, "gpa4_c_client: no open-info for the context\n");
    return 1;
  }
  GPA_CHECK(gpa->GpaOpenContext(info, flags, &context));
  GPA_CHECK(gpa->GpaGetDeviceName(context, &device));
  GPA_CHECK(gpa->GpaGetDeviceGeneration(context, &generation));
  printf("device: %s (generation %d)\n", device, (int)generation);
  if (CheckGpa4Context(context) != 0) return 1;

  GPA_CHECK(gpa->GpaCreateSession(context, kGpaSessionSampleTypeDiscreteCounter, &session));
  if (CheckGpa4Spm(context, session) != 0) return 1;
  if (EnableCounters(workload, session, &enabled) != 0) return 1;
  GPA_CHECK(gpa->GpaGetPassCount(session, &passes));
  printf("%u counters enabled, %u pass(es)\n", enabled, passes);
  if (enabled == 0 || passes != ClientWorkloadExpectedPasses(workload)) {
    fprintf(stderr, "gpa4_c_client: %u counters in %u passes, expected some in %u\n", enabled, passes,
            ClientWorkloadExpectedPasses(workload));
    return 1;
  }

  if (!ClientWorkloadCanSample(workload)) {
    /* An offline context lists and schedules counters; sampling needs the GPU. */
    GpaStatus status = gpa->GpaBeginSession(session);
    if (status != kGpaStatusErrorHardwareNotSupported) {
      fprintf(stderr, "gpa4_c_client: GpaBeginSession on an offline context returned %d\n", (int)status);
      return 1;
    }
    printf("sampling refused as expected: %s\n", gpa->GpaGetStatusAsStr(status));
  } else {
    GPA_CHECK(gpa->GpaBeginSession(session));
    if (RecordPasses(workload, session, passes) != 0) return 1;
    GPA_CHECK(gpa->GpaEndSession(session));
    deadline = time(NULL) + 60;
    while (gpa->GpaIsSessionComplete(session) != kGpaStatusOk) {
      if (time(NULL) > deadline) {
        fprintf(stderr, "gpa4_c_client: the session did not complete within 60 s\n");
        return 1;
      }
    }
    if (ReadResults(workload, session, enabled, &checks) != 0) return 1;
    if (checks == 0) {
      fprintf(stderr, "gpa4_c_client: no result was checked\n");
      return 1;
    }
    printf("%d checks passed\n", checks);
  }

  GPA_CHECK(gpa->GpaDeleteSession(session));
  GPA_CHECK(gpa->GpaCloseContext(context));
  return 0;
}

int main(int argc, char** argv) {
  GpaApiType api = kGpaApiNoSupport;
  ClientWorkload* workload;
  char error[512] = "";
  GpaStatus status;
  int result;

  if (argc != 2 || !ParseApi(argv[1], &api)) {
    fprintf(stderr, "usage: gpa4_c_client vulkan|opengl|cuda\n");
    return 2;
  }

  /* NULL: beside this program, as GPA's loader does; then the dynamic loader's search path. */
  status = GpaInterfaceLoaderLoadApi(api, NULL);
  if (status != kGpaStatusOk) {
    fprintf(stderr, "gpa4_c_client: cannot load %s (tried %s): %s\n", GpaInterfaceLoaderGetLibraryFileName(api),
            GpaInterfaceLoaderGetLibraryFullPath(api, NULL), OpenGpaInterfaceLoaderGetLastError());
    return 1;
  }
  if (GpaInterfaceLoaderLoadApi(api, NULL) != kGpaStatusErrorLibAlreadyLoaded) {
    fprintf(stderr, "gpa4_c_client: loading %s twice is not kGpaStatusErrorLibAlreadyLoaded\n", argv[1]);
    return 1;
  }
  gpa = GpaInterfaceLoaderGetFunctionTable(api);
  printf("loaded %s\n", GpaInterfaceLoaderGetLibraryFileName(api));

  GPA_CHECK(gpa->GpaRegisterLoggingCallback(kGpaLoggingErrorAndMessage, LogGpa));
  GPA_CHECK(gpa->GpaInitialize(kGpaInitializeDefaultBit));

  workload = ClientWorkloadCreateByName(argv[1], error, sizeof error);
  if (workload == NULL) {
    fprintf(stderr, "gpa4_c_client: no %s device: %s\n", argv[1], error);
    return 1;
  }
  result = Profile(api, workload);
  ClientWorkloadDestroy(workload);

  GPA_CHECK(gpa->GpaDestroy());
  GPA_CHECK(GpaInterfaceLoaderUnLoadApi(api));
  GpaInterfaceLoaderClearLoader();
  if (result == 0) printf("gpa4_c_client %s: passed\n", argv[1]);
  return result;
}
