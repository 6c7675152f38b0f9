// The injected library's side of `opengpa profile --mode sampled`: no callbacks on the launch path, no ranges,
// no replay, so the program runs at its own speed. CUPTI's activity API records every kernel (concurrent
// kernels stay concurrent), copy and memset with its start and end on the GPU's clock; each completed activity
// buffer is written to the sample stream (a kernel as a sample without values, a copy or memset as a "work"
// record), and the CLI gives each kernel its share of the PM samples it took meanwhile (sampled_attribution.h).
// A sample's index is CUPTI's correlation id (increasing with the API calls); the CLI numbers them from 0.
#ifndef OPENGPA_PROFILER_KERNEL_TIMELINE_H_
#define OPENGPA_PROFILER_KERNEL_TIMELINE_H_

#include <memory>
#include <string>

#include "profiler/sample_stream.h"

namespace opengpa::inject_cuda {

// Starts recording into `stream` (its header written now). False and *error (also written to the stream) when
// CUPTI refuses: another tool owns the activity API, or CUPTI is missing.
bool StartKernelTimeline(std::unique_ptr<profiling::SampleStreamWriter> stream, std::string* error);

// Flushes CUPTI's buffers, writes what they held and the end record. Called once, at exit.
void FinishKernelTimeline();

// In the child of a fork: the parent's records are the parent's; the child writes nothing (no lock taken: another
// thread of the parent may have held it). A child that execs a CUDA program loads the library afresh.
void ForgetKernelTimelineInChild();

}  // namespace opengpa::inject_cuda

#endif  // OPENGPA_PROFILER_KERNEL_TIMELINE_H_
