/* include/opengpa/opengpa_profile.h from C, as an application or Python's ctypes calls it: the version, the
 * documented status and message of each kind of bad input, text returned through (buffer, size), and the join of
 * recorded passes. Needs no GPU (nothing here starts a session on a device).
 * Usage: opengpa_profile_c_api_test <work folder> */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "opengpa/opengpa_profile.h"

static int failures = 0;

static void Expect(int condition, const char* what) {
  if (!condition) {
    ++failures;
    printf("FAIL: %s (last error: \"%s\")\n", what, OpenGpaProfileGetLastError());
  } else {
    printf("ok: %s\n", what);
  }
}

/* The call returned `status` and the thread's message contains `part`. */
static void ExpectFailure(OpenGpaProfileStatus got, OpenGpaProfileStatus status, const char* part, const char* what) {
  Expect(got == status && strstr(OpenGpaProfileGetLastError(), part) != NULL, what);
}

static int WriteFile(const char* path, const char* text) {
  FILE* file = fopen(path, "w");
  if (file == NULL) return 0;
  fputs(text, file);
  return fclose(file) == 0;
}

static int FileContains(const char* path, const char* part) {
  static char text[65536];
  FILE* file = fopen(path, "r");
  if (file == NULL) return 0;
  size_t length = fread(text, 1, sizeof text - 1, file);
  fclose(file);
  text[length] = '\0';
  return strstr(text, part) != NULL;
}

static void VersionAndErrors(void) {
  uint32_t major = 0, minor = 99;
  Expect(OpenGpaProfileGetVersion(&major, &minor) == kOpenGpaProfileStatusOk &&
             major == OPENGPA_PROFILE_API_MAJOR_VERSION && minor == OPENGPA_PROFILE_API_MINOR_VERSION,
         "GetVersion gives the header's version");
  Expect(strcmp(OpenGpaProfileGetLastError(), "") == 0, "a call that succeeds leaves no message");
  ExpectFailure(OpenGpaProfileGetVersion(NULL, &minor), kOpenGpaProfileStatusErrorNullPointer, "major is NULL",
                "GetVersion(NULL) is NullPointer naming the argument");
}

static void Counters(void) {
  ExpectFailure(OpenGpaProfileCheckCounters(NULL), kOpenGpaProfileStatusErrorNullPointer, "counters is NULL",
                "CheckCounters(NULL) is NullPointer");
  ExpectFailure(OpenGpaProfileCheckCounters(",,"), kOpenGpaProfileStatusErrorInvalidArgument, "names no counter",
                "CheckCounters of an empty list is InvalidArgument");
  ExpectFailure(OpenGpaProfileCheckCounters("gpu__time_duration.sum,NoSuchCounterAnywhere"),
                kOpenGpaProfileStatusErrorInvalidArgument, "\"NoSuchCounterAnywhere\"",
                "CheckCounters names the unknown counter");
  Expect(OpenGpaProfileCheckCounters("gpu__time_duration.sum") == kOpenGpaProfileStatusOk,
         "CheckCounters accepts a CUPTI metric offline");
  char json[256];
  size_t size = sizeof json;
  ExpectFailure(OpenGpaProfilePlan(NULL, "gpu__time_duration.sum", "auto", json, &size),
                kOpenGpaProfileStatusErrorInvalidArgument, "no CUDA context", "Plan without a context says so");
  ExpectFailure(OpenGpaProfilePlan((void*)1, NULL, "auto", json, &size), kOpenGpaProfileStatusErrorNullPointer,
                "counters is NULL", "Plan(counters NULL) is NullPointer");
  ExpectFailure(OpenGpaProfilePlan((void*)1, "gpu__time_duration.sum", "sometimes", json, &size),
                kOpenGpaProfileStatusErrorInvalidArgument, "\"sometimes\"", "Plan names an unknown replay mode");
}

