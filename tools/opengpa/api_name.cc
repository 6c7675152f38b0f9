#include "api_name.h"

namespace opengpa::cli {

std::map<std::string, GpaApiType> ApiNames() {
  return {{"cuda", kGpaApiCuda}, {"vk", kGpaApiVulkan},   {"vulkan", kGpaApiVulkan}, {"gl", kGpaApiOpengl},
          {"opengl", kGpaApiOpengl}, {"cl", kGpaApiOpencl}, {"opencl", kGpaApiOpencl}};
}

std::string_view ApiShortName(GpaApiType api) {
  switch (static_cast<int>(api)) {  // int: kGpaApiCuda is outside GpaApiType's enumerators
    case static_cast<int>(kGpaApiCuda):
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
