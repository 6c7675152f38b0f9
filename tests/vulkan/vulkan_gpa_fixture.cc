#include "vulkan_gpa_fixture.h"

#include <cstring>
#include <mutex>

#include "client/gpa_library_search.h"

namespace opengpa::vktest {
namespace {

std::mutex errors_mutex;
std::vector<std::string>& ErrorLog() {
  static std::vector<std::string> log;
  return log;
}

void RecordError(GpaLoggingType, const char* message) {
  std::lock_guard<std::mutex> lock(errors_mutex);
  ErrorLog().emplace_back(message);
}

}  // namespace

std::unique_ptr<VulkanGpaTest::Shared> VulkanGpaTest::shared_;

void VulkanGpaTest::SetUpTestSuite() {
  if (shared_ != nullptr) return;
  shared_ = std::make_unique<Shared>();
  Shared& shared = *shared_;
  std::string error;
  shared.device = VulkanDevice::Create(vkwork::DevicePreference::kSoftware, &error);
  if (!shared.device) {
    shared.problem = "no Vulkan device: " + error;
    return;
  }
  std::vector<std::string> paths = {OPENGPA_VK_LIBRARY};  // the build tree's, then beside the test
  for (const std::string& path : client::GpaLibraryPaths("libGPUPerfAPIVK.so", "", client::FoldersBesideExecutable())) {
    paths.push_back(path);
  }
  shared.library = client::LoadedGpaLibrary::Load(paths, &error);
  if (!shared.library) error = "could not load a GPA library:" + error;
  if (!shared.library) {
    shared.problem = error;
    return;
  }
  shared.target = RenderTarget::Create(*shared.device, 128, 96, &error);
  if (shared.target)
    shared.grid = GraphicsPipeline::Create(*shared.device, *shared.target, Geometry::kGridTriangles, &error);
  if (shared.grid) {
    shared.fullscreen = GraphicsPipeline::Create(*shared.device, *shared.target, Geometry::kFullScreenTriangle, &error);
  }
  if (!shared.fullscreen) shared.problem = "GPU objects: " + error;
}

void VulkanGpaTest::TearDownTestSuite() {
  if (shared_ == nullptr) return;
  // GPU objects before their device, the device before the GPA library is unloaded.
  shared_->fullscreen.reset();
  shared_->grid.reset();
  shared_->target.reset();
  shared_->device.reset();
  shared_->library.reset();
  shared_.reset();
}

void VulkanGpaTest::SetUp() {
  if (!shared_->problem.empty()) FAIL() << shared_->problem;
  {
    std::lock_guard<std::mutex> lock(errors_mutex);
    ErrorLog().clear();
  }
  ASSERT_EQ(gpa().GpaRegisterLoggingCallback(kGpaLoggingError, RecordError), kGpaStatusOk);
  ASSERT_EQ(gpa().GpaInitialize(kGpaInitializeDefaultBit), kGpaStatusOk);
  GpaVkContextOpenInfo open_info = device().OpenInfo();
  ASSERT_EQ(gpa().GpaOpenContext(&open_info, kGpaOpenContextDefaultBit, &context_), kGpaStatusOk)
      << (errors().empty() ? "" : errors().back());
}

void VulkanGpaTest::TearDown() {
  if (shared_ == nullptr || !shared_->library) return;
  for (GpaSessionId session : sessions_) gpa().GpaDeleteSession(session);
  if (context_ != nullptr) {
    EXPECT_EQ(gpa().GpaCloseContext(context_), kGpaStatusOk);
  }
  gpa().GpaDestroy();
}

const std::vector<std::string>& VulkanGpaTest::errors() { return ErrorLog(); }

bool VulkanGpaTest::ErrorMentions(const std::string& text) {
  std::lock_guard<std::mutex> lock(errors_mutex);
  for (const std::string& message : ErrorLog()) {
    if (message.find(text) != std::string::npos) return true;
  }
  return false;
}

GpaSessionId VulkanGpaTest::BeginSessionWith(const std::vector<std::string>& counters) {
  GpaSessionId session = nullptr;
  EXPECT_EQ(gpa().GpaCreateSession(context_, kGpaSessionSampleTypeDiscreteCounter, &session), kGpaStatusOk);
  sessions_.push_back(session);
  if (counters.empty()) {
    EXPECT_EQ(gpa().GpaEnableAllCounters(session), kGpaStatusOk);
  }
  for (const std::string& name : counters) {
    EXPECT_EQ(gpa().GpaEnableCounterByName(session, name.c_str()), kGpaStatusOk) << name;
  }
  EXPECT_EQ(gpa().GpaBeginSession(session), kGpaStatusOk);
  return session;
}

VkCommandBuffer VulkanGpaTest::BeginPrimary() {
  VkCommandBuffer command_buffer = device().AllocateCommandBuffer(VK_COMMAND_BUFFER_LEVEL_PRIMARY);
  VkCommandBufferBeginInfo begin{};
  begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  EXPECT_EQ(vkBeginCommandBuffer(command_buffer, &begin), VK_SUCCESS);
  return command_buffer;
}

VkCommandBuffer VulkanGpaTest::BeginSecondaryInRenderPass() {
  VkCommandBuffer command_buffer = device().AllocateCommandBuffer(VK_COMMAND_BUFFER_LEVEL_SECONDARY);
  VkCommandBufferInheritanceInfo inheritance = target().Inheritance();
  VkCommandBufferBeginInfo begin{};
  begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT | VK_COMMAND_BUFFER_USAGE_RENDER_PASS_CONTINUE_BIT;
  begin.pInheritanceInfo = &inheritance;
  EXPECT_EQ(vkBeginCommandBuffer(command_buffer, &begin), VK_SUCCESS);
  return command_buffer;
}

GpaCommandListId VulkanGpaTest::BeginList(GpaSessionId session, VkCommandBuffer command_buffer, GpaCommandListType type,
                                          GpaUInt32 pass) {
  GpaCommandListId list = nullptr;
  EXPECT_EQ(gpa().GpaBeginCommandList(session, pass, command_buffer, type, &list), kGpaStatusOk);
  return list;
}

void VulkanGpaTest::SampleGridDraw(GpaCommandListId list, GpaUInt32 sample_id, VkCommandBuffer command_buffer,
                                   std::uint32_t triangles) {
  target().Begin(command_buffer, VK_SUBPASS_CONTENTS_INLINE);
  EXPECT_EQ(gpa().GpaBeginSample(sample_id, list), kGpaStatusOk);
  grid().Draw(command_buffer, 3 * triangles, 1, kColor);
  EXPECT_EQ(gpa().GpaEndSample(list), kGpaStatusOk);
  target().End(command_buffer);
}

SampleValues VulkanGpaTest::Read(GpaSessionId session, GpaUInt32 sample_id) {
  SampleValues values;
  std::size_t size = 0;
  EXPECT_EQ(gpa().GpaGetSampleResultSize(session, sample_id, &size), kGpaStatusOk);
  std::vector<GpaUInt64> raw(size / sizeof(GpaUInt64));
  const GpaStatus status = gpa().GpaGetSampleResult(session, sample_id, size, raw.data());
  EXPECT_EQ(status, kGpaStatusOk) << "sample " << sample_id << (errors().empty() ? "" : ": " + errors().back());
  if (status != kGpaStatusOk) return values;
  for (GpaUInt32 i = 0; i < raw.size(); ++i) {
    GpaUInt32 index = 0;
    const char* name = nullptr;
    GpaDataType type = kGpaDataTypeUint64;
    gpa().GpaGetEnabledIndex(session, i, &index);
    gpa().GpaGetCounterName(context_, index, &name);
    gpa().GpaGetCounterDataType(context_, index, &type);
    double value = 0;
    if (type == kGpaDataTypeFloat64) {
      std::memcpy(&value, &raw[i], sizeof(value));
    } else {
      value = static_cast<double>(raw[i]);
    }
    values[name] = value;
  }
  return values;
}

}  // namespace opengpa::vktest
