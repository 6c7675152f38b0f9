// opengpa_gpa2_sample: a GPA v2 client, written the way the v2 user guide's example code is. It loads
// libGPUPerfAPICL.so with dlopen (through platform/dynamic_library.h, the one place OpenGPA calls dlopen), takes
// each GPA_* function by name (GPUPerfAPIFunctionTypes.h), opens the
// counters on an OpenCL command queue, enables every counter, profiles two kernels of different sizes in each
// of a few sessions (one sample per kernel, GPA_GetPassCount passes), polls GPA_IsSessionReady and writes
// every session's results as CSV rows ("session, sample, counter..."), as the guide's WriteSession does.
//
// usage: opengpa_gpa2_sample [--gpa-lib PATH] [--sessions N]
// Exit status 1 if a GPA call fails or the larger kernel's GPUTime is not above the smaller one's.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <CL/cl.h>

#include "gpu_performance_api/v2/GPUPerfAPIFunctionTypes.h"
#include "platform/dynamic_library.h"

namespace {

#ifndef OPENGPA_CL_LIBRARY
#define OPENGPA_CL_LIBRARY "libGPUPerfAPICL.so"
#endif

constexpr const char* kSource = R"(
__kernel void spin(__global float* data, int iterations) {
  size_t i = get_global_id(0);
  float x = data[i];
  for (int k = 0; k < iterations; ++k) x = x * 0.9999f + 0.5f;
  data[i] = x;
})";
constexpr size_t kWorkItems = 1 << 12;

// The v2 functions this program calls, looked up by name.
struct Gpa2 {
  GPA_RegisterLoggingCallbackPtrType GPA_RegisterLoggingCallback;
  GPA_InitializePtrType GPA_Initialize;
  GPA_DestroyPtrType GPA_Destroy;
  GPA_OpenContextPtrType GPA_OpenContext;
  GPA_CloseContextPtrType GPA_CloseContext;
  GPA_EnableAllCountersPtrType GPA_EnableAllCounters;
  GPA_GetEnabledCountPtrType GPA_GetEnabledCount;
  GPA_GetEnabledIndexPtrType GPA_GetEnabledIndex;
  GPA_GetCounterNamePtrType GPA_GetCounterName;
  GPA_GetCounterDataTypePtrType GPA_GetCounterDataType;
  GPA_GetCounterUsageTypePtrType GPA_GetCounterUsageType;
  GPA_GetUsageTypeAsStrPtrType GPA_GetUsageTypeAsStr;
  GPA_GetPassCountPtrType GPA_GetPassCount;
  GPA_BeginSessionPtrType GPA_BeginSession;
  GPA_EndSessionPtrType GPA_EndSession;
  GPA_BeginPassPtrType GPA_BeginPass;
  GPA_EndPassPtrType GPA_EndPass;
  GPA_BeginSamplePtrType GPA_BeginSample;
  GPA_EndSamplePtrType GPA_EndSample;
  GPA_IsSessionReadyPtrType GPA_IsSessionReady;
  GPA_GetSampleCountPtrType GPA_GetSampleCount;
  GPA_GetSampleUInt64PtrType GPA_GetSampleUInt64;
  GPA_GetSampleFloat64PtrType GPA_GetSampleFloat64;
  GPA_GetStatusAsStrPtrType GPA_GetStatusAsStr;
};

template <typename Function>
bool Find(const opengpa::DynamicLibrary& library, const char* name, Function* function) {
  if (!library.Resolve(name, function)) std::fprintf(stderr, "opengpa_gpa2_sample: %s is not exported\n", name);
  return *function != nullptr;
}

#define GPA2_FIND(name) Find(library, #name, &gpa->name)

