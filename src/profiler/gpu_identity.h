// Which GPU a CUDA context runs on, as `opengpa profile` names it in every row (a process's CUDA ordinal depends on
// its CUDA_VISIBLE_DEVICES; the UUID and the PCI bus id name the same card in every process and in nvidia-smi).
#ifndef OPENGPA_PROFILER_GPU_IDENTITY_H_
#define OPENGPA_PROFILER_GPU_IDENTITY_H_

#include <cuda.h>

#include <string>

#include "nvidia/cuda_driver.h"
#include "profiler/profile_run.h"

namespace opengpa::inject_cuda {

// The device of `context` (made current on this thread for the question). False when the context is not valid;
// fields the driver cannot give are left empty.
bool IdentifyContextDevice(const nvidia::CudaDriver& driver, CUcontext context, profiling::GpuIdentity* identity);

// The CUDA device `device` (this process's ordinal) with its UUID and PCI bus id; fields the driver cannot give are
// left empty. `name`, when given, gets the device's name ("NVIDIA H100 80GB HBM3").
void IdentifyDevice(const nvidia::CudaDriver& driver, CUdevice device, profiling::GpuIdentity* identity,
                    std::string* name = nullptr);

// "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", as nvidia-smi -L prints it.
std::string UuidText(const CUuuid& uuid);

}  // namespace opengpa::inject_cuda

#endif  // OPENGPA_PROFILER_GPU_IDENTITY_H_
