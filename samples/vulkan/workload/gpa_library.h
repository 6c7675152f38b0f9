// Loads a libGPUPerfAPI<X>.so the way GPA applications do (dlopen + GpaGetFuncTable) and keeps it loaded.
#ifndef OPENGPA_SAMPLES_VULKAN_WORKLOAD_GPA_LIBRARY_H_
#define OPENGPA_SAMPLES_VULKAN_WORKLOAD_GPA_LIBRARY_H_

#include <memory>
#include <string>
#include <vector>

#include "gpu_performance_api/gpu_perf_api.h"
#include "platform/dynamic_library.h"

namespace opengpa::vkwork {

class GpaLibrary {
 public:
  // Tries each path in order; nullptr and *error listing every attempt when none loads.
  static std::unique_ptr<GpaLibrary> Load(const std::vector<std::string>& paths, std::string* error);
  // Where a GPA library named `file_name` is looked for beside a program: its own folder, ../lib and
  // ../../lib (the build tree's layout), then the plain name for the dynamic linker's search path.
  static std::vector<std::string> DefaultPaths(const std::string& file_name);

  GpaLibrary() = default;  // use Load()
  GpaLibrary(const GpaLibrary&) = delete;
  GpaLibrary& operator=(const GpaLibrary&) = delete;

  const GpaFunctionTable& api() const { return table_; }
  const std::string& path() const { return path_; }

 private:
  std::unique_ptr<DynamicLibrary> library_;
  std::string path_;
  GpaFunctionTable table_{};
};

}  // namespace opengpa::vkwork

#endif  // OPENGPA_SAMPLES_VULKAN_WORKLOAD_GPA_LIBRARY_H_
