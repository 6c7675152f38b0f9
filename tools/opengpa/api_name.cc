#include "api_name.h"

namespace opengpa::cli {

std::map<std::string, GpaApiType> ApiNames() {
  return {{"cuda", kGpaApiCuda}, {"vk", kGpaApiVulkan},   {"vulkan", kGpaApiVulkan}, {"gl", kGpaApiOpengl},
          {"opengl", kGpaApiOpengl}, {"cl", kGpaApiOpencl}, {"opencl", kGpaApiOpencl}};
}

std::string_view ApiShortName(GpaApiType api) {
  switch (api) {
    case kGpaApiCuda:
      return "cuda";
    case kGpaApiVulkan:
      return "vk";
    case kGpaApiOpengl:
      return "gl";
    case kGpaApiOpencl:
      return "cl";
    default:
      return "unknown";
  }
}

}  // namespace opengpa::cli