static void Sessions(const char* work) {
  char stream[4096];
  snprintf(stream, sizeof stream, "%s/never.jsonl", work);
  OpenGpaProfileOptions options;
  memset(&options, 0, sizeof options);
  options.struct_size = sizeof options;
  options.counters = "gpu__time_duration.sum";
  options.stream_path = stream;
  ExpectFailure(OpenGpaProfileStart(NULL), kOpenGpaProfileStatusErrorNullPointer, "options is NULL",
                "Start(NULL) is NullPointer");
  options.struct_size = 4;
  ExpectFailure(OpenGpaProfileStart(&options), kOpenGpaProfileStatusErrorInvalidArgument, "struct_size 4",
                "Start refuses a struct from an unknown version");
  options.struct_size = sizeof options;
  options.counters = "";
  ExpectFailure(OpenGpaProfileStart(&options), kOpenGpaProfileStatusErrorInvalidArgument, "names no counter",
                "Start without counters is InvalidArgument");
  options.counters = "gpu__time_duration.sum";
  options.replay = "twice";
  ExpectFailure(OpenGpaProfileStart(&options), kOpenGpaProfileStatusErrorInvalidArgument, "\"twice\"",
                "Start names an unknown replay mode");
  options.replay = NULL;
  options.stream_path = "";
  ExpectFailure(OpenGpaProfileStart(&options), kOpenGpaProfileStatusErrorInvalidArgument, "stream_path is empty",
                "Start without a stream is InvalidArgument");
  ExpectFailure(OpenGpaProfileStop(), kOpenGpaProfileStatusErrorNotRunning, "no session is running",
                "Stop without a session is NotRunning");
  ExpectFailure(OpenGpaProfileStartFromEnvironment(), kOpenGpaProfileStatusErrorNotRunning, "OPENGPA_PROFILE_OUTPUT",
                "StartFromEnvironment outside `opengpa profile` is NotRunning");
}

/* The sampled session's refusals, all made before anything touches a GPU (no driver needed to see them). */
static void SampledSessions(const char* work) {
  char stream[4096], output[4096];
  snprintf(stream, sizeof stream, "%s/never-sampled.jsonl", work);
  snprintf(output, sizeof output, "%s/never-sampled.json", work);
  OpenGpaProfileSampledOptions options;
  memset(&options, 0, sizeof options);
  options.struct_size = sizeof options;
  options.stream_path = stream;
  options.output_path = output;
  ExpectFailure(OpenGpaProfileStartSampled(NULL), kOpenGpaProfileStatusErrorNullPointer, "options is NULL",
                "StartSampled(NULL) is NullPointer");
  options.struct_size = 8;
  ExpectFailure(OpenGpaProfileStartSampled(&options), kOpenGpaProfileStatusErrorInvalidArgument, "struct_size 8",
                "StartSampled refuses a struct from an unknown version");
  options.struct_size = sizeof options;
  options.metrics = "dram__bytes_read.sum,GPUTime";
  ExpectFailure(OpenGpaProfileStartSampled(&options), kOpenGpaProfileStatusErrorInvalidArgument, "'GPUTime' is neither",
                "StartSampled refuses a GPA counter it cannot sample");
  options.metrics = NULL;
  options.interval_us = -5.0;
  ExpectFailure(OpenGpaProfileStartSampled(&options), kOpenGpaProfileStatusErrorInvalidArgument,
                "outside 0.5 to 1,000,000", "StartSampled refuses a negative interval");
  options.interval_us = 0.0 / 0.0;
  ExpectFailure(OpenGpaProfileStartSampled(&options), kOpenGpaProfileStatusErrorInvalidArgument,
                "outside 0.5 to 1,000,000", "StartSampled refuses a NaN interval");
  options.interval_us = 0.0;
  options.kernel_name = "gemm(";
  ExpectFailure(OpenGpaProfileStartSampled(&options), kOpenGpaProfileStatusErrorInvalidArgument, "gemm(",
                "StartSampled refuses a kernel expression that does not compile");
  options.kernel_name = NULL;
  options.output_path = "";
  ExpectFailure(OpenGpaProfileStartSampled(&options), kOpenGpaProfileStatusErrorInvalidArgument, "output_path is empty",
                "StartSampled without an output is InvalidArgument");
  /* The sampled Speed-of-Light counters are names it takes (API 1.2): the empty output is what it refuses. */
  options.metrics = "SpeedOfLight,sol_dram";
  ExpectFailure(OpenGpaProfileStartSampled(&options), kOpenGpaProfileStatusErrorInvalidArgument, "output_path is empty",
                "StartSampled takes the Speed-of-Light counters");
}

