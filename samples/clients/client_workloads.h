// The application side of the GPA client programs (gpa_c_client.c, gpa_cpp_client.cc), behind a C interface so
// that the C client can use it: the samples' own workloads (samples/vulkan/workload, samples/opengl/workload)
// and a small OpenCL kernel, each of a size that fixes what its counters must read, and the chip of an
// offline CUDA context. Nothing here calls GPA: the clients do, through the interface loader, as a GPA
// application would.
//
// Two samples, the same for every API:
//   sample 0: kClientTriangles small triangles (Vulkan, OpenGL), or the kernel over kClientWorkItems items
//   sample 1: one triangle covering the kClientWidth x kClientHeight target, or the kernel again, twice as large
#ifndef OPENGPA_SAMPLES_CLIENTS_CLIENT_WORKLOADS_H_
#define OPENGPA_SAMPLES_CLIENTS_CLIENT_WORKLOADS_H_

#include <stddef.h>

#include "gpu_performance_api/gpu_perf_api_types.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { kClientTriangles = 1000, kClientWidth = 64, kClientHeight = 48, kClientWorkItems = 1 << 16 };

typedef struct ClientWorkload ClientWorkload;

/// Sets up the application for `api` (kGpaApiVulkan on lavapipe where present, kGpaApiOpengl on EGL,
/// kGpaApiOpencl on the first device, kGpaApiCuda: an offline GH100 context); NULL and `error` when it cannot.
/// `api` is the API's number (a GpaApiType, or kGpaApiCuda, which C++ may not hold in a GpaApiType).
ClientWorkload* ClientWorkloadCreate(int api, char* error, size_t error_size);
/// The same by the name the clients take ("vulkan", "opengl", "opencl", "cuda"), for the GPA 4 clients, whose
/// GpaApiType numbers the APIs differently from the v3 headers this library is built with.
ClientWorkload* ClientWorkloadCreateByName(const char* api_name, char* error, size_t error_size);
void ClientWorkloadDestroy(ClientWorkload* workload);

/// What GpaOpenContext takes: a GpaVkContextOpenInfo*, the current EGLContext, the cl_command_queue, or a
/// GpaCudaContextOpenInfo*.
void* ClientWorkloadGpaContext(ClientWorkload* workload);
/// The flags to open it with (kGpaOpenContextDefaultBit).
GpaOpenContextFlags ClientWorkloadOpenFlags(ClientWorkload* workload);
/// Whether work can be sampled (an offline CUDA context lists counters and counts passes only).
int ClientWorkloadCanSample(ClientWorkload* workload);
/// Whether to enable counter `name` of group `group` (every counter, except on CUDA: the default groups).
int ClientWorkloadWantsCounter(ClientWorkload* workload, const char* name, const char* group);
/// The number of passes the wanted counters take.
GpaUInt32 ClientWorkloadExpectedPasses(ClientWorkload* workload);
/// The command list GpaBeginCommandList takes, begun (a Vulkan command buffer inside a render pass), or
/// GPA_NULL_COMMAND_LIST; with the command list type to pass with it.
void* ClientWorkloadBeginCommandList(ClientWorkload* workload);
GpaCommandListType ClientWorkloadCommandListType(ClientWorkload* workload);
/// Records (Vulkan) or issues (OpenGL, OpenCL) the work of sample 0 or 1 into/after `command_list`.
void ClientWorkloadDoWork(ClientWorkload* workload, void* command_list, GpaUInt32 sample_id);
/// Submits the command list and waits for the GPU (Vulkan), or finishes the context's work; 0 on failure.
int ClientWorkloadSubmit(ClientWorkload* workload, void* command_list);
/// Checks a sample's counters against what its work must produce (exact counts of vertices, primitives,
/// pixels; consistent times). Returns the number of checks made, or -1 with `message` for the first failure.
int ClientWorkloadCheckSample(ClientWorkload* workload, GpaUInt32 sample_id, GpaUInt32 count, const char* const* names,
                              const double* values, char* message, size_t message_size);

#ifdef __cplusplus
}
#endif

#endif  // OPENGPA_SAMPLES_CLIENTS_CLIENT_WORKLOADS_H_
