#include "profiler/gpu_identity.h"

#include <cstdio>

namespace opengpa::inject_cuda {

std::string UuidText(const CUuuid& uuid) {
  const auto* b = reinterpret_cast<const unsigned char*>(uuid.bytes);
  char text[48];
  std::snprintf(text, sizeof text, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0],
                b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
  return text;
}

bool IdentifyContextDevice(const nvidia::CudaDriver& driver, CUcontext context, profiling::GpuIdentity* identity) {
  if (context == nullptr || driver.cuCtxGetDevice == nullptr) return false;
  CUdevice device = 0;
  {
    nvidia::ScopedCurrentContext current(driver, context);
    if (current.result() != CUDA_SUCCESS || driver.cuCtxGetDevice(&device) != CUDA_SUCCESS) return false;
  }
  IdentifyDevice(driver, device, identity);
  return true;
}

void IdentifyDevice(const nvidia::CudaDriver& driver, CUdevice device, profiling::GpuIdentity* identity,
                    std::string* name) {
  identity->index = static_cast<int>(device);  // the driver API's CUdevice is the process's ordinal
  CUuuid uuid{};
  if (driver.cuDeviceGetUuid != nullptr && driver.cuDeviceGetUuid(&uuid, device) == CUDA_SUCCESS) {
    identity->uuid = UuidText(uuid);
  }
  char bus[32] = {};
  if (driver.cuDeviceGetPCIBusId != nullptr &&
      driver.cuDeviceGetPCIBusId(bus, static_cast<int>(sizeof bus), device) == CUDA_SUCCESS) {
    identity->pci_bus_id = bus;
  }
  char text[256] = {};
  if (name != nullptr && driver.cuDeviceGetName != nullptr &&
      driver.cuDeviceGetName(text, static_cast<int>(sizeof text), device) == CUDA_SUCCESS) {
    *name = text;
  }
}

}  // namespace opengpa::inject_cuda
