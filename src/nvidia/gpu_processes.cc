#include "nvidia/gpu_processes.h"

#include <unistd.h>

#include <fstream>
#include <memory>
#include <mutex>
#include <set>

#include "nvidia/nvml_library.h"

namespace opengpa::nvidia {
namespace {

std::string ProcessName(unsigned int pid) {
  std::ifstream comm("/proc/" + std::to_string(pid) + "/comm");
  std::string name;
  std::getline(comm, name);
  return name;
}

// Appends the pids one of NVML's process queries lists (it is asked again with room when the first answer says so).
bool AddProcesses(nvml::Return (*query)(nvml::Device, unsigned int*, nvml::ProcessInfo*), nvml::Device device,
                  std::set<unsigned int>* pids) {
  if (query == nullptr) return false;
  std::vector<nvml::ProcessInfo> infos(16);
  for (int attempt = 0; attempt < 3; ++attempt) {
    auto count = static_cast<unsigned int>(infos.size());
    const nvml::Return result = query(device, &count, infos.data());
    if (result == nvml::kSuccess) {
      for (unsigned int i = 0; i < count && i < infos.size(); ++i) pids->insert(infos[i].pid);
      return true;
    }
    if (result != nvml::kErrorInsufficientSize) return false;
    infos.resize(count + 8);
  }
  return false;
}

// NVML, loaded and initialised at the first question and kept for the process's life (never shut down, so no
// order of static destructors matters): nvmlInit costs tens to hundreds of milliseconds, and a graphics context
// asks at every sampler session it begins, which is every GPA session.
const nvml::Library* ProcessNvml() {
  static std::mutex mutex;
  static const nvml::Library* library = nullptr;
  static bool tried = false;
  std::lock_guard<std::mutex> lock(mutex);
  if (!tried) {
    tried = true;
    std::unique_ptr<nvml::Library> loaded;
    if (nvml::Library::Load(nvml::DefaultLibraryCandidates(), &loaded) == kGpaStatusOk) library = loaded.release();
  }
  return library;
}

}  // namespace

std::optional<std::vector<GpuProcess>> OtherProcessesOnGpu(std::uint32_t domain, std::uint32_t bus,
                                                           std::uint32_t device_number, std::string* why) {
  const nvml::Library* library = ProcessNvml();
  if (library == nullptr) {
    *why = "NVML could not be loaded";
    return std::nullopt;
  }
  const nvml::Functions& nvml = library->Api();
  if (nvml.device_get_pci_info == nullptr) {
    *why = "this NVML has no nvmlDeviceGetPciInfo_v3";
    return std::nullopt;
  }
  unsigned int count = 0;
  if (nvml.device_get_count(&count) != nvml::kSuccess) {
    *why = "nvmlDeviceGetCount failed";
    return std::nullopt;
  }
  for (unsigned int index = 0; index < count; ++index) {
    nvml::Device device = nullptr;
    nvml::PciInfo pci{};
    if (nvml.device_get_handle_by_index(index, &device) != nvml::kSuccess ||
        nvml.device_get_pci_info(device, &pci) != nvml::kSuccess) {
      continue;
    }
    if (pci.domain != domain || pci.bus != bus || pci.device != device_number) continue;
    std::set<unsigned int> pids;
    const bool compute = AddProcesses(nvml.device_get_compute_running_processes, device, &pids);
    const bool graphics = AddProcesses(nvml.device_get_graphics_running_processes, device, &pids);
    if (!compute && !graphics) {
      *why = "NVML does not list this GPU's processes here (a container without the host's process table?)";
      return std::nullopt;
    }
    pids.erase(static_cast<unsigned int>(getpid()));
    std::vector<GpuProcess> others;
    others.reserve(pids.size());
    for (unsigned int pid : pids) others.push_back({pid, ProcessName(pid)});
    return others;
  }
  *why = "NVML has no GPU at that PCI address";
  return std::nullopt;
}

}  // namespace opengpa::nvidia
