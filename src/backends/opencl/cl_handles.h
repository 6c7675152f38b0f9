// Ownership of OpenCL objects: a reference released when its owner goes away.
#ifndef OPENGPA_BACKENDS_OPENCL_CL_HANDLES_H_
#define OPENGPA_BACKENDS_OPENCL_CL_HANDLES_H_

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120  // markers and barriers with wait lists are OpenCL 1.2
#endif
#include <CL/cl.h>

#include <memory>
#include <type_traits>

namespace opengpa::cl {

struct EventRelease {
  void operator()(cl_event event) const { clReleaseEvent(event); }
};
struct QueueRelease {
  void operator()(cl_command_queue queue) const { clReleaseCommandQueue(queue); }
};

using Event = std::unique_ptr<std::remove_pointer_t<cl_event>, EventRelease>;
using Queue = std::unique_ptr<std::remove_pointer_t<cl_command_queue>, QueueRelease>;

// Takes a reference of its own on the application's queue (the application may release its reference first).
inline Queue RetainQueue(cl_command_queue queue) {
  clRetainCommandQueue(queue);
  return Queue(queue);
}

}  // namespace opengpa::cl

#endif  // OPENGPA_BACKENDS_OPENCL_CL_HANDLES_H_
