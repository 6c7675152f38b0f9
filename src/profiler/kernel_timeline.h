// The program's side of the sampled mode (`opengpa profile --mode sampled`, and Python's mode="sampled" in its own
// process): no ranges, no replay, no serialization, so the program runs at its own speed. CUPTI's activity API
// records every kernel (concurrent kernels stay concurrent), copy and memset with its start and end on the GPU's
// clock; each completed activity buffer is written to the sample stream (a kernel as a sample without values, a
// copy or memset as a "work" record), and each kernel then gets its share of the PM samples taken meanwhile
// (sampled_attribution.h). A sample's index is CUPTI's correlation id (increasing with the API calls); the reader
// numbers them from 0.
//
// Labels: a sample carries the ranges open on its launching thread at the launch (NVTX push/pop ranges, Python's
// regions), as the exact mode's samples do. They come from CUPTI callbacks at the launch calls' entry and exit
// (launch_labels.h), which run on the launch path only from the program's first NVTX push on (or from the start
// where the caller's own ranges need them), so a program without NVTX pays nothing for them.
#ifndef OPENGPA_PROFILER_KERNEL_TIMELINE_H_
#define OPENGPA_PROFILER_KERNEL_TIMELINE_H_

#include <cupti.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "profiler/launch_labels.h"
#include "profiler/sample_stream.h"

namespace opengpa::inject_cuda {

struct TimelineLabels {
  // NVTX calls, on the calling thread; CUPTI's NVTX domain is followed when set (CUPTI sees NVTX only where
  // NVTX_INJECTION64_PATH named libcupti before the program's first NVTX call).
  std::function<void(CUpti_CallbackId cbid, const CUpti_NvtxData& data)> on_nvtx;
  // The labels open on the calling thread, outermost first.
  std::function<std::vector<std::string>()> open_ranges;
  // true: launches are labelled from the start; false: from the first NVTX push on.
  bool from_start = false;
  // true: each kernel written also keeps its label for StopKernelTimeline (the in-process session's rows carry
  // their thread and host time); false: labels are dropped once their kernel is written.
  bool keep = false;
};

// A kernel written to the stream and its launch's label (kept with TimelineLabels::keep).
using WrittenLabel = std::pair<std::uint64_t, profiling::LaunchLabel>;  // correlation id, label

// Starts recording into `stream` (its header written now). False and *error (also written to the stream) when
// CUPTI refuses the activity API: another tool owns it, or CUPTI is missing. A refused callback subscription
// (another CUPTI subscriber) only leaves the samples unlabelled, which the stream says.
bool StartKernelTimeline(std::unique_ptr<profiling::SampleStreamWriter> stream, TimelineLabels labels,
                         std::string* error);

// Flushes CUPTI's buffers, writes what they held and the end record. Called once, at exit.
void FinishKernelTimeline();

// The in-process session's end: what FinishKernelTimeline does, then the activity kinds and callbacks are
// released and the stream closed, so that a later StartKernelTimeline begins afresh. `labels`: the kept labels.
// The caller synchronizes its work first (a kernel still running when its buffer is flushed is not recorded).
void StopKernelTimeline(std::vector<WrittenLabel>* labels);

// In the child of a fork: the parent's records are the parent's; the child writes nothing (no lock taken: another
// thread of the parent may have held it). A child that execs a CUDA program loads the library afresh.
void ForgetKernelTimelineInChild();

}  // namespace opengpa::inject_cuda

#endif  // OPENGPA_PROFILER_KERNEL_TIMELINE_H_
