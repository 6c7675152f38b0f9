/* gpa_c_client: a GPA application in C, written the way GPA's example programs are, against GPA v3's headers
 * and the C interface loader (GpaInterfaceLoader*). It loads libGPUPerfAPI<X>.so from its own folder (or the
 * dynamic loader's path), opens a context on the application's device, enables counters, samples two pieces
 * of real work in every pass, reads the results and checks them against what the work must produce
 * (client_workloads.h). Exit status 0 when every step and check passed.
 *
 * usage: gpa_c_client vulkan|opengl|opencl|cuda
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

/* The interface loader's list of loaded libraries (gpu_perf_api_interface_loader.h asks for it once). */
GpaFuncTableInfo* gpa_function_table_info = NULL;

static const GpaFunctionTable* gpa = NULL;

static void LogGpa(GpaLoggingType type, const char* message) {
  fprintf(stderr, "GPA %s: %s\n", (type & kGpaLoggingError) ? "error" : "message", message);
}

/* Stops the client when a GPA call does not return kGpaStatusOk. */
#define GPA_CHECK(call)                                                                                             \
  do {                                                                                                              \
    GpaStatus status_ = (call);                                                                                     \
    if (status_ != kGpaStatusOk) {                                                                                  \
      fprintf(stderr, "gpa_c_client: %s returned %d (%s)\n", #call, (int)status_, gpa->GpaGetStatusAsStr(status_)); \
      return 1;                                                                                                     \
    }                                                                                                               \
  } while (0)

static int ParseApi(const char* name, GpaApiType* api) {
  if (strcmp(name, "vulkan") == 0)
    *api = kGpaApiVulkan;
  else if (strcmp(name, "opengl") == 0)
    *api = kGpaApiOpengl;
  else if (strcmp(name, "opencl") == 0)
    *api = kGpaApiOpencl;
  else if (strcmp(name, "cuda") == 0)
    *api = kGpaApiCuda;
  else
    return 0;
  return 1;
}

/* Enables the counters the workload wants; *enabled gets how many. */
static int EnableCounters(ClientWorkload* workload, GpaContextId context, GpaSessionId session, GpaUInt32* enabled) {
  GpaUInt32 count = 0;
  GpaUInt32 index;
  GPA_CHECK(gpa->GpaGetNumCounters(context, &count));
  printf("%u counters\n", count);
  *enabled = 0;
  for (index = 0; index < count; ++index) {
    const char* name = NULL;
    const char* group = NULL;
    GPA_CHECK(gpa->GpaGetCounterName(context, index, &name));
    GPA_CHECK(gpa->GpaGetCounterGroup(context, index, &group));
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
      fprintf(stderr, "gpa_c_client: pass %u: the work failed\n", pass);
      return 1;
    }
  }
  return 0;
}

