// VK_LAYER_OPENGPA_headless_present on a real driver (lavapipe, under the private Xvfb that run_with_xvfb.sh starts;
// skipped where Xvfb is not installed, as in CI's image): a program that draws to an XCB window gets the layer's
// surface answers, a swapchain whose images it can clear and present, acquire signals its semaphore and fence, images
// come back in turn, and the frame the layer reads back holds exactly what the program drew; an Xlib window's
// surface works too.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>
#include <xcb/xcb.h>
// After Vulkan's headers: Xlib's macros (None, Bool, Status) would otherwise reach them.
#include <X11/Xlib.h>
#include <vulkan/vulkan_xlib.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

namespace {

constexpr std::uint16_t kWidth = 96;
constexpr std::uint16_t kHeight = 64;
constexpr std::uint32_t kFrames = 7;
constexpr std::uint32_t kDumpedFrame = 4;
const char* const kLayer = "VK_LAYER_OPENGPA_headless_present";

// The color frame `frame` clears its image to, as the 8-bit values the frame dump holds.
std::uint8_t Channel(std::uint32_t frame, int channel) { return static_cast<std::uint8_t>(30 * frame + 50 * channel); }

class HeadlessPresentTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dump_ = ::testing::TempDir() + "headless_present_frame_" + std::to_string(getpid()) + ".ppm";
    std::remove(dump_.c_str());
    setenv("OPENGPA_HEADLESS_PRESENT_DUMP", dump_.c_str(), 1);
    setenv("OPENGPA_HEADLESS_PRESENT_DUMP_FRAME", std::to_string(kDumpedFrame).c_str(), 1);
    connection_ = xcb_connect(nullptr, nullptr);
    if (xcb_connection_has_error(connection_) != 0)
      GTEST_SKIP() << "no X server (DISPLAY): run through run_with_xvfb.sh";
    xcb_screen_t* screen = xcb_setup_roots_iterator(xcb_get_setup(connection_)).data;
    window_ = xcb_generate_id(connection_);
    xcb_create_window(connection_, XCB_COPY_FROM_PARENT, window_, screen->root, 0, 0, kWidth, kHeight, 0,
                      XCB_WINDOW_CLASS_INPUT_OUTPUT, screen->root_visual, 0, nullptr);
    xcb_map_window(connection_, window_);
    xcb_flush(connection_);

    const char* extensions[] = {VK_KHR_SURFACE_EXTENSION_NAME, VK_KHR_XCB_SURFACE_EXTENSION_NAME,
                                VK_KHR_XLIB_SURFACE_EXTENSION_NAME};
    VkApplicationInfo app{};
    app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
    app.apiVersion = VK_API_VERSION_1_1;
    VkInstanceCreateInfo instance_info{};
    instance_info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
    instance_info.pApplicationInfo = &app;
    instance_info.enabledLayerCount = 1;
    instance_info.ppEnabledLayerNames = &kLayer;
    instance_info.enabledExtensionCount = 3;
    instance_info.ppEnabledExtensionNames = extensions;
    ASSERT_EQ(vkCreateInstance(&instance_info, nullptr, &instance_), VK_SUCCESS)
        << "is VK_ADD_LAYER_PATH the layer's build folder?";
    std::uint32_t count = 1;
    ASSERT_NE(vkEnumeratePhysicalDevices(instance_, &count, &physical_device_), VK_ERROR_INITIALIZATION_FAILED);
    ASSERT_EQ(count, 1u) << "no Vulkan device";

    VkXcbSurfaceCreateInfoKHR surface_info{};
    surface_info.sType = VK_STRUCTURE_TYPE_XCB_SURFACE_CREATE_INFO_KHR;
    surface_info.connection = connection_;
    surface_info.window = window_;
    ASSERT_EQ(vkCreateXcbSurfaceKHR(instance_, &surface_info, nullptr, &surface_), VK_SUCCESS);