bool Load(const opengpa::DynamicLibrary& library, Gpa2* gpa) {
  return GPA2_FIND(GPA_RegisterLoggingCallback) && GPA2_FIND(GPA_Initialize) && GPA2_FIND(GPA_Destroy) &&
         GPA2_FIND(GPA_OpenContext) && GPA2_FIND(GPA_CloseContext) && GPA2_FIND(GPA_EnableAllCounters) &&
         GPA2_FIND(GPA_GetEnabledCount) && GPA2_FIND(GPA_GetEnabledIndex) && GPA2_FIND(GPA_GetCounterName) &&
         GPA2_FIND(GPA_GetCounterDataType) && GPA2_FIND(GPA_GetCounterUsageType) && GPA2_FIND(GPA_GetUsageTypeAsStr) &&
         GPA2_FIND(GPA_GetPassCount) && GPA2_FIND(GPA_BeginSession) && GPA2_FIND(GPA_EndSession) &&
         GPA2_FIND(GPA_BeginPass) && GPA2_FIND(GPA_EndPass) && GPA2_FIND(GPA_BeginSample) && GPA2_FIND(GPA_EndSample) &&
         GPA2_FIND(GPA_IsSessionReady) && GPA2_FIND(GPA_GetSampleCount) && GPA2_FIND(GPA_GetSampleUInt64) &&
         GPA2_FIND(GPA_GetSampleFloat64) && GPA2_FIND(GPA_GetStatusAsStr);
}

void LogToStderr(GPA_Logging_Type type, const char* message) {
  std::fprintf(stderr, "GPA %s: %s\n", type == GPA_LOGGING_ERROR ? "error" : "message", message);
}

// The guide's WriteSession: the heading once, then one row per sample. Returns the GPUTime of each sample.
std::vector<double> WriteSession(const Gpa2& gpa, gpa_uint32 session, bool heading) {
  gpa_uint32 count = 0, samples = 0;
  gpa.GPA_GetEnabledCount(&count);
  if (heading) {
    std::printf("session,sample");
    for (gpa_uint32 e = 0; e < count; ++e) {
      gpa_uint32 index = 0;
      const char* name = nullptr;
      const char* usage_name = nullptr;
      GPA_Usage_Type usage;
      gpa.GPA_GetEnabledIndex(e, &index);
      gpa.GPA_GetCounterName(index, &name);
      gpa.GPA_GetCounterUsageType(index, &usage);
      gpa.GPA_GetUsageTypeAsStr(usage, &usage_name);
      std::printf(",%s (%s)", name, usage_name);
    }
    std::printf("\n");
  }
  std::vector<double> gpu_time;
  gpa.GPA_GetSampleCount(session, &samples);
  for (gpa_uint32 sample = 0; sample < samples; ++sample) {
    std::printf("%u,%u", session, sample);
    for (gpa_uint32 e = 0; e < count; ++e) {
      gpa_uint32 index = 0;
      GPA_Type type;
      const char* name = nullptr;
      gpa.GPA_GetEnabledIndex(e, &index);
      gpa.GPA_GetCounterDataType(index, &type);
      gpa.GPA_GetCounterName(index, &name);
      double value = 0;
      if (type == GPA_TYPE_UINT64) {
        gpa_uint64 v = 0;
        gpa.GPA_GetSampleUInt64(session, sample, index, &v);
        value = static_cast<double>(v);
        std::printf(",%llu", v);
      } else {
        gpa.GPA_GetSampleFloat64(session, sample, index, &value);
        std::printf(",%.6f", value);
      }
      if (std::strcmp(name, "GPUTime") == 0) gpu_time.push_back(value);
    }
    std::printf("\n");
  }
  return gpu_time;
}

}  // namespace

