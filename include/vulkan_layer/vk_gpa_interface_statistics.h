// How OpenGPA's layer VK_LAYER_OPENGPA_gpa_interface publishes the Vulkan pipeline statistics as
// VK_AMD_gpa_interface counters (block, instance 0, event), for the layer and for the clients that read them
// (libGPUPerfAPIVK). Each block is named after the AMD hardware block that counts the same thing: IA assembles
// vertices and primitives, VGT runs the geometry front end's shaders, PA clips, SPI launches pixel and compute
// work. docs/vulkan-layer.md has the table.
#ifndef OPENGPA_VULKAN_LAYER_VK_GPA_INTERFACE_STATISTICS_H_
#define OPENGPA_VULKAN_LAYER_VK_GPA_INTERFACE_STATISTICS_H_

#include "vk_amd_gpa_interface.h"

// vkGetDeviceProcAddr answers this name (with a function of no use beyond its presence) exactly on a device
// where VK_LAYER_OPENGPA_gpa_interface implements VK_AMD_gpa_interface itself, so its counters follow the
// table below. Where the driver under the layer offers the extension (AMD's), the layer passes it through and
// the name resolves to nothing: the counters are then the driver's hardware counters.
#define OPENGPA_LAYER_GPA_INTERFACE_PROBE "vkOpenGpaLayerImplementsGpaInterface"

typedef struct OpenGpaPipelineStatisticCounter {
  VkGpaPerfBlockAMD block;
  uint32_t event_id;
  VkQueryPipelineStatisticFlagBits statistic;
  VkBool32 graphics;  // counts graphics work: only in command buffers of a queue family with graphics
  const char* name;
} OpenGpaPipelineStatisticCounter;

// Ordered by block, then event id.
static const OpenGpaPipelineStatisticCounter kOpenGpaPipelineStatisticCounters[] = {
    {VK_GPA_PERF_BLOCK_IA_AMD, 0, VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_VERTICES_BIT, VK_TRUE,
     "input-assembly vertices"},
    {VK_GPA_PERF_BLOCK_IA_AMD, 1, VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_PRIMITIVES_BIT, VK_TRUE,
     "input-assembly primitives"},
    {VK_GPA_PERF_BLOCK_VGT_AMD, 0, VK_QUERY_PIPELINE_STATISTIC_VERTEX_SHADER_INVOCATIONS_BIT, VK_TRUE,
     "vertex-shader invocations"},
    {VK_GPA_PERF_BLOCK_VGT_AMD, 1, VK_QUERY_PIPELINE_STATISTIC_GEOMETRY_SHADER_INVOCATIONS_BIT, VK_TRUE,
     "geometry-shader invocations"},
    {VK_GPA_PERF_BLOCK_VGT_AMD, 2, VK_QUERY_PIPELINE_STATISTIC_GEOMETRY_SHADER_PRIMITIVES_BIT, VK_TRUE,
     "geometry-shader primitives"},
    {VK_GPA_PERF_BLOCK_VGT_AMD, 3, VK_QUERY_PIPELINE_STATISTIC_TESSELLATION_CONTROL_SHADER_PATCHES_BIT, VK_TRUE,
     "tessellation-control patches"},
    {VK_GPA_PERF_BLOCK_VGT_AMD, 4, VK_QUERY_PIPELINE_STATISTIC_TESSELLATION_EVALUATION_SHADER_INVOCATIONS_BIT, VK_TRUE,
     "tessellation-evaluation invocations"},
    {VK_GPA_PERF_BLOCK_PA_AMD, 0, VK_QUERY_PIPELINE_STATISTIC_CLIPPING_INVOCATIONS_BIT, VK_TRUE,
     "clipping invocations"},
    {VK_GPA_PERF_BLOCK_PA_AMD, 1, VK_QUERY_PIPELINE_STATISTIC_CLIPPING_PRIMITIVES_BIT, VK_TRUE, "clipping primitives"},
    {VK_GPA_PERF_BLOCK_SPI_AMD, 0, VK_QUERY_PIPELINE_STATISTIC_FRAGMENT_SHADER_INVOCATIONS_BIT, VK_TRUE,
     "fragment-shader invocations"},
    {VK_GPA_PERF_BLOCK_SPI_AMD, 1, VK_QUERY_PIPELINE_STATISTIC_COMPUTE_SHADER_INVOCATIONS_BIT, VK_FALSE,
     "compute-shader invocations"},
};

#endif  // OPENGPA_VULKAN_LAYER_VK_GPA_INTERFACE_STATISTICS_H_
