#include "backends/opencl/cl_device.h"

#include <string>
#include <vector>

#include "platform/logging.h"

namespace opengpa::cl {
namespace {

constexpr cl_uint kNvidiaVendorId = 0x10DE;
constexpr cl_uint kIntelVendorId = 0x8086;
constexpr cl_uint kAmdVendorId = 0x1002;
// cl_nv_device_attribute_query
constexpr cl_device_info kComputeCapabilityMajorNv = 0x4000;
constexpr cl_device_info kComputeCapabilityMinorNv = 0x4001;

std::string DeviceString(cl_device_id device, cl_device_info what) {
  size_t size = 0;
  if (clGetDeviceInfo(device, what, 0, nullptr, &size) != CL_SUCCESS || size == 0) return "";
  std::vector<char> text(size);
  if (clGetDeviceInfo(device, what, size, text.data(), nullptr) != CL_SUCCESS) return "";
  return {text.data()};
}

template <typename T>
T DeviceValue(cl_device_id device, cl_device_info what, T fallback) {
  T value = fallback;
  if (clGetDeviceInfo(device, what, sizeof value, &value, nullptr) != CL_SUCCESS) return fallback;
  return value;
}

}  // namespace

DeviceInfo DescribeDevice(cl_device_id device) {
  DeviceInfo info;
  info.name = DeviceString(device, CL_DEVICE_NAME);
  const auto vendor = DeviceValue<cl_uint>(device, CL_DEVICE_VENDOR_ID, 0);
  const auto type = DeviceValue<cl_device_type>(device, CL_DEVICE_TYPE, 0);
  if (vendor == kNvidiaVendorId || vendor == kIntelVendorId || vendor == kAmdVendorId) info.vendor_id = vendor;
  if (type & CL_DEVICE_TYPE_CPU) {
    info.generation = kGpaHwGenerationSoftware;
    info.chip = DeviceString(device, CL_DEVICE_VENDOR);  // e.g. "AuthenticAMD" under PoCL: the CPU runs it
  } else if (vendor == kNvidiaVendorId) {
    info.generation = kGpaHwGenerationNvidia;
    if (DeviceString(device, CL_DEVICE_EXTENSIONS).find("cl_nv_device_attribute_query") != std::string::npos) {
      info.chip = fmt::format("sm_{}{}", DeviceValue<cl_uint>(device, kComputeCapabilityMajorNv, 0),
                              DeviceValue<cl_uint>(device, kComputeCapabilityMinorNv, 0));
    }
  } else if (vendor == kIntelVendorId) {
    info.generation = kGpaHwGenerationIntel;
  }
  return info;
}

}  // namespace opengpa::cl
