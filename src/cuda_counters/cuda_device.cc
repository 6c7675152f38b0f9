#include "cuda_counters/cuda_device.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <fstream>

#include "nvidia/cupti_range_session.h"
#include "platform/logging.h"

namespace opengpa::cuda {

using nvidia::CudaDriver;
using nvidia::CuptiChipName;
using nvidia::EnsureCuptiProfilerInitialized;
using nvidia::ScopedCurrentContext;
namespace {

// Reads a sysfs hex attribute such as /sys/bus/pci/devices/0000:3b:00.0/device ("0x2330"); 0 if absent.
std::uint32_t ReadPciAttribute(const std::string& bus_id, const char* attribute) {
  std::ifstream file("/sys/bus/pci/devices/" + bus_id + "/" + attribute);
  std::string text;
  if (!(file >> text)) return 0;
  try {
    return static_cast<std::uint32_t>(std::stoul(text, nullptr, 16));
  } catch (const std::exception&) {
    return 0;
  }
}

// A non-negative device attribute; 0 when the driver does not give it.
std::uint32_t Attribute(const CudaDriver& driver, CUdevice device, CUdevice_attribute attribute) {
  int value = 0;
  return driver.cuDeviceGetAttribute(&value, attribute, device) == CUDA_SUCCESS && value > 0
             ? static_cast<std::uint32_t>(value)
             : 0;
}

}  // namespace

GpaStatus DescribeContextDevice(const CudaDriver& driver, CUcontext context, LiveDevice* out) {
  LiveDevice live;
  {
    ScopedCurrentContext current(driver, context);
    if (current.result() != CUDA_SUCCESS) {
      return driver.Failure(kGpaStatusErrorInvalidParameter, current.result(), "cuCtxPushCurrent",
                            fmt::format("GpaCudaContextOpenInfo::context {} is not a valid CUcontext",
                                        static_cast<const void*>(context)));
    }
    if (const CUresult result = driver.cuCtxGetDevice(&live.device); result != CUDA_SUCCESS) {
      return driver.Failure(kGpaStatusErrorInvalidParameter, result, "cuCtxGetDevice");
    }
  }
  std::array<char, 256> name{};
  if (const CUresult result = driver.cuDeviceGetName(name.data(), static_cast<int>(name.size()), live.device);
      result != CUDA_SUCCESS) {
    return driver.Failure(kGpaStatusErrorFailed, result, "cuDeviceGetName");
  }
  std::string chip;
  if (GpaStatus status = EnsureCuptiProfilerInitialized(); status != kGpaStatusOk) return status;
  if (GpaStatus status = CuptiChipName(live.device, &chip); status != kGpaStatusOk) return status;

  live.name = fmt::format("{} ({})", name.data(), chip);
  live.chip = chip;
  std::array<char, 64> bus_id{};
  if (driver.cuDeviceGetPCIBusId(bus_id.data(), static_cast<int>(bus_id.size()), live.device) == CUDA_SUCCESS) {
    std::string id(bus_id.data());
    std::transform(id.begin(), id.end(), id.begin(), [](unsigned char c) { return std::tolower(c); });
    live.device_id = ReadPciAttribute(id, "device");
    live.revision_id = ReadPciAttribute(id, "revision");
  }

  const std::array<std::pair<const char*, CUdevice_attribute>, 5> attributes{{
      {"SM_COUNT", CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT},
      {"MAX_THREADS_PER_SM", CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR},
      {"L2_CACHE_BYTES", CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE},
      {"COMPUTE_CAPABILITY_MAJOR", CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR},
      {"COMPUTE_CAPABILITY_MINOR", CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR},
  }};
  for (const auto& [constant, attribute] : attributes) {
    int value = 0;
    if (driver.cuDeviceGetAttribute(&value, attribute, live.device) == CUDA_SUCCESS) {
      live.constants.emplace_back(constant, static_cast<double>(value));
    }
  }
  live.sms = Attribute(driver, live.device, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  live.max_threads_per_sm = Attribute(driver, live.device, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
  live.registers_per_sm = Attribute(driver, live.device, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR);
  live.shared_bytes_per_sm = Attribute(driver, live.device, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR);
  *out = std::move(live);
  return kGpaStatusOk;
}

}  // namespace opengpa::cuda
