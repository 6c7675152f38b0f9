#include "api_name.h"

#include <algorithm>
#include <cctype>

#include "name_matching.h"

namespace opengpa::cli {

std::map<std::string, client::ApiNumber> ApiNames() {
  return {{"cuda", client::kApiCuda}, {"vk", kGpaApiVulkan}, {"vulkan", kGpaApiVulkan}, {"gl", kGpaApiOpengl},
          {"opengl", kGpaApiOpengl},  {"cl", kGpaApiOpencl}, {"opencl", kGpaApiOpencl}};
}

std::function<std::string(std::string&)> ApiNameTransform() {
  return [](std::string& value) -> std::string {
    const auto names = ApiNames();
    const auto found = names.find(LowerCase(value));
    if (found == names.end()) return "unknown API '" + Quoted(value) + "' (choose cuda, vk, gl or cl)";
    value = std::to_string(found->second);
    return {};
  };
}

std::function<std::string(std::string&)> ChipNameTransform() {
  return [](std::string& value) -> std::string {
    const bool word = !value.empty() && value.size() <= 32 && std::all_of(value.begin(), value.end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
    });
    if (!word) return "'" + Quoted(value) + "' is not a chip name (letters and digits, e.g. GH100)";
    value = UpperCase(value);
    return {};
  };
}

std::string_view ApiShortName(client::ApiNumber api) {
  switch (api) {
    case client::kApiCuda: return "cuda";
    case kGpaApiVulkan: return "vk";
    case kGpaApiOpengl: return "gl";
    case kGpaApiOpencl: return "cl";
    default: return "unknown";
  }
}

}  // namespace opengpa::cli
