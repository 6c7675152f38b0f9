// Which driver and loader files a probe really loaded (the Vulkan loader and ICD, EGL and the GL driver, the
// OpenCL ICD loader and platform, libcuda and CUPTI), read from the process's own list of loaded objects, so
// the report names the files in use rather than the ones a search would find.
#ifndef OPENGPA_TOOLS_OPENGPA_DOCTOR_LOADED_MODULES_H_
#define OPENGPA_TOOLS_OPENGPA_DOCTOR_LOADED_MODULES_H_

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace opengpa::doctor {

// [{"name": "libvulkan.so.1", "path": "/usr/lib/x86_64-linux-gnu/libvulkan.so.1"}, ...] for every loaded object
// whose file name starts with one of `prefixes`, in load order.
nlohmann::json LoadedModules(const std::vector<std::string>& prefixes);

}  // namespace opengpa::doctor

#endif  // OPENGPA_TOOLS_OPENGPA_DOCTOR_LOADED_MODULES_H_
