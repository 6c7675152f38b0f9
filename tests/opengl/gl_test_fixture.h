// Fixture for tests that drive libGPUPerfAPIGL.so on a real GL context: llvmpipe through EGL surfaceless
// in CI, the NVIDIA driver through the EGL device platform on the GPU machine (see tests/device/opengl).
#ifndef OPENGPA_TESTS_OPENGL_GL_TEST_FIXTURE_H_
#define OPENGPA_TESTS_OPENGL_GL_TEST_FIXTURE_H_

#include <gtest/gtest.h>

#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "gl_workloads.h"
#include "gpa_sampler.h"
#include "headless_gl.h"

namespace opengpa::testing {

using glwork::GlWorkloads;
using glwork::HeadlessGl;

// What the tests expect the renderer to be: $OPENGPA_TEST_GL_RENDERER, default "llvmpipe" (CI must run
// on the software driver; a missing llvmpipe fails the tests instead of silently testing something else).
inline std::string ExpectedGlRenderer() {
  const char* value = std::getenv("OPENGPA_TEST_GL_RENDERER");
  return value != nullptr && *value != '\0' ? value : "llvmpipe";
}

class GlTest : public ::testing::Test {
 protected:
  static constexpr int kWidth = 64;
  static constexpr int kHeight = 32;

  void SetUp() override {
    std::string error;
    gl_ = HeadlessGl::Create(kWidth, kHeight, &error);
    ASSERT_NE(gl_, nullptr) << "no headless GL 4.5 context (" << error
                            << "); CI needs Mesa's llvmpipe: apt-get install libegl-mesa0 libgl1-mesa-dri";
    ASSERT_NE(gl_->renderer().find(ExpectedGlRenderer()), std::string::npos)
        << "renderer is '" << gl_->renderer() << "', expected '" << ExpectedGlRenderer()
        << "' (set OPENGPA_TEST_GL_RENDERER to test another driver)";
    ASSERT_TRUE(workloads_.Build(&error)) << error;
    sampler_ = std::make_unique<GpaSampler>();
    ASSERT_EQ(sampler_->initialize_status(), kGpaStatusOk);
    GpaLog::Clear();
  }

  void TearDown() override {
    sampler_.reset();  // closes the GPA context while the GL context is still current
  }

  bool IsSoftwareRenderer() const { return gl_->renderer().find("llvmpipe") != std::string::npos; }

  void OpenGpa(GpaOpenContextFlags flags = kGpaOpenContextEnableHardwareCountersBit) {
    ASSERT_EQ(sampler_->Open(gl_->context(), flags), kGpaStatusOk) << GpaLog::Text();
  }

  // Runs work[i] in sample i of one session collecting `counters`; glFinish before the results are read.
  std::vector<SampleValues> Collect(const std::vector<std::string>& counters,
                                    const std::vector<std::function<void()>>& work) {
    std::vector<SampleValues> values;
    std::string failed_call;
    GpaStatus status = sampler_->Run(
        counters, work, [] { glFinish(); }, &values, &failed_call);
    EXPECT_EQ(status, kGpaStatusOk) << failed_call << "\n" << GpaLog::Text();
    return values;
  }

  std::unique_ptr<HeadlessGl> gl_;
  GlWorkloads workloads_;
  std::unique_ptr<GpaSampler> sampler_;
};

}  // namespace opengpa::testing

#endif  // OPENGPA_TESTS_OPENGL_GL_TEST_FIXTURE_H_
