// Fixture for tests that drive libGPUPerfAPICL.so on a real OpenCL device: PoCL's CPU device in CI, the
// NVIDIA platform on the GPU machine (tests/device/opencl sets OPENGPA_TEST_CL_PLATFORM=NVIDIA).
#ifndef OPENGPA_TESTS_OPENCL_CL_TEST_FIXTURE_H_
#define OPENGPA_TESTS_OPENCL_CL_TEST_FIXTURE_H_

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "gpa_sampler.h"

namespace opengpa::testing {

// The platform the tests must run on: $OPENGPA_TEST_CL_PLATFORM (a substring of CL_PLATFORM_NAME),
// default PoCL's "Portable Computing Language". A missing PoCL fails the tests instead of skipping them.
std::string ExpectedClPlatform();

// A context, a profiling queue and the test kernels on the expected platform's first device.
class ClEnvironment {
 public:
  static constexpr size_t kWorkItems = 4096;

  // nullptr and *error (naming the failed call and its status) when the platform or device is missing.
  static std::unique_ptr<ClEnvironment> Create(std::string* error);
  ClEnvironment() = default;  // use Create()
  ~ClEnvironment();
  ClEnvironment(const ClEnvironment&) = delete;
  ClEnvironment& operator=(const ClEnvironment&) = delete;

  cl_command_queue queue() const { return queue_; }
  cl_device_id device() const { return device_; }
  std::string device_name() const;
  bool is_cpu() const;

  // A new queue on the same device with `properties` (caller releases it); nullptr if unsupported.
  cl_command_queue CreateQueue(cl_command_queue_properties properties) const;

  // Enqueues `spin` over kWorkItems work items, each looping `iterations` times; `event` may be null.
  void EnqueueSpin(cl_command_queue queue, int iterations, cl_event* event) const;

 private:
  cl_context context_ = nullptr;
  cl_device_id device_ = nullptr;
  cl_command_queue queue_ = nullptr;
  cl_program program_ = nullptr;
  cl_kernel spin_ = nullptr;
  cl_mem buffer_ = nullptr;
};

// Nanoseconds between two profiling points of application events.
inline double ProfiledNs(cl_event from, cl_profiling_info from_when, cl_event to, cl_profiling_info to_when) {
  cl_ulong a = 0;
  cl_ulong b = 0;
  clGetEventProfilingInfo(from, from_when, sizeof a, &a, nullptr);
  clGetEventProfilingInfo(to, to_when, sizeof b, &b, nullptr);
  return static_cast<double>(b) - static_cast<double>(a);
}

class ClTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string error;
    env_ = ClEnvironment::Create(&error);
    ASSERT_NE(env_, nullptr) << error << "; CI needs PoCL: apt-get install pocl-opencl-icd ocl-icd-libopencl1";
    sampler_ = std::make_unique<GpaSampler>();
    ASSERT_EQ(sampler_->initialize_status(), kGpaStatusOk);
    GpaLog::Clear();
  }
  void TearDown() override { sampler_.reset(); }

  void OpenGpa(GpaOpenContextFlags flags = kGpaOpenContextEnableHardwareCountersBit) {
    ASSERT_EQ(sampler_->Open(env_->queue(), flags), kGpaStatusOk) << GpaLog::Text();
  }

  std::vector<SampleValues> Collect(const std::vector<std::string>& counters,
                                    const std::vector<std::function<void()>>& work) {
    std::vector<SampleValues> values;
    std::string failed_call;
    cl_command_queue queue = env_->queue();
    GpaStatus status = sampler_->Run(
        counters, work, [queue] { clFinish(queue); }, &values, &failed_call);
    EXPECT_EQ(status, kGpaStatusOk) << failed_call << "\n" << GpaLog::Text();
    return values;
  }

  std::unique_ptr<ClEnvironment> env_;
  std::unique_ptr<GpaSampler> sampler_;
};

}  // namespace opengpa::testing

#endif  // OPENGPA_TESTS_OPENCL_CL_TEST_FIXTURE_H_
