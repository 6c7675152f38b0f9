// The size of the window a surface stands for, asked of its X server: what a real X11 swapchain reports as the
// surface's current extent (programs size their swapchain images by it).
#ifndef OPENGPA_TESTS_HEADLESS_PRESENT_WINDOW_EXTENT_H_
#define OPENGPA_TESTS_HEADLESS_PRESENT_WINDOW_EXTENT_H_

#include <optional>

#include "headless_layer.h"

namespace opengpa::headless {

// The window's size for an XCB surface; nothing for an Xlib surface (reading it through Xlib would route a bad
// window to the program's X error handler, which by default ends the program) or when the server answers an error.
std::optional<VkExtent2D> WindowExtent(const Surface& surface);

}  // namespace opengpa::headless

#endif  // OPENGPA_TESTS_HEADLESS_PRESENT_WINDOW_EXTENT_H_
