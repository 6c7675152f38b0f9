// How the layer reports misuse: one line on stderr per problem, prefixed so it can be told from the
// driver's and the application's output. The Vulkan call itself answers with its documented VkResult (or,
// for commands that return nothing, records nothing), so a wrong call never crashes the application.
#ifndef OPENGPA_VULKAN_LAYER_LAYER_LOG_H_
#define OPENGPA_VULKAN_LAYER_LAYER_LOG_H_

#include <cstdio>
#include <string>

namespace opengpa::vklayer {

inline void LogProblem(const std::string& message) {
  std::fprintf(stderr, "VK_LAYER_OPENGPA_gpa_interface: %s\n", message.c_str());
  std::fflush(stderr);
}

}  // namespace opengpa::vklayer

#endif  // OPENGPA_VULKAN_LAYER_LAYER_LOG_H_
