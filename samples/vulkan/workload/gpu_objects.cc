#include "gpu_objects.h"

#include <cstring>
#include <vector>

#include "spirv/count_and_work_comp.h"
#include "spirv/fullscreen_vert.h"
#include "spirv/grid_triangles_vert.h"
#include "spirv/passthrough_geom.h"
#include "spirv/solid_color_frag.h"

namespace opengpa::vkwork {
namespace {

// The push constants every graphics shader declares (samples/vulkan/shaders/*.vert, *.frag).
struct DrawConstants {
  float color[4];
  std::uint32_t columns;
  std::uint32_t first_outside;  // grid triangles from this one on lie outside the view volume
};

std::string Failed(const char* what, VkResult result) {
  return std::string(what) + " failed with VkResult " + std::to_string(static_cast<int>(result));
}

template <std::size_t N>
VkResult CreateShader(VkDevice device, const std::uint32_t (&code)[N],
                      Owned<VkShaderModule, vkDestroyShaderModule>* out) {
  VkShaderModuleCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
  info.codeSize = sizeof(code);
  info.pCode = code;
  return vkCreateShaderModule(device, &info, nullptr, out->Receive(device));
}

}  // namespace

std::unique_ptr<RenderTarget> RenderTarget::Create(VulkanDevice& device, std::uint32_t width, std::uint32_t height,
                                                   std::string* error, bool depth) {
  auto target = std::make_unique<RenderTarget>();
  target->width_ = width;
  target->height_ = height;
  VkDevice d = device.device();
  constexpr VkFormat kFormat = VK_FORMAT_R8G8B8A8_UNORM;

  VkImageCreateInfo image{};
  image.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO;
  image.imageType = VK_IMAGE_TYPE_2D;
  image.format = kFormat;
  image.extent = {width, height, 1};
  image.mipLevels = 1;
  image.arrayLayers = 1;
  image.samples = VK_SAMPLE_COUNT_1_BIT;
  image.tiling = VK_IMAGE_TILING_OPTIMAL;
  image.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
  VkResult result = vkCreateImage(d, &image, nullptr, target->image_.Receive(d));
  if (result != VK_SUCCESS) return *error = Failed("vkCreateImage", result), nullptr;

  VkMemoryRequirements requirements;
  vkGetImageMemoryRequirements(d, target->image_.get(), &requirements);
  VkMemoryAllocateInfo allocation{};
  allocation.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
  allocation.allocationSize = requirements.size;
  allocation.memoryTypeIndex = device.FindMemoryType(requirements.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  if (allocation.memoryTypeIndex == UINT32_MAX) {
    allocation.memoryTypeIndex = device.FindMemoryType(requirements.memoryTypeBits, 0);
  }
  result = vkAllocateMemory(d, &allocation, nullptr, target->memory_.Receive(d));
  if (result != VK_SUCCESS) return *error = Failed("vkAllocateMemory (render target)", result), nullptr;
  vkBindImageMemory(d, target->image_.get(), target->memory_.get(), 0);

  VkImageViewCreateInfo view{};
  view.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO;
  view.image = target->image_.get();
  view.viewType = VK_IMAGE_VIEW_TYPE_2D;
  view.format = kFormat;
  view.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  result = vkCreateImageView(d, &view, nullptr, target->view_.Receive(d));
  if (result != VK_SUCCESS) return *error = Failed("vkCreateImageView", result), nullptr;

  constexpr VkFormat kDepthFormat = VK_FORMAT_D32_SFLOAT;
  if (depth) {
    VkImageCreateInfo depth_image = image;
    depth_image.format = kDepthFormat;
    depth_image.usage = VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT;
    result = vkCreateImage(d, &depth_image, nullptr, target->depth_image_.Receive(d));
    if (result != VK_SUCCESS) return *error = Failed("vkCreateImage (depth)", result), nullptr;
    vkGetImageMemoryRequirements(d, target->depth_image_.get(), &requirements);
    allocation.allocationSize = requirements.size;
    allocation.memoryTypeIndex =
        device.FindMemoryType(requirements.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    if (allocation.memoryTypeIndex == UINT32_MAX) {
      allocation.memoryTypeIndex = device.FindMemoryType(requirements.memoryTypeBits, 0);
    }
    result = vkAllocateMemory(d, &allocation, nullptr, target->depth_memory_.Receive(d));
    if (result != VK_SUCCESS) return *error = Failed("vkAllocateMemory (depth)", result), nullptr;
    vkBindImageMemory(d, target->depth_image_.get(), target->depth_memory_.get(), 0);
    VkImageViewCreateInfo depth_view = view;
    depth_view.image = target->depth_image_.get();
    depth_view.format = kDepthFormat;
    depth_view.subresourceRange = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, 0, 1};
    result = vkCreateImageView(d, &depth_view, nullptr, target->depth_view_.Receive(d));
    if (result != VK_SUCCESS) return *error = Failed("vkCreateImageView (depth)", result), nullptr;
  }

  VkAttachmentDescription attachments_described[2]{};
  VkAttachmentDescription& attachment = attachments_described[0];
  attachment.format = kFormat;
  attachment.samples = VK_SAMPLE_COUNT_1_BIT;
  attachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  attachment.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
  attachment.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  attachment.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  attachment.finalLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  VkAttachmentDescription& depth_attachment = attachments_described[1];
  depth_attachment = attachment;
  depth_attachment.format = kDepthFormat;
  depth_attachment.storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  depth_attachment.finalLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
  VkAttachmentReference reference{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
  VkAttachmentReference depth_reference{1, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
  VkSubpassDescription subpass{};
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpass.colorAttachmentCount = 1;
  subpass.pColorAttachments = &reference;
  if (depth) subpass.pDepthStencilAttachment = &depth_reference;
  // Successive render passes on the same image (several per command buffer) must not overlap.
  VkSubpassDependency dependency{};
  dependency.srcSubpass = VK_SUBPASS_EXTERNAL;
  dependency.dstSubpass = 0;
  dependency.srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT | VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT;
  dependency.dstStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT | VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT;
  dependency.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
  dependency.dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
  VkRenderPassCreateInfo pass{};
  pass.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO;
  pass.attachmentCount = depth ? 2 : 1;
  pass.pAttachments = attachments_described;
  pass.subpassCount = 1;
  pass.pSubpasses = &subpass;
  pass.dependencyCount = 1;
  pass.pDependencies = &dependency;
  result = vkCreateRenderPass(d, &pass, nullptr, target->render_pass_.Receive(d));
  if (result != VK_SUCCESS) return *error = Failed("vkCreateRenderPass", result), nullptr;

  VkImageView attachments[] = {target->view_.get(), target->depth_view_.get()};
  VkFramebufferCreateInfo framebuffer{};
  framebuffer.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO;
  framebuffer.renderPass = target->render_pass_.get();
  framebuffer.attachmentCount = depth ? 2 : 1;
  framebuffer.pAttachments = attachments;
  framebuffer.width = width;
  framebuffer.height = height;
  framebuffer.layers = 1;
  result = vkCreateFramebuffer(d, &framebuffer, nullptr, target->framebuffer_.Receive(d));
  if (result != VK_SUCCESS) return *error = Failed("vkCreateFramebuffer", result), nullptr;
  return target;
}

void RenderTarget::Begin(VkCommandBuffer command_buffer, VkSubpassContents contents) const {
  VkClearValue clear[2]{};
  clear[0].color = {{0.05f, 0.05f, 0.08f, 1.0f}};
  clear[1].depthStencil = {1.0f, 0};
  VkRenderPassBeginInfo begin{};
  begin.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO;
  begin.renderPass = render_pass_.get();
  begin.framebuffer = framebuffer_.get();
  begin.renderArea = {{0, 0}, {width_, height_}};
  begin.clearValueCount = has_depth() ? 2 : 1;
  begin.pClearValues = clear;
  vkCmdBeginRenderPass(command_buffer, &begin, contents);
  if (contents == VK_SUBPASS_CONTENTS_INLINE) SetViewport(command_buffer);
}

void RenderTarget::SetViewport(VkCommandBuffer command_buffer) const {
  VkViewport viewport{0, 0, static_cast<float>(width_), static_cast<float>(height_), 0, 1};
  VkRect2D scissor{{0, 0}, {width_, height_}};
  vkCmdSetViewport(command_buffer, 0, 1, &viewport);
  vkCmdSetScissor(command_buffer, 0, 1, &scissor);
}

VkCommandBufferInheritanceInfo RenderTarget::Inheritance() const {
  VkCommandBufferInheritanceInfo inheritance{};
  inheritance.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO;
  inheritance.renderPass = render_pass_.get();
  inheritance.subpass = 0;
  inheritance.framebuffer = framebuffer_.get();
  return inheritance;
}

std::unique_ptr<GraphicsPipeline> GraphicsPipeline::Create(VulkanDevice& device, const RenderTarget& target,
                                                           Geometry geometry, std::string* error) {
  VkDevice d = device.device();
  auto pipeline = std::make_unique<GraphicsPipeline>();
  pipeline->geometry_ = geometry;
  pipeline->width_ = target.width();
  pipeline->height_ = target.height();
  Owned<VkShaderModule, vkDestroyShaderModule> vertex, fragment, geometry_shader;
  VkResult result = geometry == Geometry::kFullScreenTriangle ? CreateShader(d, kFullscreenVert, &vertex)
                                                              : CreateShader(d, kGridTrianglesVert, &vertex);
  if (result == VK_SUCCESS) result = CreateShader(d, kSolidColorFrag, &fragment);
  if (result == VK_SUCCESS && geometry == Geometry::kGridTrianglesWithGs) {
    result = CreateShader(d, kPassthroughGeom, &geometry_shader);
  }
  if (result != VK_SUCCESS) return *error = Failed("vkCreateShaderModule", result), nullptr;

  std::vector<VkPipelineShaderStageCreateInfo> stages;
  auto add_stage = [&](VkShaderStageFlagBits stage, VkShaderModule module) {
    VkPipelineShaderStageCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    info.stage = stage;
    info.module = module;
    info.pName = "main";
    stages.push_back(info);
  };
  add_stage(VK_SHADER_STAGE_VERTEX_BIT, vertex.get());
  if (geometry_shader.get() != VK_NULL_HANDLE) add_stage(VK_SHADER_STAGE_GEOMETRY_BIT, geometry_shader.get());
  add_stage(VK_SHADER_STAGE_FRAGMENT_BIT, fragment.get());

  VkPushConstantRange push{VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof(DrawConstants)};
  VkPipelineLayoutCreateInfo layout{};
  layout.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
  layout.pushConstantRangeCount = 1;
  layout.pPushConstantRanges = &push;
  result = vkCreatePipelineLayout(d, &layout, nullptr, pipeline->layout_.Receive(d));
  if (result != VK_SUCCESS) return *error = Failed("vkCreatePipelineLayout", result), nullptr;

  VkPipelineVertexInputStateCreateInfo vertex_input{};
  vertex_input.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO;
  VkPipelineInputAssemblyStateCreateInfo assembly{};
  assembly.sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO;
  assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  VkPipelineViewportStateCreateInfo viewport{};
  viewport.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO;
  viewport.viewportCount = 1;
  viewport.scissorCount = 1;
  VkPipelineRasterizationStateCreateInfo raster{};
  raster.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO;
  raster.polygonMode = VK_POLYGON_MODE_FILL;
  raster.cullMode = VK_CULL_MODE_NONE;
  raster.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
  raster.lineWidth = 1.0f;
  VkPipelineMultisampleStateCreateInfo multisample{};
  multisample.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO;
  multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
  VkPipelineDepthStencilStateCreateInfo depth{};
  depth.sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO;
  depth.depthTestEnable = target.has_depth() ? VK_TRUE : VK_FALSE;
  depth.depthWriteEnable = target.has_depth() ? VK_TRUE : VK_FALSE;
  depth.depthCompareOp = VK_COMPARE_OP_LESS;
  VkPipelineColorBlendAttachmentState blend_attachment{};
  blend_attachment.colorWriteMask =
      VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT | VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT;
  VkPipelineColorBlendStateCreateInfo blend{};
  blend.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO;
  blend.attachmentCount = 1;
  blend.pAttachments = &blend_attachment;
  VkDynamicState dynamic_states[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
  VkPipelineDynamicStateCreateInfo dynamic{};
  dynamic.sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO;
  dynamic.dynamicStateCount = 2;
  dynamic.pDynamicStates = dynamic_states;

  VkGraphicsPipelineCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO;
  info.stageCount = static_cast<std::uint32_t>(stages.size());
  info.pStages = stages.data();
  info.pVertexInputState = &vertex_input;
  info.pInputAssemblyState = &assembly;
  info.pViewportState = &viewport;
  info.pRasterizationState = &raster;
  info.pMultisampleState = &multisample;
  info.pDepthStencilState = &depth;
  info.pColorBlendState = &blend;
  info.pDynamicState = &dynamic;
  info.layout = pipeline->layout_.get();
  info.renderPass = target.render_pass();
  result = vkCreateGraphicsPipelines(d, VK_NULL_HANDLE, 1, &info, nullptr, pipeline->pipeline_.Receive(d));
  if (result != VK_SUCCESS) return *error = Failed("vkCreateGraphicsPipelines", result), nullptr;
  return pipeline;
}

void GraphicsPipeline::Draw(VkCommandBuffer command_buffer, std::uint32_t vertex_count, std::uint32_t instance_count,
                            const float (&color)[4], std::uint32_t first_outside, const VkRect2D* scissor) const {
  DrawConstants constants{{color[0], color[1], color[2], color[3]}, kGridColumns, first_outside};
  vkCmdBindPipeline(command_buffer, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline_.get());
  VkViewport viewport{0, 0, static_cast<float>(width_), static_cast<float>(height_), 0, 1};
  if (geometry_ == Geometry::kFullScreenTriangle) {
    viewport.width *= 2;  // see shaders/fullscreen.vert
    viewport.height *= 2;
  }
  const VkRect2D whole{{0, 0}, {width_, height_}};
  vkCmdSetViewport(command_buffer, 0, 1, &viewport);
  vkCmdSetScissor(command_buffer, 0, 1, scissor != nullptr ? scissor : &whole);
  vkCmdPushConstants(command_buffer, layout_.get(), VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0,
                     sizeof(constants), &constants);
  vkCmdDraw(command_buffer, vertex_count, instance_count, 0, 0);
}

std::unique_ptr<CountingCompute> CountingCompute::Create(VulkanDevice& device, std::uint32_t local_size,
                                                         std::string* error) {
  VkDevice d = device.device();
  auto compute = std::make_unique<CountingCompute>();
  const VkDeviceSize size = sizeof(std::uint32_t) * (1 + kValues);
  VkBufferCreateInfo buffer{};
  buffer.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
  buffer.size = size;
  buffer.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  VkResult result = vkCreateBuffer(d, &buffer, nullptr, compute->buffer_.Receive(d));
  if (result != VK_SUCCESS) return *error = Failed("vkCreateBuffer", result), nullptr;
  VkMemoryRequirements requirements;
  vkGetBufferMemoryRequirements(d, compute->buffer_.get(), &requirements);
  VkMemoryAllocateInfo allocation{};
  allocation.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
  allocation.allocationSize = requirements.size;
  allocation.memoryTypeIndex = device.FindMemoryType(
      requirements.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
  if (allocation.memoryTypeIndex == UINT32_MAX) return *error = "no host-visible coherent memory", nullptr;
  result = vkAllocateMemory(d, &allocation, nullptr, compute->memory_.Receive(d));
  if (result != VK_SUCCESS) return *error = Failed("vkAllocateMemory (compute buffer)", result), nullptr;
  vkBindBufferMemory(d, compute->buffer_.get(), compute->memory_.get(), 0);
  void* mapped = nullptr;
  result = vkMapMemory(d, compute->memory_.get(), 0, VK_WHOLE_SIZE, 0, &mapped);
  if (result != VK_SUCCESS) return *error = Failed("vkMapMemory", result), nullptr;
  compute->mapped_ = static_cast<std::uint32_t*>(mapped);  // unmapped when the memory is freed
  std::memset(mapped, 0, size);

  VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
  VkDescriptorSetLayoutCreateInfo set_layout{};
  set_layout.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
  set_layout.bindingCount = 1;
  set_layout.pBindings = &binding;
  result = vkCreateDescriptorSetLayout(d, &set_layout, nullptr, compute->set_layout_.Receive(d));
  if (result != VK_SUCCESS) return *error = Failed("vkCreateDescriptorSetLayout", result), nullptr;
  VkDescriptorPoolSize pool_size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1};
  VkDescriptorPoolCreateInfo pool{};
  pool.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
  pool.maxSets = 1;
  pool.poolSizeCount = 1;
  pool.pPoolSizes = &pool_size;
  result = vkCreateDescriptorPool(d, &pool, nullptr, compute->descriptor_pool_.Receive(d));
  if (result != VK_SUCCESS) return *error = Failed("vkCreateDescriptorPool", result), nullptr;
  VkDescriptorSetLayout layouts[] = {compute->set_layout_.get()};
  VkDescriptorSetAllocateInfo set{};
  set.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
  set.descriptorPool = compute->descriptor_pool_.get();
  set.descriptorSetCount = 1;
  set.pSetLayouts = layouts;
  result = vkAllocateDescriptorSets(d, &set, &compute->set_);
  if (result != VK_SUCCESS) return *error = Failed("vkAllocateDescriptorSets", result), nullptr;
  VkDescriptorBufferInfo buffer_info{compute->buffer_.get(), 0, VK_WHOLE_SIZE};
  VkWriteDescriptorSet write{};
  write.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
  write.dstSet = compute->set_;
  write.descriptorCount = 1;
  write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  write.pBufferInfo = &buffer_info;
  vkUpdateDescriptorSets(d, 1, &write, 0, nullptr);

  VkPushConstantRange push{VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(std::uint32_t)};
  VkPipelineLayoutCreateInfo layout{};
  layout.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
  layout.setLayoutCount = 1;
  layout.pSetLayouts = layouts;
  layout.pushConstantRangeCount = 1;
  layout.pPushConstantRanges = &push;
  result = vkCreatePipelineLayout(d, &layout, nullptr, compute->layout_.Receive(d));
  if (result != VK_SUCCESS) return *error = Failed("vkCreatePipelineLayout (compute)", result), nullptr;

  Owned<VkShaderModule, vkDestroyShaderModule> shader;
  result = CreateShader(d, kCountAndWorkComp, &shader);
  if (result != VK_SUCCESS) return *error = Failed("vkCreateShaderModule (compute)", result), nullptr;
  VkSpecializationMapEntry entry{0, 0, sizeof(std::uint32_t)};
  VkSpecializationInfo specialization{1, &entry, sizeof(local_size), &local_size};
  VkComputePipelineCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
  info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.module = shader.get();
  info.stage.pName = "main";
  info.stage.pSpecializationInfo = &specialization;
  info.layout = compute->layout_.get();
  result = vkCreateComputePipelines(d, VK_NULL_HANDLE, 1, &info, nullptr, compute->pipeline_.Receive(d));
  if (result != VK_SUCCESS) return *error = Failed("vkCreateComputePipelines", result), nullptr;
  return compute;
}

void CountingCompute::Dispatch(VkCommandBuffer command_buffer, std::uint32_t x, std::uint32_t y, std::uint32_t z,
                               std::uint32_t iterations) const {
  vkCmdBindPipeline(command_buffer, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_.get());
  vkCmdBindDescriptorSets(command_buffer, VK_PIPELINE_BIND_POINT_COMPUTE, layout_.get(), 0, 1, &set_, 0, nullptr);
  vkCmdPushConstants(command_buffer, layout_.get(), VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(iterations), &iterations);
  vkCmdDispatch(command_buffer, x, y, z);
}

void CountingCompute::RecordHostReadBarrier(VkCommandBuffer command_buffer) const {
  VkMemoryBarrier barrier{};
  barrier.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
  barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  vkCmdPipelineBarrier(command_buffer, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier,
                       0, nullptr, 0, nullptr);
}

void CountingCompute::ResetInvocations() { mapped_[0] = 0; }

std::uint32_t CountingCompute::Invocations() const { return mapped_[0]; }

}  // namespace opengpa::vkwork
