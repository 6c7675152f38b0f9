#include "backends/cuda/cuda_device.h"

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
GpaUInt32 ReadPciAttribute(const std::string& bus_id, const char* attribute) {
  std::ifstream file("/sys/bus/pci/devices/" + bus_id + "/" + attribute);
  std::string text;
  if (!(file >> text)) return 0;
  try {
    return static_cast<GpaUInt32>(std::stoul(text, nullptr, 16));
  } catch (const std::exception&) {
    return 0;
  }
}

// A non-negative device attribute; 0 when the driver does not give it.
GpaUInt32 Attribute(const CudaDriver& driver, CUdevice device, CUdevice_attribute attribute) {
  int value = 0;
  return driver.cuDeviceGetAttribute(&value, attribute, device) == CUDA_SUCCESS && value > 0
             ? static_cast<GpaUInt32>(value)
             : 0;
}

// Every SM since Volta has four sub-partitions, each scheduling its own warps from its own register file.
constexpr GpaUInt32 kSubPartitionsPerSm = 4;
constexpr GpaUInt32 kThreadsPerWarp = 32;

DeviceShape ShapeOf(const CudaDriver& driver, CUdevice device) {
  DeviceShape shape;
  const GpaUInt32 sms = Attribute(driver, device, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  const GpaUInt32 threads = Attribute(driver, device, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
  const GpaUInt32 registers = Attribute(driver, device, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR);
  shape.compute_units = sms;
  shape.simds = sms * kSubPartitionsPerSm;
  shape.waves_per_simd = threads / kThreadsPerWarp / kSubPartitionsPerSm;
  shape.vgprs_per_simd = registers / kSubPartitionsPerSm;
  shape.lds_bytes_per_compute_unit =
      Attribute(driver, device, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR);
  return shape;
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

  live.info.name = fmt::format("{} ({})", name.data(), chip);
  live.info.chip = chip;
  live.info.vendor_id = kNvidiaVendorId;
  live.info.generation = kGpaHwGenerationNvidia;
  std::array<char, 64> bus_id{};
  if (driver.cuDeviceGetPCIBusId(bus_id.data(), static_cast<int>(bus_id.size()), live.device) == CUDA_SUCCESS) {
    std::string id(bus_id.data());
    std::transform(id.begin(), id.end(), id.begin(), [](unsigned char c) { return std::tolower(c); });
    live.info.device_id = ReadPciAttribute(id, "device");
    live.info.revision_id = ReadPciAttribute(id, "revision");
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
  live.info.shape = ShapeOf(driver, live.device);
  *out = std::move(live);
  return kGpaStatusOk;
}

DeviceInfo OfflineDevice(const std::string& chip) {
  DeviceInfo info;
  info.name = fmt::format("NVIDIA {} (offline)", chip);
  info.chip = chip;
  info.vendor_id = kNvidiaVendorId;
  info.generation = kGpaHwGenerationNvidia;
  return info;
}

}  // namespace opengpa::cuda
