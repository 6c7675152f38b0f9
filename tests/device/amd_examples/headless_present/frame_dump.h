// Reads one presented frame back and writes it as a binary PPM file, so that a test can see what the program
// rendered into the off-screen images (the frame a real window would have shown).
//
//   OPENGPA_HEADLESS_PRESENT_DUMP=FILE        write the frame to FILE (nothing is read back without it)
//   OPENGPA_HEADLESS_PRESENT_DUMP_FRAME=N     which presented frame, counted from 0 per swapchain (default 0)
//
// The read-back waits for the presenting queue to go idle and copies the image with the layer's own command
// buffer; B8G8R8A8 and R8G8B8A8 images only (others are logged and skipped). Done once per process.
#ifndef OPENGPA_TESTS_HEADLESS_PRESENT_FRAME_DUMP_H_
#define OPENGPA_TESTS_HEADLESS_PRESENT_FRAME_DUMP_H_

#include "headless_layer.h"

namespace opengpa::headless {

void DumpFrameIfAsked(DeviceState& device, VkQueue queue, const Swapchain& swapchain, std::uint32_t image_index,
                      std::uint64_t frame);

}  // namespace opengpa::headless

#endif  // OPENGPA_TESTS_HEADLESS_PRESENT_FRAME_DUMP_H_
