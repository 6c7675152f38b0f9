// opengpa-doctor-cl: libGPUPerfAPICL.so on the first GPU of any OpenCL platform, else the first device
// (OPENGPA_CL_PLATFORM, a part of a platform's name, chooses the platform). OpenCL's GPA counters are times, so:
//   a kernel over a global size of N work-items, each adding 1 to one counter: the counter ends at N (the work ran
//   as enqueued); GPUTime covers the kernel's own event time (CL_PROFILING_COMMAND_START..END) and is at most the
//   host's wall time from the enqueue to clFinish.
// --quick runs the same check on a smaller N. The kernel is written here: OpenCL has no workload library in the
// project (tests/opencl's kernels are bound to PoCL by its fixture).
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

#include "gpa_sampling.h"
#include "loaded_modules.h"
#include "probe_main.h"

namespace opengpa::doctor {
namespace {

using Clock = std::chrono::steady_clock;

const char* kCountSource = R"CLC(
__kernel void count_items(__global uint* counter) { atomic_inc(counter); }
)CLC";

std::string Failed(const char* call, cl_int status) {
  return std::string(call) + " returned " + std::to_string(status);
}

std::string PlatformText(cl_platform_id platform, cl_platform_info what) {
  char text[512] = {};
  clGetPlatformInfo(platform, what, sizeof text - 1, text, nullptr);
  return text;
}

std::string DeviceText(cl_device_id device, cl_device_info what) {
  char text[512] = {};
  clGetDeviceInfo(device, what, sizeof text - 1, text, nullptr);
  return text;
}

// The platform and device to probe; false when there is none.
bool ChooseDevice(cl_platform_id* chosen_platform, cl_device_id* chosen_device, std::string* why) {
  cl_uint count = 0;
  const cl_int status = clGetPlatformIDs(0, nullptr, &count);
  if (status != CL_SUCCESS || count == 0) {
    *why = "the OpenCL ICD loader found no platform (" + Failed("clGetPlatformIDs", status) +
           "; no ICD file in /etc/OpenCL/vendors?)";
    return false;
  }
  std::vector<cl_platform_id> platforms(count);
  clGetPlatformIDs(count, platforms.data(), nullptr);
  const char* wanted = std::getenv("OPENGPA_CL_PLATFORM");
  for (cl_device_type type : {cl_device_type{CL_DEVICE_TYPE_GPU}, cl_device_type{CL_DEVICE_TYPE_ALL}}) {
    for (cl_platform_id platform : platforms) {
      if (wanted && *wanted && PlatformText(platform, CL_PLATFORM_NAME).find(wanted) == std::string::npos) continue;
      cl_device_id device = nullptr;
      if (clGetDeviceIDs(platform, type, 1, &device, nullptr) == CL_SUCCESS && device != nullptr) {
        *chosen_platform = platform;
        *chosen_device = device;
        return true;
      }
    }
  }
  *why = std::string("no OpenCL device") +
         (wanted && *wanted ? " on a platform named like OPENGPA_CL_PLATFORM=" + std::string(wanted) : "");
  return false;
}

// The OpenCL objects of the check, released in reverse.
struct ClObjects {
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  cl_program program = nullptr;
  cl_kernel kernel = nullptr;
  cl_mem counter = nullptr;
  ~ClObjects() {
    if (counter) clReleaseMemObject(counter);
    if (kernel) clReleaseKernel(kernel);
    if (program) clReleaseProgram(program);
    if (queue) clReleaseCommandQueue(queue);
    if (context) clReleaseContext(context);
  }
};

bool Build(cl_device_id device, ClObjects* cl, std::string* error) {
  cl_int status = CL_SUCCESS;
  cl->context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &status);
  if (status != CL_SUCCESS) return *error = Failed("clCreateContext", status), false;
  // GPA reads times from events: the queue must be created with profiling (gpu_perf_api_cl.h).
  cl->queue = clCreateCommandQueue(cl->context, device, CL_QUEUE_PROFILING_ENABLE, &status);
  if (status != CL_SUCCESS) return *error = Failed("clCreateCommandQueue", status), false;
  cl->program = clCreateProgramWithSource(cl->context, 1, &kCountSource, nullptr, &status);
  if (status == CL_SUCCESS) status = clBuildProgram(cl->program, 1, &device, "", nullptr, nullptr);
  if (status != CL_SUCCESS) return *error = Failed("clBuildProgram", status), false;
  cl->kernel = clCreateKernel(cl->program, "count_items", &status);
  if (status != CL_SUCCESS) return *error = Failed("clCreateKernel", status), false;
  cl->counter = clCreateBuffer(cl->context, CL_MEM_READ_WRITE, sizeof(cl_uint), nullptr, &status);
  if (status != CL_SUCCESS) return *error = Failed("clCreateBuffer", status), false;
  status = clSetKernelArg(cl->kernel, 0, sizeof(cl_mem), &cl->counter);
  if (status != CL_SUCCESS) return *error = Failed("clSetKernelArg", status), false;
  return true;
}