static void Labels(void) {
  ExpectFailure(OpenGpaProfilePopRange(), kOpenGpaProfileStatusErrorNotRunning, "no range is open",
                "PopRange with no range open is NotRunning");
  ExpectFailure(OpenGpaProfilePushRange(NULL), kOpenGpaProfileStatusErrorNullPointer, "name is NULL",
                "PushRange(NULL) is NullPointer");
  Expect(
      OpenGpaProfilePushRange("step") == kOpenGpaProfileStatusOk && OpenGpaProfilePopRange() == kOpenGpaProfileStatusOk,
      "PushRange then PopRange");
  size_t size = 0;
  Expect(OpenGpaProfileGetLaunches(NULL, &size) == kOpenGpaProfileStatusOk && size == 3,
         "GetLaunches with a NULL buffer gives the size of \"[]\"");
  char small[2];
  size = sizeof small;
  ExpectFailure(OpenGpaProfileGetLaunches(small, &size), kOpenGpaProfileStatusErrorBufferTooSmall, "needs 3",
                "GetLaunches into a small buffer is BufferTooSmall");
  Expect(size == 3, "... and says the size needed");
  char launches[16];
  size = sizeof launches;
  Expect(OpenGpaProfileGetLaunches(launches, &size) == kOpenGpaProfileStatusOk && strcmp(launches, "[]") == 0,
         "GetLaunches before any session is an empty list");
  ExpectFailure(OpenGpaProfileGetLaunches(launches, NULL), kOpenGpaProfileStatusErrorNullPointer, "size is NULL",
                "GetLaunches(size NULL) is NullPointer");
  char path[4096];
  size = sizeof path;
  Expect(OpenGpaProfileGetCuptiPath(path, &size) == kOpenGpaProfileStatusOk && strstr(path, "libcupti") != NULL,
         "GetCuptiPath names the libcupti loaded");
}

static void Join(const char* work) {
  char pass0[4096], pass1[4096], missing[4096], output[4096];
  snprintf(pass0, sizeof pass0, "%s/pass0.jsonl", work);
  snprintf(pass1, sizeof pass1, "%s/pass1.jsonl", work);
  snprintf(missing, sizeof missing, "%s/missing.jsonl", work);
  snprintf(output, sizeof output, "%s/joined.json", work);
  /* Two passes of the same launch, each measuring one of the two metrics of a GPA-style output. */
  const char* header =
      "{\"type\":\"header\",\"pid\":7,\"api\":\"cuda\",\"counters\":[{\"name\":\"%s\",\"usage\":\"\","
      "\"data_type\":\"float64\"}],\"outputs\":[{\"name\":\"Ratio\",\"usage\":\"percentage\",\"data_type\":\"float64\","
      "\"formula\":\"100 * a__x.sum / b__y.sum\"}],\"replay\":\"application\",\"pass\":%d,\"passes\":2}\n";
  const char* rest =
      "{\"type\":\"queue\",\"pid\":7,\"id\":0,\"name\":\"stream 7\",\"device\":\"test\"}\n"
      "{\"type\":\"sample\",\"pid\":7,\"index\":0,\"name\":\"scale\",\"queue\":0,\"grid\":[4,1,1],\"block\":[32,1,1],"
      "\"start_ns\":0,\"end_ns\":10,\"values\":[%s]}\n"
      "{\"type\":\"end\",\"pid\":7,\"samples\":1}\n";
  char text[2048], tail[1024];
  snprintf(text, sizeof text, header, "a__x.sum", 0);
  snprintf(tail, sizeof tail, rest, "25");
  strncat(text, tail, sizeof text - strlen(text) - 1);
  Expect(WriteFile(pass0, text), "pass 0 written");
  snprintf(text, sizeof text, header, "b__y.sum", 1);
  snprintf(tail, sizeof tail, rest, "200");
  strncat(text, tail, sizeof text - strlen(text) - 1);
  Expect(WriteFile(pass1, text), "pass 1 written");

  const char* none[] = {NULL};
  ExpectFailure(OpenGpaProfileJoin(NULL, 1, output), kOpenGpaProfileStatusErrorNullPointer, "stream_paths is NULL",
                "Join(NULL) is NullPointer");
  ExpectFailure(OpenGpaProfileJoin(none, 0, output), kOpenGpaProfileStatusErrorInvalidArgument, "count is 0",
                "Join of no pass is InvalidArgument");
  ExpectFailure(OpenGpaProfileJoin(none, 1, output), kOpenGpaProfileStatusErrorNullPointer, "stream_paths[0]",
                "Join names the NULL path");
  const char* absent[] = {missing};
  ExpectFailure(OpenGpaProfileJoin(absent, 1, output), kOpenGpaProfileStatusErrorFailed, "missing.jsonl",
                "Join of a missing stream names it");
  const char* passes[] = {pass0, pass1};
  Expect(OpenGpaProfileJoin(passes, 2, output) == kOpenGpaProfileStatusOk, "Join of two recorded passes");
  Expect(FileContains(output, "\"Ratio\":12.5"), "... evaluates the formula over both passes' metrics (12.5)");
  Expect(FileContains(output, "\"scale\""), "... and keeps the launch's kernel name");
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s <work folder>\n", argv[0]);
    return 2;
  }
  mkdir(argv[1], 0755);
  VersionAndErrors();
  Counters();
  Sessions(argv[1]);
  SampledSessions(argv[1]);
  Labels();
  Join(argv[1]);
  printf("%d failure(s)\n", failures);
  return failures == 0 ? 0 : 1;
}
