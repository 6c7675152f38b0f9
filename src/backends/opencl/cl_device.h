// The application's command queue and its device, shared by the OpenCL context and its sessions.
#ifndef OPENGPA_BACKENDS_OPENCL_CL_DEVICE_H_
#define OPENGPA_BACKENDS_OPENCL_CL_DEVICE_H_

#include "backends/opencl/cl_handles.h"
#include "core/backend.h"

namespace opengpa::cl {

struct QueueState {
  Queue queue;  // GPA's own reference
  cl_device_id device = nullptr;
  bool out_of_order = false;  // CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE
  DeviceInfo info;
};

// Name, vendor id and generation of `device` (PoCL and other CPU devices report kGpaHwGenerationSoftware).
DeviceInfo DescribeDevice(cl_device_id device);

}  // namespace opengpa::cl

#endif  // OPENGPA_BACKENDS_OPENCL_CL_DEVICE_H_
