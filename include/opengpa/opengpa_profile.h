/* The per-launch CUDA profiler's C API: libOpenGPAProfile.so (src/profiler), what `opengpa profile --api cuda`
 * injects into an unmodified program and what Python's `opengpa.profile(..., per_kernel=True)` drives inside its
 * own process. One engine either way: each kernel launch the filter chooses becomes one CUPTI range and one
 * sample of a sample stream (a JSON-lines file), GPA counters are evaluated by the library's counter engine from
 * the CUPTI metrics measured, and the passes of an application replay are joined launch by launch.
 *
 *   OpenGpaProfileCheckCounters   whether counter names resolve (offline, on any chip CUPTI supports)
 *   OpenGpaProfilePlan            the passes and replay a set needs on a live CUDA context
 *   OpenGpaProfileStart / Stop    a session in the calling process, one pass into one sample stream
 *   OpenGpaProfileStartSampled    a sampled session in the calling process (`opengpa profile --mode sampled`'s):
 *                                 the GPUs' PM samples shared out among the launches, ended by Stop
 *   OpenGpaProfileStartFromEnvironment
 *                                 the session of a whole profiled process, set up by `opengpa profile`'s
 *                                 variables (what the injection entry, libopengpa_inject_cuda.so, calls)
 *   OpenGpaProfilePushRange / PopRange / GetLaunches
 *                                 labels of the launches of an in-process session
 *   OpenGpaProfileJoin            the streams of the passes joined and evaluated into `opengpa profile`'s JSON
 *
 * Every function returns an OpenGpaProfileStatus; on failure OpenGpaProfileGetLastError gives the calling thread's
 * message, which names the argument, its value and the reason. No function throws or aborts on bad input.
 * Functions that return text take `char* buffer, size_t* size`: *size is the buffer's capacity on input and the
 * text's size with its terminating zero on output; with buffer NULL or too small, nothing is written and the
 * status says kOpenGpaProfileStatusErrorBufferTooSmall (or Ok for a NULL buffer, a size query).
 *
 * The API is versioned: OPENGPA_PROFILE_API_MAJOR_VERSION changes when a function or struct changes
 * incompatibly, the minor version when something is added. Structs begin with their size, so that later minor
 * versions can append fields. docs/cli.md (`opengpa profile`) and docs/python.md (per_kernel=True) describe the
 * sample stream and the JSON written. */
#ifndef OPENGPA_OPENGPA_PROFILE_H_
#define OPENGPA_OPENGPA_PROFILE_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define OPENGPA_PROFILE_API_MAJOR_VERSION 1
#define OPENGPA_PROFILE_API_MINOR_VERSION 2

#if defined(__GNUC__)
#define OPENGPA_PROFILE_EXPORT __attribute__((visibility("default")))
#else
#define OPENGPA_PROFILE_EXPORT
#endif

typedef enum OpenGpaProfileStatus {
  kOpenGpaProfileStatusOk = 0,
  kOpenGpaProfileStatusErrorNullPointer = -1,     /* a required pointer argument is NULL */
  kOpenGpaProfileStatusErrorInvalidArgument = -2, /* an unknown counter, replay mode, a bad regular expression */
  kOpenGpaProfileStatusErrorBufferTooSmall = -3,  /* *size now says what the text needs */
  kOpenGpaProfileStatusErrorNoDriver = -4,        /* no CUDA driver (libcuda.so.1) in this process's reach */
  kOpenGpaProfileStatusErrorAlreadyRunning = -5,  /* a session is already running in this process */
  kOpenGpaProfileStatusErrorNotRunning = -6,      /* Stop or PopRange with nothing to end */
  kOpenGpaProfileStatusErrorFailed = -7,          /* CUPTI or the driver refused, a file could not be read or
                                                     written, passes that do not match: the message says */
  kOpenGpaProfileStatusErrorException = -8        /* an internal error, caught at the C boundary */
} OpenGpaProfileStatus;

/* The version of the API this library implements. */
OPENGPA_PROFILE_EXPORT OpenGpaProfileStatus OpenGpaProfileGetVersion(uint32_t* major, uint32_t* minor);

/* The calling thread's message of its last failed call ("" when none failed); valid until its next call. */
OPENGPA_PROFILE_EXPORT const char* OpenGpaProfileGetLastError(void);

/* Whether every name of `counters` (comma-separated GPA counter names, case-insensitive, or CUPTI metrics)
 * resolves as a profiled program would resolve it, on some chip the installed CUPTI supports (no GPU, driver or
 * context needed). kOpenGpaProfileStatusErrorInvalidArgument names the first name that does not. With
 * OPENGPA_PROFILE_REPLAY unset or "auto" it also refuses, with the reason, a set that auto cannot collect with
 * one-pass values on any chip (a metric that alone needs several passes, e.g. sm__throughput.avg.pct_of_peak_
 * sustained_elapsed). */
OPENGPA_PROFILE_EXPORT OpenGpaProfileStatus OpenGpaProfileCheckCounters(const char* counters);

/* The passes and the replay a session of `counters` with `replay` ("none", "kernel", "application", "auto";
 * NULL: "auto") needs on `cuda_context` (a CUcontext), as JSON:
 * {"replay":"application","passes":3,"device":"NVIDIA H100 ...","messages":[...]}. */
OPENGPA_PROFILE_EXPORT OpenGpaProfileStatus OpenGpaProfilePlan(void* cuda_context, const char* counters,
                                                               const char* replay, char* buffer, size_t* size);

