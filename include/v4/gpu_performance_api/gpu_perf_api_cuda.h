// OpenGPA extension: what libGPUPerfAPICUDA.so needs from a CUDA application.
//
// GpaOpenContext takes a pointer to a GpaCudaContextOpenInfo (never a bare CUcontext: the library checks
// the struct's `type` and `struct_size` and refuses anything else with kGpaStatusErrorInvalidParameter).
//
//   GpaCudaContextOpenInfo info = GPA_CUDA_CONTEXT_OPEN_INFO_INIT;
//   cuCtxGetCurrent(&info.context);            // or cudaFree(0) then cuCtxGetCurrent with the runtime API
//   GpaOpenContext(&info, kGpaOpenContextDefaultBit, &context_id);
//
// Two kinds of context:
//   - Live: `context` is the CUcontext whose work is measured. Counters are CUPTI metrics of that device;
//     samples are CUPTI user ranges and passes are CUPTI user-replay passes (see below).
//   - Offline: `context` is NULL and `chip_name` names a chip CUPTI supports ("GH100", "AD102", "GA100",
//     ...). No GPU or driver is needed: the context lists the chip's counters and answers
//     GpaGetPassCount, but GpaBeginSession returns kGpaStatusErrorHardwareNotSupported.
//   When both are set, `context` wins and `chip_name` must match its chip (else kGpaStatusErrorInvalidParameter).
//
// Recording, as GPA documents for every API: an application loops GpaGetPassCount times; in each pass it
// calls GpaBeginCommandList(session, pass, GPA_NULL_COMMAND_LIST, kGpaCommandListNone, &list), launches
// the same work with the same samples (GpaBeginSample/GpaEndSample around the launches to measure), and
// GpaEndCommandList. Valid usage specific to CUDA:
//   - command_type is kGpaCommandListNone: CUDA has no command lists; samples cover all work of the
//     context between GpaBeginSample and GpaEndSample        -> else kGpaStatusErrorInvalidParameter
//   - passes are recorded in order 0, 1, 2, ..., one command list at a time (CUPTI replays passes in
//     sequence)                                                -> else kGpaStatusErrorInvalidParameter
//   - samples do not nest (one open sample at a time)         -> the core reports kGpaStatusErrorSampleAlreadyStarted
//   - at most `max_samples_per_pass` samples per pass         -> else kGpaStatusErrorIndexOutOfRange
//   - the application restores any memory the measured work modifies before each replay if it wants the
//     same work measured in every pass (CUPTI user replay does not save or restore device memory).
// GpaEndSession waits for the context's work (CUPTI decodes the counter data then) and GpaIsPassComplete
// reports a pass complete once the work queued before its GpaEndCommandList on the legacy default stream
// has finished.
#ifndef GPU_PERFORMANCE_API_GPU_PERF_API_CUDA_H_
#define GPU_PERFORMANCE_API_GPU_PERF_API_CUDA_H_

#include "gpu_performance_api/gpu_perf_api_types.h"
#include "gpu_performance_api/opengpa_ext.h"  // kGpaApiCuda

#ifndef CUDA_VERSION
/// The driver API's context handle; the same declaration as cuda.h's, so either header may come first.
typedef struct CUctx_st* CUcontext;
#endif

/// GpaCudaContextOpenInfo::type: "OGCU", so that a CUcontext passed by mistake is recognised and refused.
#define GPA_CUDA_CONTEXT_OPEN_INFO_TYPE 0x5543474Fu

/// Samples per pass when GpaCudaContextOpenInfo::max_samples_per_pass is 0. CUPTI sizes its buffers for
/// this many ranges and the start of every pass costs more the larger it is (on an H100: about 0.4 s per
/// pass at 256, 1.7 s at 2048; docs/cuda.md), so ask for more only when a pass needs more samples.
#define GPA_CUDA_DEFAULT_MAX_SAMPLES_PER_PASS 256u

/// What GpaOpenContext takes for CUDA. Start from GPA_CUDA_CONTEXT_OPEN_INFO_INIT.
typedef struct GpaCudaContextOpenInfo
{
    GpaUInt32 type;                  ///< GPA_CUDA_CONTEXT_OPEN_INFO_TYPE
    GpaUInt32 struct_size;           ///< sizeof(GpaCudaContextOpenInfo)
    CUcontext context;               ///< the context to measure; NULL for an offline context
    const char* chip_name;           ///< offline: the chip whose counters to list, e.g. "GH100"; may be NULL when live
    GpaUInt32 max_samples_per_pass;  ///< CUPTI ranges reserved per pass; 0 means GPA_CUDA_DEFAULT_MAX_SAMPLES_PER_PASS
} GpaCudaContextOpenInfo;

#define GPA_CUDA_CONTEXT_OPEN_INFO_INIT \
    { GPA_CUDA_CONTEXT_OPEN_INFO_TYPE, (GpaUInt32)sizeof(GpaCudaContextOpenInfo), NULL, NULL, 0u }

#endif  // GPU_PERFORMANCE_API_GPU_PERF_API_CUDA_H_