    const float priority = 1.0f;
    VkDeviceQueueCreateInfo queue_info{};
    queue_info.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
    queue_info.queueFamilyIndex = 0;
    queue_info.queueCount = 1;
    queue_info.pQueuePriorities = &priority;
    const char* swapchain_extension = VK_KHR_SWAPCHAIN_EXTENSION_NAME;
    VkDeviceCreateInfo device_info{};
    device_info.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
    device_info.queueCreateInfoCount = 1;
    device_info.pQueueCreateInfos = &queue_info;
    device_info.enabledExtensionCount = 1;
    device_info.ppEnabledExtensionNames = &swapchain_extension;
    ASSERT_EQ(vkCreateDevice(physical_device_, &device_info, nullptr, &device_), VK_SUCCESS);
    vkGetDeviceQueue(device_, 0, 0, &queue_);
  }

  void TearDown() override {
    if (device_ != VK_NULL_HANDLE) {
      vkDeviceWaitIdle(device_);
      for (VkSemaphore semaphore : semaphores_) vkDestroySemaphore(device_, semaphore, nullptr);
      if (fence_ != VK_NULL_HANDLE) vkDestroyFence(device_, fence_, nullptr);
      if (pool_ != VK_NULL_HANDLE) vkDestroyCommandPool(device_, pool_, nullptr);
      if (swapchain_ != VK_NULL_HANDLE) vkDestroySwapchainKHR(device_, swapchain_, nullptr);
      vkDestroyDevice(device_, nullptr);
    }
    if (surface_ != VK_NULL_HANDLE) vkDestroySurfaceKHR(instance_, surface_, nullptr);
    if (instance_ != VK_NULL_HANDLE) vkDestroyInstance(instance_, nullptr);
    if (connection_ != nullptr) xcb_disconnect(connection_);
    std::remove(dump_.c_str());
    unsetenv("OPENGPA_HEADLESS_PRESENT_DUMP");
    unsetenv("OPENGPA_HEADLESS_PRESENT_DUMP_FRAME");
  }

  VkSemaphore NewSemaphore() {
    VkSemaphoreCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO;
    VkSemaphore semaphore = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateSemaphore(device_, &info, nullptr, &semaphore), VK_SUCCESS);
    semaphores_.push_back(semaphore);
    return semaphore;
  }

  void CreateSwapchain(std::uint32_t min_images, VkSurfaceKHR surface) {
    VkSwapchainCreateInfoKHR info{};
    info.sType = VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR;
    info.surface = surface;
    info.minImageCount = min_images;
    info.imageFormat = VK_FORMAT_B8G8R8A8_UNORM;
    info.imageColorSpace = VK_COLOR_SPACE_SRGB_NONLINEAR_KHR;
    info.imageExtent = {kWidth, kHeight};
    info.imageArrayLayers = 1;
    info.imageUsage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    info.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
    info.preTransform = VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR;
    info.compositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
    info.presentMode = VK_PRESENT_MODE_FIFO_KHR;
    info.clipped = VK_TRUE;
    ASSERT_EQ(vkCreateSwapchainKHR(device_, &info, nullptr, &swapchain_), VK_SUCCESS);
  }

  // One command buffer that clears `image` to frame `frame`'s color and leaves it ready to present.
  VkCommandBuffer RecordClear(VkImage image, std::uint32_t frame) {
    if (pool_ == VK_NULL_HANDLE) {
      VkCommandPoolCreateInfo pool_info{};
      pool_info.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
      pool_info.queueFamilyIndex = 0;
      EXPECT_EQ(vkCreateCommandPool(device_, &pool_info, nullptr, &pool_), VK_SUCCESS);
    }
    VkCommandBufferAllocateInfo allocate{};
    allocate.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
    allocate.commandPool = pool_;
    allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    allocate.commandBufferCount = 1;
    VkCommandBuffer commands = VK_NULL_HANDLE;
    EXPECT_EQ(vkAllocateCommandBuffers(device_, &allocate, &commands), VK_SUCCESS);
    VkCommandBufferBeginInfo begin{};
    begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
    vkBeginCommandBuffer(commands, &begin);
    VkImageMemoryBarrier barrier{};
    barrier.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER;
    barrier.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    barrier.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    barrier.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    barrier.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    barrier.image = image;
    barrier.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                         nullptr, 1, &barrier);
    VkClearColorValue color{};
    for (int c = 0; c < 3; ++c) color.float32[c] = Channel(frame, c) / 255.0f;
    color.float32[3] = 1.0f;
    vkCmdClearColorImage(commands, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &color, 1, &barrier.subresourceRange);
    barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    barrier.dstAccessMask = 0;
    barrier.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    barrier.newLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
    vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, 0, 0, nullptr,
                         0, nullptr, 1, &barrier);
    vkEndCommandBuffer(commands);
    return commands;
  }

  std::string dump_;
  xcb_connection_t* connection_ = nullptr;
  xcb_window_t window_ = 0;
  VkInstance instance_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_device_ = VK_NULL_HANDLE;
  VkSurfaceKHR surface_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  VkSwapchainKHR swapchain_ = VK_NULL_HANDLE;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkFence fence_ = VK_NULL_HANDLE;
  std::vector<VkSemaphore> semaphores_;
};

