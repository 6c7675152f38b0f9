// Every function the layer hands the loader or the application (hooks.h, gpa_commands.h) runs behind this
// trampoline: no exception crosses into the application (the platform's Guarded, as every face of OpenGPA). The
// only exceptions inside the layer are the standard library's (allocations): a command that returns a VkResult
// answers VK_ERROR_OUT_OF_HOST_MEMORY, a VkBool32 VK_FALSE, a function pointer NULL, and one that returns nothing
// records nothing; each says so on stderr (layer_log.h).
#ifndef OPENGPA_VULKAN_LAYER_GUARDED_HOOK_H_
#define OPENGPA_VULKAN_LAYER_GUARDED_HOOK_H_

#include <vulkan/vulkan.h>

#include <string>
#include <type_traits>

#include "layer_log.h"
#include "platform/guarded.h"

namespace opengpa::vklayer {

template <typename Result>
Result HookFailure() {
  if constexpr (std::is_same_v<Result, VkResult>) {
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  } else {
    return Result{};  // VK_FALSE, nullptr
  }
}

template <auto Function>
struct GuardedHook;

template <typename Result, typename... Args, Result(VKAPI_PTR* Function)(Args...)>
struct GuardedHook<Function> {
  static VKAPI_ATTR Result VKAPI_CALL Call(Args... args) noexcept {
    // The name of the hook, as the compiler spells this instantiation.
    const char* name = __PRETTY_FUNCTION__;
    if constexpr (std::is_void_v<Result>) {
      GuardedWith(name, 0, LogProblem, [&] {
        Function(args...);
        return 0;
      });
    } else {
      return GuardedWith(name, HookFailure<Result>(), LogProblem, [&] { return Function(args...); });
    }
  }
};

}  // namespace opengpa::vklayer

#endif  // OPENGPA_VULKAN_LAYER_GUARDED_HOOK_H_
