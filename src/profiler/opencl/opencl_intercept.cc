// libopengpa_intercept_cl.so: profiles an unmodified OpenCL program when LD_PRELOADed by
// `opengpa profile --api cl`. It forces CL_QUEUE_PROFILING_ENABLE on every queue the program creates and
// turns every clEnqueueNDRangeKernel into one sample: the kernel's name, global and local size, and
// GPUTime = CL_PROFILING_COMMAND_END - CL_PROFILING_COMMAND_START of the kernel's own event (an event
// is created when the program passes none). Everything else passes through to the real ICD loader.
// Without $OPENGPA_PROFILE_OUTPUT the library only passes calls through.
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "profiler/opencl/kernel_event_log.h"

#define OPENGPA_EXPORT extern "C" __attribute__((visibility("default")))

namespace opengpa::intercept_cl {
namespace {

struct RealEntryPoints {
  decltype(&clCreateCommandQueue) create_command_queue = nullptr;
  decltype(&clCreateCommandQueueWithProperties) create_command_queue_with_properties = nullptr;
  decltype(&clEnqueueNDRangeKernel) enqueue_nd_range_kernel = nullptr;
  decltype(&clFinish) finish = nullptr;
  decltype(&clReleaseCommandQueue) release_command_queue = nullptr;
};

// The real entry point behind this interposer. Not through platform/dynamic_library.h (where every dlopen of
// OpenGPA is): RTLD_NEXT is resolved relative to the object that calls dlsym, which must be this library.
template <typename Function>
Function Next(const char* name) {
  return reinterpret_cast<Function>(dlsym(RTLD_NEXT, name));
}

struct Interceptor {
  RealEntryPoints real;
  OpenClFunctions cl;
  std::unique_ptr<KernelEventLog> log;  // null: pass-through only

  Interceptor() {
    real.create_command_queue = Next<decltype(real.create_command_queue)>("clCreateCommandQueue");
    real.create_command_queue_with_properties =
        Next<decltype(real.create_command_queue_with_properties)>("clCreateCommandQueueWithProperties");
    real.enqueue_nd_range_kernel = Next<decltype(real.enqueue_nd_range_kernel)>("clEnqueueNDRangeKernel");
    real.finish = Next<decltype(real.finish)>("clFinish");
    real.release_command_queue = Next<decltype(real.release_command_queue)>("clReleaseCommandQueue");
    cl.get_event_info = Next<decltype(cl.get_event_info)>("clGetEventInfo");
    cl.get_event_profiling_info = Next<decltype(cl.get_event_profiling_info)>("clGetEventProfilingInfo");
    cl.release_event = Next<decltype(cl.release_event)>("clReleaseEvent");
    cl.retain_event = Next<decltype(cl.retain_event)>("clRetainEvent");
    cl.wait_for_events = Next<decltype(cl.wait_for_events)>("clWaitForEvents");
    cl.get_command_queue_info = Next<decltype(cl.get_command_queue_info)>("clGetCommandQueueInfo");
    cl.get_device_info = Next<decltype(cl.get_device_info)>("clGetDeviceInfo");
    cl.get_kernel_info = Next<decltype(cl.get_kernel_info)>("clGetKernelInfo");
    const bool complete = cl.get_event_info && cl.get_event_profiling_info && cl.release_event && cl.retain_event &&
                          cl.wait_for_events && cl.get_command_queue_info && cl.get_device_info && cl.get_kernel_info &&
                          real.enqueue_nd_range_kernel;
    auto stream = profiling::SampleStreamWriter::FromEnvironment();
    if (!stream) return;
    if (!complete) {
      stream->WriteMessage("libopengpa_intercept_cl: the program's OpenCL library lacks entry points; not profiling");
      return;
    }
    log = std::make_unique<KernelEventLog>(cl, std::move(stream));
  }

  // Runs at exit (the static below was constructed at the program's first OpenCL call, after the ICD
  // loaded its driver, so it is destroyed before the driver's own teardown): reads the last events.
  ~Interceptor() {
    if (log) log->Finish();
  }

  static Interceptor& Get() {
    static Interceptor interceptor;
    return interceptor;
  }
};

std::string KernelName(const OpenClFunctions& cl, cl_kernel kernel) {
  size_t size = 0;
  if (cl.get_kernel_info(kernel, CL_KERNEL_FUNCTION_NAME, 0, nullptr, &size) != CL_SUCCESS || size == 0) {
    return "<unnamed kernel>";
  }
  std::string name(size, '\0');
  cl.get_kernel_info(kernel, CL_KERNEL_FUNCTION_NAME, size, name.data(), nullptr);
  while (!name.empty() && name.back() == '\0') name.pop_back();
  return name;
}

}  // namespace
}  // namespace opengpa::intercept_cl