TEST_F(HeadlessPresentTest, SurfaceQueriesAreTheLayersFifoB8G8R8A8OfTheWindowsSize) {
  std::uint32_t count = 0;
  ASSERT_EQ(vkGetPhysicalDeviceSurfacePresentModesKHR(physical_device_, surface_, &count, nullptr), VK_SUCCESS);
  std::vector<VkPresentModeKHR> modes(count);
  ASSERT_EQ(vkGetPhysicalDeviceSurfacePresentModesKHR(physical_device_, surface_, &count, modes.data()), VK_SUCCESS);
  // A driver's own X11 surface offers more modes (lavapipe: four); the layer offers FIFO alone.
  EXPECT_EQ(modes, std::vector<VkPresentModeKHR>{VK_PRESENT_MODE_FIFO_KHR});

  VkSurfaceCapabilitiesKHR capabilities{};
  ASSERT_EQ(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(physical_device_, surface_, &capabilities), VK_SUCCESS);
  EXPECT_EQ(capabilities.currentExtent.width, kWidth);
  EXPECT_EQ(capabilities.currentExtent.height, kHeight);
  EXPECT_GE(capabilities.maxImageCount, capabilities.minImageCount);

  ASSERT_EQ(vkGetPhysicalDeviceSurfaceFormatsKHR(physical_device_, surface_, &count, nullptr), VK_SUCCESS);
  std::vector<VkSurfaceFormatKHR> formats(count);
  ASSERT_EQ(vkGetPhysicalDeviceSurfaceFormatsKHR(physical_device_, surface_, &count, formats.data()), VK_SUCCESS);
  ASSERT_FALSE(formats.empty());
  EXPECT_EQ(formats[0].format, VK_FORMAT_B8G8R8A8_UNORM);

  VkBool32 supported = VK_FALSE;
  EXPECT_EQ(vkGetPhysicalDeviceSurfaceSupportKHR(physical_device_, 0, surface_, &supported), VK_SUCCESS);
  EXPECT_EQ(supported, VK_TRUE);
}

TEST_F(HeadlessPresentTest, DeviceExtensionsOfTheLayerAreTheSwapchainAlone) {
  std::uint32_t count = 0;
  ASSERT_EQ(vkEnumerateDeviceExtensionProperties(physical_device_, kLayer, &count, nullptr), VK_SUCCESS);
  std::vector<VkExtensionProperties> extensions(count);
  ASSERT_EQ(vkEnumerateDeviceExtensionProperties(physical_device_, kLayer, &count, extensions.data()), VK_SUCCESS);
  ASSERT_EQ(count, 1u);
  EXPECT_STREQ(extensions[0].extensionName, VK_KHR_SWAPCHAIN_EXTENSION_NAME);
}

