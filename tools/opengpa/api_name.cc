#include "api_name.h"

#include "name_matching.h"

namespace opengpa::cli {

std::map<std::string, GpaApiType> ApiNames() {
  return {{"cuda", kGpaApiCuda},     {"vk", kGpaApiVulkan}, {"vulkan", kGpaApiVulkan}, {"gl", kGpaApiOpengl},
          {"opengl", kGpaApiOpengl}, {"cl", kGpaApiOpencl}, {"opencl", kGpaApiOpencl}};
}

std::function<std::string(std::string&)> ApiNameTransform() {
  return [](std::string& value) -> std::string {
    const auto names = ApiNames();
    const auto found = names.find(LowerCase(value));
    if (found == names.end()) return "unknown API '" + value + "' (choose cuda, vk, gl or cl)";
    value = std::to_string(static_cast<int>(found->second));
    return {};
  };
}

std::string_view ApiShortName(GpaApiType api) {
  switch (static_cast<int>(api)) {  // int: kGpaApiCuda is outside GpaApiType's enumerators
    case static_cast<int>(kGpaApiCuda): return "cuda";
    case kGpaApiVulkan: return "vk";
    case kGpaApiOpengl: return "gl";
    case kGpaApiOpencl: return "cl";
    default: return "unknown";
  }
}

}  // namespace opengpa::cli
