#include <cstdlib>
#include <string>
#include <vector>

#include "cl_test_fixture.h"

namespace opengpa::testing {
namespace {

constexpr const char* kSource = R"(
__kernel void spin(__global float* data, int iterations) {
  size_t i = get_global_id(0);
  float x = data[i];
  for (int k = 0; k < iterations; ++k) x = x * 0.9999f + 0.5f;
  data[i] = x;
}
)";

std::string Failure(const char* call, cl_int status) {
  return std::string(call) + " returned " + std::to_string(status);
}

std::string PlatformName(cl_platform_id platform) {
  char name[256] = {};
  clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof name - 1, name, nullptr);
  return name;
}

}  // namespace

std::string ExpectedClPlatform() {
  const char* value = std::getenv("OPENGPA_TEST_CL_PLATFORM");
  return value != nullptr && *value != '\0' ? value : "Portable Computing Language";
}

std::unique_ptr<ClEnvironment> ClEnvironment::Create(std::string* error) {
  cl_uint count = 0;
  cl_int status = clGetPlatformIDs(0, nullptr, &count);
  if (status != CL_SUCCESS || count == 0) {
    *error = "no OpenCL platform (" + Failure("clGetPlatformIDs", status) + ")";
    return nullptr;
  }
  std::vector<cl_platform_id> platforms(count);
  clGetPlatformIDs(count, platforms.data(), nullptr);
  cl_platform_id platform = nullptr;
  std::string seen;
  for (cl_platform_id candidate : platforms) {
    seen += " '" + PlatformName(candidate) + "'";
    if (PlatformName(candidate).find(ExpectedClPlatform()) != std::string::npos) platform = candidate;
  }
  if (platform == nullptr) {
    *error = "no OpenCL platform named '" + ExpectedClPlatform() + "' (found" + seen + ")";
    return nullptr;
  }
  auto env = std::make_unique<ClEnvironment>();
  if ((status = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &env->device_, nullptr)) != CL_SUCCESS) {
    *error = Failure("clGetDeviceIDs", status);
    return nullptr;
  }
  env->context_ = clCreateContext(nullptr, 1, &env->device_, nullptr, nullptr, &status);
  if (status != CL_SUCCESS) {
    *error = Failure("clCreateContext", status);
    return nullptr;
  }
  env->queue_ = env->CreateQueue(CL_QUEUE_PROFILING_ENABLE);
  if (env->queue_ == nullptr) {
    *error = "clCreateCommandQueue(CL_QUEUE_PROFILING_ENABLE) failed";
    return nullptr;
  }
  const char* source = kSource;
  env->program_ = clCreateProgramWithSource(env->context_, 1, &source, nullptr, &status);
  if (status != CL_SUCCESS ||
      (status = clBuildProgram(env->program_, 1, &env->device_, "", nullptr, nullptr)) != CL_SUCCESS) {
    *error = Failure("clBuildProgram", status);
    return nullptr;
  }
  env->spin_ = clCreateKernel(env->program_, "spin", &status);
  if (status != CL_SUCCESS) {
    *error = Failure("clCreateKernel(spin)", status);
    return nullptr;
  }
  env->buffer_ = clCreateBuffer(env->context_, CL_MEM_READ_WRITE, kWorkItems * sizeof(float), nullptr, &status);
  if (status != CL_SUCCESS) {
    *error = Failure("clCreateBuffer", status);
    return nullptr;
  }
  const float zero = 0.0f;
  clEnqueueFillBuffer(env->queue_, env->buffer_, &zero, sizeof zero, 0, kWorkItems * sizeof(float), 0, nullptr,
                      nullptr);
  // PoCL compiles a kernel for its work size at the first enqueue: do it here, outside every measurement.
  env->EnqueueSpin(env->queue_, 1, nullptr);
  clFinish(env->queue_);
  return env;
}

ClEnvironment::~ClEnvironment() {
  if (buffer_ != nullptr) clReleaseMemObject(buffer_);
  if (spin_ != nullptr) clReleaseKernel(spin_);
  if (program_ != nullptr) clReleaseProgram(program_);
  if (queue_ != nullptr) clReleaseCommandQueue(queue_);
  if (context_ != nullptr) clReleaseContext(context_);
}

std::string ClEnvironment::device_name() const {
  char name[256] = {};
  clGetDeviceInfo(device_, CL_DEVICE_NAME, sizeof name - 1, name, nullptr);
  return name;
}

bool ClEnvironment::is_cpu() const {
  cl_device_type type = 0;
  clGetDeviceInfo(device_, CL_DEVICE_TYPE, sizeof type, &type, nullptr);
  return (type & CL_DEVICE_TYPE_CPU) != 0;
}

cl_command_queue ClEnvironment::CreateQueue(cl_command_queue_properties properties) const {
  cl_int status = CL_SUCCESS;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  cl_command_queue queue = clCreateCommandQueue(context_, device_, properties, &status);  // OpenCL 1.2 spelling
#pragma GCC diagnostic pop
  return status == CL_SUCCESS ? queue : nullptr;
}

void ClEnvironment::EnqueueSpin(cl_command_queue queue, int iterations, cl_event* event) const {
  clSetKernelArg(spin_, 0, sizeof buffer_, &buffer_);
  clSetKernelArg(spin_, 1, sizeof iterations, &iterations);
  const size_t global = kWorkItems;
  clEnqueueNDRangeKernel(queue, spin_, 1, nullptr, &global, nullptr, 0, nullptr, event);
}

}  // namespace opengpa::testing