/* Reads every sample's results, prints them and checks them; *checks gets the number of checks made. */
static int ReadResults(ClientWorkload* workload, GpaContextId context, GpaSessionId session, GpaUInt32 enabled,
                       int* checks) {
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
      fprintf(stderr, "gpa_c_client: cannot read sample %u\n", s);
      failed = 1;
      break;
    }
    for (e = 0; e < enabled; ++e) {
      GpaUInt32 index = 0;
      GpaDataType type = kGpaDataTypeUint64;
      gpa->GpaGetEnabledIndex(session, e, &index);
      gpa->GpaGetCounterName(context, index, &names[e]);
      gpa->GpaGetCounterDataType(context, index, &type);
      if (type == kGpaDataTypeFloat64) {
        memcpy(&values[e], &raw[e], sizeof(double));
      } else {
        values[e] = (double)raw[e];
      }
      printf("sample %u  %-24s %.6f\n", sample_id, names[e], values[e]);
    }
    made = ClientWorkloadCheckSample(workload, sample_id, enabled, names, values, message, sizeof message);
    if (made < 0) {
      fprintf(stderr, "gpa_c_client: %s\n", message);
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

static int Profile(GpaApiType api, ClientWorkload* workload) {
  GpaContextId context = NULL;
  GpaSessionId session = NULL;
  const char* device = NULL;
  GpaHwGeneration generation = kGpaHwGenerationNone;
  GpaUInt32 enabled = 0;
  GpaUInt32 passes = 0;
  int checks = 0;
  time_t deadline;

  GPA_CHECK(gpa->GpaOpenContext(ClientWorkloadGpaContext(workload), ClientWorkloadOpenFlags(workload), &context));
  GPA_CHECK(gpa->GpaGetDeviceName(context, &device));
  GPA_CHECK(gpa->GpaGetDeviceGeneration(context, &generation));
  printf("device: %s (generation %d)\n", device, (int)generation);

  GPA_CHECK(gpa->GpaCreateSession(context, kGpaSessionSampleTypeDiscreteCounter, &session));
  if (EnableCounters(workload, context, session, &enabled) != 0) return 1;
  GPA_CHECK(gpa->GpaGetPassCount(session, &passes));
  printf("%u counters enabled, %u pass(es)\n", enabled, passes);
  if (enabled == 0 || passes != ClientWorkloadExpectedPasses(workload)) {
    fprintf(stderr, "gpa_c_client: %u counters in %u passes, expected some in %u\n", enabled, passes,
            ClientWorkloadExpectedPasses(workload));
    return 1;
  }

  if (!ClientWorkloadCanSample(workload)) {
    /* An offline context lists and schedules counters; sampling needs the GPU. */
    GpaStatus status = gpa->GpaBeginSession(session);
    if (status != kGpaStatusErrorHardwareNotSupported) {
      fprintf(stderr, "gpa_c_client: GpaBeginSession on an offline context returned %d\n", (int)status);
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
        fprintf(stderr, "gpa_c_client: the session did not complete within 60 s\n");
        return 1;
      }
    }
    if (ReadResults(workload, context, session, enabled, &checks) != 0) return 1;
    if (checks == 0) {
      fprintf(stderr, "gpa_c_client: no result was checked\n");
      return 1;
    }
    printf("%d checks passed\n", checks);
  }

  GPA_CHECK(gpa->GpaDeleteSession(session));
  GPA_CHECK(gpa->GpaCloseContext(context));
  (void)api;
  return 0;
}

int main(int argc, char** argv) {
  GpaApiType api = kGpaApiNoSupport;
  ClientWorkload* workload;
  char error[512] = "";
  GpaStatus status;
  int result;

  if (argc != 2 || !ParseApi(argv[1], &api)) {
    fprintf(stderr, "usage: gpa_c_client vulkan|opengl|opencl|cuda\n");
    return 2;
  }

  /* NULL: beside this program, as GPA's loader does; then the dynamic loader's search path. */
  status = GpaInterfaceLoaderLoadApi(api, NULL);
  if (status != kGpaStatusOk) {
    fprintf(stderr, "gpa_c_client: cannot load %s (tried %s): %s\n", GpaInterfaceLoaderGetLibraryFileName(api),
            GpaInterfaceLoaderGetLibraryFullPath(api, NULL), OpenGpaInterfaceLoaderGetLastError());
    return 1;
  }
  if (GpaInterfaceLoaderLoadApi(api, NULL) != kGpaStatusErrorLibAlreadyLoaded) {
    fprintf(stderr, "gpa_c_client: loading %s twice is not kGpaStatusErrorLibAlreadyLoaded\n", argv[1]);
    return 1;
  }
  gpa = GpaInterfaceLoaderGetFunctionTable(api);
  printf("loaded %s\n", GpaInterfaceLoaderGetLibraryFileName(api));

  GPA_CHECK(gpa->GpaRegisterLoggingCallback(kGpaLoggingErrorAndMessage, LogGpa));
  GPA_CHECK(gpa->GpaInitialize(kGpaInitializeDefaultBit));

  workload = ClientWorkloadCreate(api, error, sizeof error);
  if (workload == NULL) {
    fprintf(stderr, "gpa_c_client: no %s device: %s\n", argv[1], error);
    return 1;
  }
  result = Profile(api, workload);
  ClientWorkloadDestroy(workload);

  GPA_CHECK(gpa->GpaDestroy());
  GPA_CHECK(GpaInterfaceLoaderUnLoadApi(api));
  GpaInterfaceLoaderClearLoader();
  if (result == 0) printf("gpa_c_client %s: passed\n", argv[1]);
  return result;
}
