// The API names the CLI accepts (--api cuda|vk|gl|cl) and the GPA api type each selects.
#ifndef OPENGPA_TOOLS_OPENGPA_API_NAME_H_
#define OPENGPA_TOOLS_OPENGPA_API_NAME_H_

#include <functional>
#include <map>
#include <string>
#include <string_view>

#include "client/gpa_library_search.h"  // ApiNumber
#include "gpu_performance_api/gpu_perf_api_types.h"
#include "gpu_performance_api/opengpa_ext.h"  // kGpaApiCuda

namespace opengpa::cli {

// For CLI11's transform; long spellings (vulkan, opengl, opencl) are accepted too.
std::map<std::string, client::ApiNumber> ApiNames();

// For CLI11's transform of --api: any case of ApiNames(); the value becomes the API's number. An
// unknown name is refused naming it and the choices ("unknown API 'metal' (choose cuda, vk, gl or cl)").
std::function<std::string(std::string&)> ApiNameTransform();

// For CLI11's transform of --chip: CUPTI's chip names are capitals, any case is accepted ("gh100" is GH100).
// Anything but a short word of letters and digits is no chip of any CUPTI, and is refused naming it (bounded),
// rather than passed on for a library to echo.
std::function<std::string(std::string&)> ChipNameTransform();

// "cuda", "vk", "gl", "cl"; "unknown" otherwise.
std::string_view ApiShortName(client::ApiNumber api);

}  // namespace opengpa::cli

#endif  // OPENGPA_TOOLS_OPENGPA_API_NAME_H_