using opengpa::intercept_cl::Interceptor;

OPENGPA_EXPORT cl_command_queue clCreateCommandQueue(cl_context context, cl_device_id device,
                                                     cl_command_queue_properties properties, cl_int* errcode_ret) {
  Interceptor& self = Interceptor::Get();
  if (!self.real.create_command_queue) {
    if (errcode_ret) *errcode_ret = CL_INVALID_OPERATION;
    return nullptr;
  }
  if (self.log) properties |= CL_QUEUE_PROFILING_ENABLE;
  return self.real.create_command_queue(context, device, properties, errcode_ret);
}

OPENGPA_EXPORT cl_command_queue clCreateCommandQueueWithProperties(cl_context context, cl_device_id device,
                                                                   const cl_queue_properties* properties,
                                                                   cl_int* errcode_ret) {
  Interceptor& self = Interceptor::Get();
  if (!self.real.create_command_queue_with_properties) {
    if (errcode_ret) *errcode_ret = CL_INVALID_OPERATION;
    return nullptr;
  }
  if (!self.log) return self.real.create_command_queue_with_properties(context, device, properties, errcode_ret);
  // Copy the zero-terminated key/value list, adding the profiling bit to CL_QUEUE_PROPERTIES.
  std::vector<cl_queue_properties> forced;
  bool had_flags = false;
  for (const cl_queue_properties* p = properties; p && p[0] != 0; p += 2) {
    cl_queue_properties value = p[1];
    if (p[0] == CL_QUEUE_PROPERTIES) {
      value |= CL_QUEUE_PROFILING_ENABLE;
      had_flags = true;
    }
    forced.push_back(p[0]);
    forced.push_back(value);
  }
  if (!had_flags) {
    forced.push_back(CL_QUEUE_PROPERTIES);
    forced.push_back(CL_QUEUE_PROFILING_ENABLE);
  }
  forced.push_back(0);
  return self.real.create_command_queue_with_properties(context, device, forced.data(), errcode_ret);
}

OPENGPA_EXPORT cl_int clEnqueueNDRangeKernel(cl_command_queue queue, cl_kernel kernel, cl_uint work_dim,
                                             const size_t* global_work_offset, const size_t* global_work_size,
                                             const size_t* local_work_size, cl_uint num_events_in_wait_list,
                                             const cl_event* event_wait_list, cl_event* event) {
  Interceptor& self = Interceptor::Get();
  if (!self.real.enqueue_nd_range_kernel) return CL_INVALID_OPERATION;
  if (!self.log) {
    return self.real.enqueue_nd_range_kernel(queue, kernel, work_dim, global_work_offset, global_work_size,
                                             local_work_size, num_events_in_wait_list, event_wait_list, event);
  }
  cl_event own_event = nullptr;
  cl_event* timing_event = event ? event : &own_event;
  const cl_int status =
      self.real.enqueue_nd_range_kernel(queue, kernel, work_dim, global_work_offset, global_work_size, local_work_size,
                                        num_events_in_wait_list, event_wait_list, timing_event);
  if (status != CL_SUCCESS || *timing_event == nullptr) return status;
  if (event) self.cl.retain_event(*event);  // the program may release its event before we read it

  opengpa::intercept_cl::PendingKernel pending;
  pending.index = self.log->NextIndex();
  pending.name = opengpa::intercept_cl::KernelName(self.cl, kernel);
  pending.queue = self.log->QueueId(queue);
  pending.queue_handle = queue;
  pending.event = *timing_event;
  for (cl_uint d = 0; d < work_dim && d < 3; ++d) {
    pending.grid[d] = global_work_size ? global_work_size[d] : 0;
    pending.block[d] = local_work_size ? local_work_size[d] : 0;  // 0: chosen by the implementation
  }
  self.log->Add(std::move(pending));
  return status;
}

OPENGPA_EXPORT cl_int clFinish(cl_command_queue queue) {
  Interceptor& self = Interceptor::Get();
  if (!self.real.finish) return CL_INVALID_OPERATION;
  const cl_int status = self.real.finish(queue);
  if (self.log) self.log->Harvest(false, nullptr);
  return status;
}

OPENGPA_EXPORT cl_int clReleaseCommandQueue(cl_command_queue queue) {
  Interceptor& self = Interceptor::Get();
  if (!self.real.release_command_queue) return CL_INVALID_OPERATION;
  if (self.log) {
    cl_uint references = 0;
    if (self.cl.get_command_queue_info(queue, CL_QUEUE_REFERENCE_COUNT, sizeof references, &references, nullptr) ==
            CL_SUCCESS &&
        references == 1) {
      self.log->ForgetQueue(queue);
    }
  }
  return self.real.release_command_queue(queue);
}
