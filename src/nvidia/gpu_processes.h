// Which other processes NVML sees on a GPU. PerfWorks' GPU periodic sampler counts every process's work on its
// device, so a graphics session says who else was there when it begins sampling.
#ifndef OPENGPA_NVIDIA_GPU_PROCESSES_H_
#define OPENGPA_NVIDIA_GPU_PROCESSES_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace opengpa::nvidia {

struct GpuProcess {
  unsigned int pid = 0;
  std::string name;  // /proc/<pid>/comm where this process can read it
};

// The processes other than this one with a compute or graphics context on the GPU at PCI `domain:bus:device`;
// nullopt with *why when NVML cannot say (no driver library, too old a driver, no such GPU).
std::optional<std::vector<GpuProcess>> OtherProcessesOnGpu(std::uint32_t domain, std::uint32_t bus,
                                                           std::uint32_t device, std::string* why);

}  // namespace opengpa::nvidia

#endif  // OPENGPA_NVIDIA_GPU_PROCESSES_H_