void RunOpenClProbe(const ProbeOptions& options, ProbeReport& report) {
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  std::string error;
  if (!ChooseDevice(&platform, &device, &error)) {
    report.MarkAbsent(error);
    return;
  }
  report.SetDriver({{"device", DeviceText(device, CL_DEVICE_NAME)},
                    {"name", PlatformText(platform, CL_PLATFORM_NAME)},
                    {"version", PlatformText(platform, CL_PLATFORM_VERSION)},
                    {"driver_version", DeviceText(device, CL_DRIVER_VERSION)}});
  auto gpa = ProbeGpaLibrary::Load(kGpaApiOpencl, options.search, &report);
  if (!gpa) return;
  ClObjects cl;
  if (!Build(device, &cl, &error)) {
    report.AddCause({"workload_not_built", "the OpenCL workload could not be set up: " + error,
                     "the platform refused a profiling queue or a one-line kernel; check it with clinfo"});
    return;
  }
  report.Driver()["libraries"] = LoadedModules({"libOpenCL", "libpocl", "libnvidia-opencl", "libGPUPerfAPI"});
  opengpa::Context context(gpa->Gpa(), cl.queue);
  report.Driver()["gpa_device"] = context.DeviceName();
  const std::size_t work_items = options.quick ? 1 << 16 : 1 << 22;
  const cl_uint zero = 0;
  cl_uint counted = 0;
  double host_ns = 0;
  double kernel_ns = 0;
  const auto values = CollectSamples(context, {"GPUTime"}, 1, [&](opengpa::Session& session, GpaUInt32 pass) {
    clEnqueueWriteBuffer(cl.queue, cl.counter, CL_TRUE, 0, sizeof zero, &zero, 0, nullptr, nullptr);
    const auto start = Clock::now();
    opengpa::CommandList list(session, pass);
    cl_event event = nullptr;
    list.BeginSample(0);
    const cl_int status =
        clEnqueueNDRangeKernel(cl.queue, cl.kernel, 1, nullptr, &work_items, nullptr, 0, nullptr, &event);
    list.EndSample();
    list.End();
    clFinish(cl.queue);
    host_ns = std::chrono::duration<double, std::nano>(Clock::now() - start).count();
    if (status != CL_SUCCESS) throw std::runtime_error(Failed("clEnqueueNDRangeKernel", status));
    cl_ulong began = 0, ended = 0;
    clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_START, sizeof began, &began, nullptr);
    clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, sizeof ended, &ended, nullptr);
    clReleaseEvent(event);
    kernel_ns = static_cast<double>(ended) - static_cast<double>(began);
    clEnqueueReadBuffer(cl.queue, cl.counter, CL_TRUE, 0, sizeof counted, &counted, 0, nullptr, nullptr);
  });
  const std::string name = "kernel over " + std::to_string(work_items) + " work-items";
  report.Compare({name, "", "items", static_cast<double>(counted), static_cast<double>(work_items), Tolerance::Exact(),
                  "the kernel's own count: each work-item adds 1"});
  report.Compare({name, "GPUTime", "nanoseconds", values[0].at("GPUTime"), kernel_ns, Tolerance::AtLeast(),
                  "the kernel event's own CL_PROFILING_COMMAND_START..END"});
  report.Compare({name, "GPUTime", "nanoseconds", values[0].at("GPUTime"), host_ns, Tolerance::PositiveAtMost(),
                  "the host's wall time from the enqueue to clFinish"});
  report.ExplainFailedChecks(
      "GPA read no time from the queue's events: a platform whose profiling clock does not advance, or a stand-in "
      "libGPUPerfAPICL.so; `opengpa doctor -v --api cl` shows which libraries were loaded");
}

}  // namespace
}  // namespace opengpa::doctor

int main(int argc, char** argv) { return opengpa::doctor::RunProbe(argc, argv, "cl", opengpa::doctor::RunOpenClProbe); }
