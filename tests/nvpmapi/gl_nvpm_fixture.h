// NvPmApi on a real OpenGL context: llvmpipe through EGL surfaceless in CI (samples/opengl's workload).
#ifndef OPENGPA_TESTS_NVPMAPI_GL_NVPM_FIXTURE_H_
#define OPENGPA_TESTS_NVPMAPI_GL_NVPM_FIXTURE_H_

#include <memory>
#include <string>

#include "gl_workloads.h"
#include "headless_gl.h"
#include "nvpm_test_fixture.h"

namespace opengpa::testing {

class GlNvPm : public NvPmTest {
 protected:
  static constexpr int kWidth = 64;
  static constexpr int kHeight = 32;

  void SetUp() override {
    std::string error;
    gl_ = glwork::HeadlessGl::Create(kWidth, kHeight, &error);
    ASSERT_NE(gl_, nullptr) << "no headless GL context: " << error;
    ASSERT_TRUE(work_.Build(&error)) << error;
    NvPmTest::SetUp();
    ASSERT_EQ(api_->CreateContextFromOGLContext(GlHandle(), &context_), NVPM_OK) << LastMessage();
  }

  void TearDown() override {
    NvPmTest::TearDown();  // Shutdown closes the context while GL is still current
    gl_.reset();
  }

  APIContextHandle GlHandle() const { return reinterpret_cast<APIContextHandle>(gl_->context()); }

  // One pass of one object drawing `squares` aligned 16 x 16 squares (256 pixels each).
  void RunOnePassExperiment(int squares) {
    NVPMUINT passes = 0;
    ASSERT_EQ(api_->ReserveObjects(context_, 1), NVPM_OK);
    ASSERT_EQ(api_->BeginExperiment(context_, &passes), NVPM_OK) << LastMessage();
    for (NVPMUINT pass = 0; pass < passes; ++pass) {
      ASSERT_EQ(api_->BeginPass(context_, pass), NVPM_OK);
      ASSERT_EQ(api_->BeginObject(context_, 0), NVPM_OK);
      work_.DrawAlignedSquares(squares, kWidth, kHeight);
      glFinish();
      ASSERT_EQ(api_->EndObject(context_, 0), NVPM_OK);
      ASSERT_EQ(api_->EndPass(context_, pass), NVPM_OK);
    }
    ASSERT_EQ(api_->EndExperiment(context_), NVPM_OK) << LastMessage();
  }

  std::unique_ptr<glwork::HeadlessGl> gl_;
  glwork::GlWorkloads work_;
  NVPMContext context_ = 0;
};

}  // namespace opengpa::testing

#endif  // OPENGPA_TESTS_NVPMAPI_GL_NVPM_FIXTURE_H_
