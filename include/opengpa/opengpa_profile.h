// The per-kernel profiler of `opengpa profile --api cuda` driven from inside the program being profiled,
// for Python (python/opengpa/kernels.py loads this library with ctypes). The same injection session
// (injection_control.h) runs between Start and Stop, so each kernel launch becomes one CUPTI auto range and
// one sample of the stream, with GPA counters evaluated by the library's engine: no second profiler.
//
// What the in-process side adds:
//   - a label per launch: the ranges open on the launching thread (PushRange/PopRange from Python's
//     opengpa.region, and NVTX push/pop ranges when NVTX reaches CUPTI) and the launch's CUDA context;
//   - application replay from inside: the caller runs its work once per pass, each pass a Start..Stop into
//     its own stream, and Join merges the passes with the CLI's rules (replay_merge.h: same launches in the
//     same order, names and shapes) and evaluates the outputs (counter_outputs.h).
//
// Every function returns 1 on success and 0 on failure; OpenGpaKernelProfilerLastError says why.
// Functions that fill a buffer return the size the text needs (with its terminating zero) and fill it
// only when `size` is enough.
#ifndef OPENGPA_TOOLS_OPENGPA_INJECT_CUDA_IN_PROCESS_H_
#define OPENGPA_TOOLS_OPENGPA_INJECT_CUDA_IN_PROCESS_H_

#include <stddef.h>

#define OPENGPA_KERNEL_PROFILER_EXPORT extern "C" __attribute__((visibility("default")))

// The passes and the replay the injection would use for `counters` (comma-separated GPA names or CUPTI
// metrics) with `replay` (none, kernel, application, auto) on `context` (a CUcontext), as JSON:
// {"replay":"application","passes":3,"device":"NVIDIA H100 ...","messages":[...]}; 0 on failure.
OPENGPA_KERNEL_PROFILER_EXPORT size_t OpenGpaKernelProfilerPlan(void* context, const char* counters, const char* replay,
                                                                char* buffer, size_t size);

// Profiles every kernel launch of the process from now on: pass `pass` of `replay`, into the sample stream
// at `stream_path` (created or truncated). `kernel_name`: a regular expression (empty: every kernel).
OPENGPA_KERNEL_PROFILER_EXPORT int OpenGpaKernelProfilerStart(const char* counters, const char* replay, unsigned pass,
                                                              int flush_caches, const char* kernel_name,
                                                              const char* stream_path, int with_nvtx);
// Decodes what is pending, ends the stream and unsubscribes. The caller synchronizes its work first.
OPENGPA_KERNEL_PROFILER_EXPORT int OpenGpaKernelProfilerStop(void);

// The calling thread's label stack, which each launch of the thread records.
OPENGPA_KERNEL_PROFILER_EXPORT int OpenGpaKernelProfilerPushRange(const char* name);
OPENGPA_KERNEL_PROFILER_EXPORT int OpenGpaKernelProfilerPopRange(void);

// The launches of the last session, as JSON: [{"index":0,"context":"0x...","ranges":["step","matmul"],
// "thread":1234,"host_ns":1764000000123456789}, ...]: `thread` is the launching thread's OS id (gettid) and
// `host_ns` the launch's entry on CLOCK_REALTIME, in nanoseconds.
OPENGPA_KERNEL_PROFILER_EXPORT size_t OpenGpaKernelProfilerLaunches(char* buffer, size_t size);

// Reads the streams of passes 0..count-1, joins them launch by launch and evaluates the counters asked
// for; writes the result to `output_path` as `opengpa profile`'s JSON (docs/schema/profile.schema.json).
OPENGPA_KERNEL_PROFILER_EXPORT int OpenGpaKernelProfilerJoin(const char* const* stream_paths, unsigned count,
                                                             const char* output_path);

// Where the loaded libcupti lives (for NVTX_INJECTION64_PATH).
OPENGPA_KERNEL_PROFILER_EXPORT size_t OpenGpaKernelProfilerCuptiPath(char* buffer, size_t size);

OPENGPA_KERNEL_PROFILER_EXPORT const char* OpenGpaKernelProfilerLastError(void);

#endif  // OPENGPA_TOOLS_OPENGPA_INJECT_CUDA_IN_PROCESS_H_
