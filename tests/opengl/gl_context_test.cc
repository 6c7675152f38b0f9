// GpaOpenContext on a GL context, and what the context then reports.
#include <EGL/egl.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "gl_test_fixture.h"

namespace opengpa::testing {
namespace {

using GlContextTest = GlTest;

bool Contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

TEST_F(GlContextTest, OpensTheEglContextCurrentOnThisThread) {
  OpenGpa(kGpaOpenContextDefaultBit);
  const char* name = nullptr;
  ASSERT_EQ(GpaGetDeviceName(sampler_->context(), &name), kGpaStatusOk);
  EXPECT_EQ(std::string(name), gl_->renderer());
  // Read as an int: kGpaHwGenerationSoftware (opengpa_ext.h) is outside GpaHwGeneration, and C++ may not load
  // it as the enum (UBSan's enum check, docs/sanitizers.md).
  int generation = kGpaHwGenerationNone;
  ASSERT_EQ(GpaGetDeviceGeneration(sampler_->context(), reinterpret_cast<GpaHwGeneration*>(&generation)), kGpaStatusOk);
  EXPECT_EQ(generation, static_cast<int>(IsSoftwareRenderer() ? kGpaHwGenerationSoftware : kGpaHwGenerationNvidia));
  GpaContextSampleTypeFlags types = 0;
  ASSERT_EQ(GpaGetSupportedSampleTypes(sampler_->context(), &types), kGpaStatusOk);
  EXPECT_EQ(types, static_cast<GpaContextSampleTypeFlags>(kGpaContextSampleTypeDiscreteCounter));
}

TEST_F(GlContextTest, RejectsAContextThatIsNotCurrentAndNamesIt) {
  EGLContext other = gl_->CreateOtherContext();
  ASSERT_NE(other, EGL_NO_CONTEXT);
  EXPECT_EQ(sampler_->Open(other), kGpaStatusErrorFailed);
  EXPECT_NE(GpaLog::Text().find("is not the GL context current on this thread"), std::string::npos) << GpaLog::Text();
  eglDestroyContext(gl_->display(), other);
}

TEST_F(GlContextTest, RejectsAnyContextWhenNoneIsCurrent) {
  ASSERT_TRUE(gl_->ReleaseCurrent());
  EXPECT_EQ(sampler_->Open(gl_->context()), kGpaStatusErrorFailed);
  ASSERT_TRUE(gl_->MakeCurrent());
}

TEST_F(GlContextTest, ExposesGpuTimeAndPipelineStatisticsWithGroupsAndDescriptions) {
  OpenGpa(kGpaOpenContextDefaultBit);
  std::vector<std::string> names = sampler_->CounterNames();
  const std::vector<std::pair<std::string, std::string>> expected = {{"GPUTime", "Timing"},
                                                                     {"ExecutionStart", "Timing"},
                                                                     {"ExecutionEnd", "Timing"},
                                                                     {"IAVerticesIn", "InputAssembly"},
                                                                     {"IAPrimitivesIn", "InputAssembly"},
                                                                     {"VSVerticesIn", "VertexShader"},
                                                                     {"HSPatches", "HullShader"},
                                                                     {"DSVerticesIn", "DomainShader"},
                                                                     {"GSPrimsIn", "GeometryShader"},
                                                                     {"GSPrimsOut", "GeometryShader"},
                                                                     {"PrimitivesIn", "PrimitiveAssembly"},
                                                                     {"ClipperPrimsOut", "PrimitiveAssembly"},
                                                                     {"PSPixelsIn", "PixelShader"},
                                                                     {"CSThreads", "ComputeShader"},
                                                                     {"SamplesPassed", "DepthAndStencil"}};
  for (const auto& [name, group] : expected) {
    GpaUInt32 index = 0;
    ASSERT_EQ(GpaGetCounterIndex(sampler_->context(), name.c_str(), &index), kGpaStatusOk) << name;
    const char* actual_group = nullptr;
    const char* description = nullptr;
    GpaUsageType usage = kGpaUsageTypeLast;
    ASSERT_EQ(GpaGetCounterGroup(sampler_->context(), index, &actual_group), kGpaStatusOk);
    ASSERT_EQ(GpaGetCounterDescription(sampler_->context(), index, &description), kGpaStatusOk);
    ASSERT_EQ(GpaGetCounterUsageType(sampler_->context(), index, &usage), kGpaStatusOk);
    EXPECT_EQ(std::string(actual_group), group) << name;
    EXPECT_GT(std::string(description).size(), 20u) << name;
    EXPECT_EQ(usage, group == "Timing" ? kGpaUsageTypeNanoseconds : kGpaUsageTypeItems) << name;
  }
  EXPECT_FALSE(Contains(names, "GL_TIMESTAMP_BEGIN"))
      << "hardware counters need kGpaOpenContextEnableHardwareCountersBit";
}

TEST_F(GlContextTest, ExposesTheQueriesThemselvesAsHardwareCountersWhenAsked) {
  OpenGpa(kGpaOpenContextEnableHardwareCountersBit);
  std::vector<std::string> names = sampler_->CounterNames();
  for (const char* name :
       {"GL_TIMESTAMP_BEGIN", "GL_TIMESTAMP_END", "GL_VERTICES_SUBMITTED", "GL_PRIMITIVES_SUBMITTED",
        "GL_VERTEX_SHADER_INVOCATIONS", "GL_TESS_CONTROL_SHADER_PATCHES", "GL_TESS_EVALUATION_SHADER_INVOCATIONS",
        "GL_GEOMETRY_SHADER_INVOCATIONS", "GL_GEOMETRY_SHADER_PRIMITIVES_EMITTED", "GL_CLIPPING_INPUT_PRIMITIVES",
        "GL_CLIPPING_OUTPUT_PRIMITIVES", "GL_FRAGMENT_SHADER_INVOCATIONS", "GL_COMPUTE_SHADER_INVOCATIONS",
        "GL_SAMPLES_PASSED"}) {
    EXPECT_TRUE(Contains(names, name)) << name;
  }
}

TEST_F(GlContextTest, CollectsEveryCounterInOnePass) {
  OpenGpa();
  GpaUInt32 passes = 0;
  std::string failed_call;
  ASSERT_EQ(sampler_->CountPassesOfAllCounters(&passes, &failed_call), kGpaStatusOk) << failed_call;
  EXPECT_EQ(passes, 1u);
}

TEST_F(GlContextTest, RefusesCommandListsBecauseGlHasNone) {
  OpenGpa();
  GpaSessionId session = nullptr;
  std::string failed_call;
  ASSERT_EQ(sampler_->BeginSession({"GPUTime"}, &session, &failed_call), kGpaStatusOk) << failed_call;
  int not_a_command_list = 0;
  GpaCommandListId list = nullptr;
  EXPECT_NE(GpaBeginCommandList(session, 0, &not_a_command_list, kGpaCommandListPrimary, &list), kGpaStatusOk);
  ASSERT_EQ(GpaBeginCommandList(session, 0, GPA_NULL_COMMAND_LIST, kGpaCommandListNone, &list), kGpaStatusOk);
  ASSERT_EQ(GpaEndCommandList(list), kGpaStatusOk);
  ASSERT_EQ(GpaEndSession(session), kGpaStatusOk);
  GpaDeleteSession(session);
}

}  // namespace
}  // namespace opengpa::testing