int main(int argc, char** argv) {
  std::string library_path = OPENGPA_CL_LIBRARY;
  int sessions = 3;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--gpa-lib") == 0)
      library_path = argv[i + 1];
    else if (std::strcmp(argv[i], "--sessions") == 0)
      sessions = std::max(1, std::atoi(argv[i + 1]));
  }
  std::string error;
  std::unique_ptr<opengpa::DynamicLibrary> library = opengpa::DynamicLibrary::Open({library_path}, &error);
  if (library == nullptr) {
    std::fprintf(stderr, "opengpa_gpa2_sample: %s\n", error.c_str());
    return 1;
  }
  Gpa2 gpa{};
  if (!Load(*library, &gpa)) return 1;

  // Startup, as in the guide: initialize before the context is created, then open the counters on it.
  gpa.GPA_RegisterLoggingCallback(GPA_LOGGING_ERROR, LogToStderr);
  if (gpa.GPA_Initialize() != GPA_STATUS_OK) return 1;
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  cl_int status = clGetPlatformIDs(1, &platform, nullptr);
  if (status == CL_SUCCESS) status = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr);
  if (status != CL_SUCCESS) {
    std::fprintf(stderr, "opengpa_gpa2_sample: no OpenCL device (e.g. apt-get install pocl-opencl-icd)\n");
    return 1;
  }
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &status);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  cl_command_queue queue = clCreateCommandQueue(context, device, CL_QUEUE_PROFILING_ENABLE, &status);
#pragma GCC diagnostic pop
  const char* source = kSource;
  cl_program program = clCreateProgramWithSource(context, 1, &source, nullptr, &status);
  clBuildProgram(program, 1, &device, "", nullptr, nullptr);
  cl_kernel spin = clCreateKernel(program, "spin", &status);
  cl_mem data = clCreateBuffer(context, CL_MEM_READ_WRITE, kWorkItems * sizeof(float), nullptr, &status);
  auto enqueue_spin = [&](int iterations) {
    clSetKernelArg(spin, 0, sizeof data, &data);
    clSetKernelArg(spin, 1, sizeof iterations, &iterations);
    clEnqueueNDRangeKernel(queue, spin, 1, nullptr, &kWorkItems, nullptr, 0, nullptr, nullptr);
  };

  enqueue_spin(1);  // builds the kernel for the device (PoCL compiles at first launch) outside the samples
  clFinish(queue);

  GPA_Status gpa_status = gpa.GPA_OpenContext(queue);
  if (gpa_status != GPA_STATUS_OK) {
    std::fprintf(stderr, "opengpa_gpa2_sample: GPA_OpenContext: %s\n", gpa.GPA_GetStatusAsStr(gpa_status));
    return 1;
  }
  gpa.GPA_EnableAllCounters();

  // The render loop: each session samples a small and a four times larger kernel in every pass.
  bool ok = true;
  gpa_uint32 wait_session = 1;
  for (int frame = 0; frame < sessions; ++frame) {
    gpa_uint32 session = 0, passes = 0;
    ok = ok && gpa.GPA_BeginSession(&session) == GPA_STATUS_OK;
    gpa.GPA_GetPassCount(&passes);
    for (gpa_uint32 pass = 0; pass < passes; ++pass) {
      ok = ok && gpa.GPA_BeginPass() == GPA_STATUS_OK;
      ok = ok && gpa.GPA_BeginSample(0) == GPA_STATUS_OK;
      enqueue_spin(500);
      ok = ok && gpa.GPA_EndSample() == GPA_STATUS_OK;
      ok = ok && gpa.GPA_BeginSample(1) == GPA_STATUS_OK;
      enqueue_spin(2000);
      ok = ok && gpa.GPA_EndSample() == GPA_STATUS_OK;
      ok = ok && gpa.GPA_EndPass() == GPA_STATUS_OK;
    }
    ok = ok && gpa.GPA_EndSession() == GPA_STATUS_OK;
    clFlush(queue);
  }
  clFinish(queue);
  // Results, polled without blocking as the guide suggests, for every session still buffered.
  for (; ok && wait_session <= static_cast<gpa_uint32>(sessions); ++wait_session) {
    bool ready = false;
    for (int attempt = 0; attempt < 6000 && !ready; ++attempt) {
      if (gpa.GPA_IsSessionReady(&ready, wait_session) != GPA_STATUS_OK) ok = false;
      if (!ready) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    const std::vector<double> gpu_time = WriteSession(gpa, wait_session, wait_session == 1);
    if (gpu_time.size() != 2 || !(gpu_time[1] > gpu_time[0])) {
      std::fprintf(stderr, "opengpa_gpa2_sample: session %u: the larger kernel's GPUTime is not above the smaller's\n",
                   wait_session);
      ok = false;
    }
  }

  // On exit, as in the guide.
  gpa.GPA_CloseContext();
  clReleaseMemObject(data);
  clReleaseKernel(spin);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  gpa.GPA_Destroy();
  library.reset();
  return ok ? 0 : 1;
}