/* What an in-process session measures. */
typedef struct OpenGpaProfileOptions {
  size_t struct_size;      /* sizeof(OpenGpaProfileOptions) */
  const char* counters;    /* comma-separated GPA counter names or CUPTI metrics; at least one */
  const char* replay;      /* "none", "kernel", "application", "auto" (NULL: "auto") */
  uint32_t pass;           /* application replay: the pass this session collects, from 0 */
  int32_t flush_caches;    /* non-zero: flush and invalidate the L2 before every profiled launch */
  const char* kernel_name; /* ECMAScript regular expression searched in demangled names; NULL or "": all */
  const char* stream_path; /* the sample stream written (created or truncated) */
  int32_t with_nvtx;       /* non-zero: NVTX push/pop ranges open at a launch label it too */
} OpenGpaProfileOptions;

/* Profiles every kernel launch of the process from now on, whatever contexts it made before, into
 * options->stream_path. Launch indices start at 0 with each session. */
OPENGPA_PROFILE_EXPORT OpenGpaProfileStatus OpenGpaProfileStart(const OpenGpaProfileOptions* options);

/* What a sampled session measures (API 1.1). */
typedef struct OpenGpaProfileSampledOptions {
  size_t struct_size;      /* sizeof(OpenGpaProfileSampledOptions) */
  const char* metrics;     /* comma-separated CUPTI PM sampling metrics (dram__bytes_read.sum, ...) and the sampled
                              Speed-of-Light counters (SOL_SM, ..., GPUBottleneck, or SpeedOfLight for all; API 1.2);
                              NULL or "": dram__bytes_read.sum,dram__bytes_write.sum, the CLI's default */
  double interval_us;      /* the PM sampling interval, microseconds, 0.5 to 1,000,000 (0: 20, or 100-200 where
                              the SM throughput is read: SOL_SM, GPUBottleneck) */
  const char* kernel_name; /* ECMAScript regular expression: the rows kept (every launch takes its share); NULL or "":
                              all */
  const char* stream_path; /* the launches' timeline written (created or truncated) */
  const char* output_path; /* `opengpa profile`'s JSON written by Stop (created or truncated) */
  int32_t with_nvtx;       /* non-zero: NVTX push/pop ranges open at a launch label it too */
} OpenGpaProfileSampledOptions;

/* `opengpa profile --mode sampled` inside the calling process: PM sampling on every GPU the process sees
 * (device-wide) at options->interval_us, and each kernel, copy and memset of the process with its start and end
 * (CUPTI's activity API); no ranges, no replay, no serialization. Launches are labelled as OpenGpaProfileStart's are
 * (PushRange/PopRange, NVTX). OpenGpaProfileStop then gives each launch its share of its GPU's samples and writes
 * the profile, one row per launch with the metrics and pm__coverage, pm__samples, pm__overlapped and pm__short
 * (docs/cli.md, "--mode sampled"); GetLaunches returns the rows' labels. InvalidArgument for a name that is no
 * CUPTI metric nor a sampled Speed-of-Light counter, an interval out of range, a bad expression or an empty path;
 * Failed when PM sampling or the activity API cannot start (another tool holds them, the build has no PM sampling, a
 * metric the GPU lacks). */
OPENGPA_PROFILE_EXPORT OpenGpaProfileStatus OpenGpaProfileStartSampled(const OpenGpaProfileSampledOptions* options);

/* Decodes what is pending, writes the stream's end record and unsubscribes. The caller synchronizes its work
 * first (what is still running when its batch is decoded is not counted). A sampled session also stops its PM
 * sampling and writes its profile; Failed when that cannot be written. */
OPENGPA_PROFILE_EXPORT OpenGpaProfileStatus OpenGpaProfileStop(void);

/* The session of a whole process, as `opengpa profile` sets it up: the stream in $OPENGPA_PROFILE_OUTPUT, the
 * counters in $OPENGPA_PROFILE_COUNTERS and the settings in the OPENGPA_PROFILE_* variables docs/cli.md lists;
 * it lasts until the process exits (collected at exit, paused around fork). kOpenGpaProfileStatusErrorNotRunning
 * when $OPENGPA_PROFILE_OUTPUT is not set (the process is not being profiled). */
OPENGPA_PROFILE_EXPORT OpenGpaProfileStatus OpenGpaProfileStartFromEnvironment(void);

/* The calling thread's label stack, which each launch of the thread records (Python's opengpa.region). */
OPENGPA_PROFILE_EXPORT OpenGpaProfileStatus OpenGpaProfilePushRange(const char* name);
OPENGPA_PROFILE_EXPORT OpenGpaProfileStatus OpenGpaProfilePopRange(void);

/* The launches of the last in-process session (of a sampled one: its rows'), as JSON:
 * [{"index":0,"context":"0x...","ranges":["step","mm"], "thread":1234,"host_ns":1764000000123456789}, ...]: `thread` is
 * the launching thread's OS id (gettid) and `host_ns` the launch's entry on CLOCK_REALTIME, in nanoseconds. */
OPENGPA_PROFILE_EXPORT OpenGpaProfileStatus OpenGpaProfileGetLaunches(char* buffer, size_t* size);

/* Reads the sample streams of passes 0..count-1, joins them launch by launch (the same launches in the same
 * order, names and shapes), evaluates the counters asked for and writes `opengpa profile`'s JSON document
 * (docs/schema/profile.schema.json) to `output_path`. Needs no GPU. */
OPENGPA_PROFILE_EXPORT OpenGpaProfileStatus OpenGpaProfileJoin(const char* const* stream_paths, uint32_t count,
                                                               const char* output_path);

/* Where the libcupti this library uses was loaded from: NVTX_INJECTION64_PATH must name it before a process's
 * first NVTX call for NVTX ranges to reach the profiler. */
OPENGPA_PROFILE_EXPORT OpenGpaProfileStatus OpenGpaProfileGetCuptiPath(char* buffer, size_t* size);

#ifdef __cplusplus
}
#endif

#endif /* OPENGPA_OPENGPA_PROFILE_H_ */