TEST_F(HeadlessPresentTest, ImagesComeBackInTurnAndTheDumpedFrameHoldsWhatWasDrawn) {
  CreateSwapchain(3, surface_);
  std::uint32_t count = 0;
  ASSERT_EQ(vkGetSwapchainImagesKHR(device_, swapchain_, &count, nullptr), VK_SUCCESS);
  ASSERT_EQ(count, 3u);
  std::vector<VkImage> images(count);
  ASSERT_EQ(vkGetSwapchainImagesKHR(device_, swapchain_, &count, images.data()), VK_SUCCESS);

  VkFenceCreateInfo fence_info{};
  fence_info.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
  ASSERT_EQ(vkCreateFence(device_, &fence_info, nullptr, &fence_), VK_SUCCESS);
  for (std::uint32_t frame = 0; frame < kFrames; ++frame) {
    const VkSemaphore acquired = NewSemaphore();
    const VkSemaphore rendered = NewSemaphore();
    std::uint32_t index = UINT32_MAX;
    // Every other frame also asks for the fence: it must be signaled, or the wait times out (5 s).
    const VkFence fence = frame % 2 == 0 ? fence_ : VK_NULL_HANDLE;
    ASSERT_EQ(vkAcquireNextImageKHR(device_, swapchain_, UINT64_MAX, acquired, fence, &index), VK_SUCCESS);
    EXPECT_EQ(index, frame % count) << "frame " << frame;
    if (fence != VK_NULL_HANDLE) {
      ASSERT_EQ(vkWaitForFences(device_, 1, &fence_, VK_TRUE, 5'000'000'000ull), VK_SUCCESS) << "frame " << frame;
      vkResetFences(device_, 1, &fence_);
    }
    const VkCommandBuffer commands = RecordClear(images[index], frame);
    const VkPipelineStageFlags stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
    VkSubmitInfo submit{};
    submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
    submit.waitSemaphoreCount = 1;
    submit.pWaitSemaphores = &acquired;
    submit.pWaitDstStageMask = &stage;
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &commands;
    submit.signalSemaphoreCount = 1;
    submit.pSignalSemaphores = &rendered;
    ASSERT_EQ(vkQueueSubmit(queue_, 1, &submit, VK_NULL_HANDLE), VK_SUCCESS);
    VkResult present_result = VK_ERROR_UNKNOWN;
    VkPresentInfoKHR present{};
    present.sType = VK_STRUCTURE_TYPE_PRESENT_INFO_KHR;
    present.waitSemaphoreCount = 1;
    present.pWaitSemaphores = &rendered;
    present.swapchainCount = 1;
    present.pSwapchains = &swapchain_;
    present.pImageIndices = &index;
    present.pResults = &present_result;
    ASSERT_EQ(vkQueuePresentKHR(queue_, &present), VK_SUCCESS);
    EXPECT_EQ(present_result, VK_SUCCESS);
  }
  ASSERT_EQ(vkQueueWaitIdle(queue_), VK_SUCCESS);  // every semaphore was signaled, or this never returns

  std::ifstream file(dump_, std::ios::binary);
  ASSERT_TRUE(file) << "no frame dump at " << dump_;
  std::string magic;
  unsigned width = 0, height = 0, depth = 0;
  file >> magic >> width >> height >> depth;
  file.get();
  ASSERT_EQ(magic, "P6");
  ASSERT_EQ(width, kWidth);
  ASSERT_EQ(height, kHeight);
  std::vector<char> pixels(std::size_t{width} * height * 3);
  ASSERT_TRUE(file.read(pixels.data(), static_cast<std::streamsize>(pixels.size())));
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < pixels.size(); ++i) {
    wrong += static_cast<std::uint8_t>(pixels[i]) != Channel(kDumpedFrame, static_cast<int>(i % 3));
  }
  EXPECT_EQ(wrong, 0u) << "bytes of the dumped frame " << kDumpedFrame << " that are not its clear color";
}

TEST_F(HeadlessPresentTest, AnXlibWindowGetsASurfaceWhoseSwapchainDecidesItsSizeAndPresents) {
  Display* display = XOpenDisplay(nullptr);
  ASSERT_NE(display, nullptr);
  const Window window = XCreateSimpleWindow(display, DefaultRootWindow(display), 0, 0, kWidth, kHeight, 0, 0, 0);
  VkXlibSurfaceCreateInfoKHR surface_info{};
  surface_info.sType = VK_STRUCTURE_TYPE_XLIB_SURFACE_CREATE_INFO_KHR;
  surface_info.dpy = display;
  surface_info.window = window;
  VkSurfaceKHR xlib_surface = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateXlibSurfaceKHR(instance_, &surface_info, nullptr, &xlib_surface), VK_SUCCESS);
  VkSurfaceCapabilitiesKHR capabilities{};
  EXPECT_EQ(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(physical_device_, xlib_surface, &capabilities), VK_SUCCESS);
  // The layer does not ask Xlib for the window's size (a bad window would reach the program's X error handler).
  EXPECT_EQ(capabilities.currentExtent.width, UINT32_MAX);
  EXPECT_EQ(capabilities.currentExtent.height, UINT32_MAX);
  CreateSwapchain(2, xlib_surface);
  std::uint32_t index = UINT32_MAX;
  const VkSemaphore acquired = NewSemaphore();
  ASSERT_EQ(vkAcquireNextImageKHR(device_, swapchain_, UINT64_MAX, acquired, VK_NULL_HANDLE, &index), VK_SUCCESS);
  EXPECT_EQ(index, 0u);
  // Nothing rendered: present waits the acquire semaphore itself.
  VkPresentInfoKHR present{};
  present.sType = VK_STRUCTURE_TYPE_PRESENT_INFO_KHR;
  present.waitSemaphoreCount = 1;
  present.pWaitSemaphores = &acquired;
  present.swapchainCount = 1;
  present.pSwapchains = &swapchain_;
  present.pImageIndices = &index;
  EXPECT_EQ(vkQueuePresentKHR(queue_, &present), VK_SUCCESS);
  EXPECT_EQ(vkQueueWaitIdle(queue_), VK_SUCCESS);
  vkDestroySwapchainKHR(device_, swapchain_, nullptr);
  swapchain_ = VK_NULL_HANDLE;
  vkDestroySurfaceKHR(instance_, xlib_surface, nullptr);
  XDestroyWindow(display, window);
  XCloseDisplay(display);
}

}  // namespace
