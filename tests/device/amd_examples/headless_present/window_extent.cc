#include "window_extent.h"

#include <xcb/xcb.h>

#include <cstdlib>
#include <string>

namespace opengpa::headless {

std::optional<VkExtent2D> WindowExtent(const Surface& surface) {
  if (surface.kind != Surface::Kind::kXcb || surface.connection == nullptr) return std::nullopt;
  auto* connection = static_cast<xcb_connection_t*>(surface.connection);
  xcb_generic_error_t* error = nullptr;
  xcb_get_geometry_reply_t* reply =
      xcb_get_geometry_reply(connection, xcb_get_geometry(connection, surface.window), &error);
  if (reply == nullptr) {
    Log("xcb_get_geometry of window " + std::to_string(surface.window) + " failed (X error " +
        std::to_string(error != nullptr ? error->error_code : 0) + "): the swapchain's extent decides");
    std::free(error);
    return std::nullopt;
  }
  const VkExtent2D extent{reply->width, reply->height};
  std::free(reply);
  return extent;
}

}  // namespace opengpa::headless
