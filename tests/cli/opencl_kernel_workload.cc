// An ordinary OpenCL program for the `opengpa profile --api cl` tests: it knows nothing of OpenGPA,
// creates its queue WITHOUT profiling, and enqueues a fixed, printed schedule of kernels so the test can
// compare every profiled sample with what was really launched:
//   "scale"  over N floats, 3 times, with local size 64, passing an event it releases at once
//   "add"    over N floats, 4 times, local size left to the implementation, passing no event
//   a 2D "fill2d" W x H once, local 8x8
// N comes from argv[1] (default 65536). argv[2], R (default 1), repeats the schedule R times (8 R launches; the
// "scale" factor is then 1, so the values stay finite). It checks its own results and exits non-zero if they
// are wrong.
#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

const char* kSource = R"CLC(
__kernel void scale(__global float* x, float factor) { size_t i = get_global_id(0); x[i] = x[i] * factor; }
__kernel void add(__global const float* a, __global float* b) { size_t i = get_global_id(0); b[i] = b[i] + a[i]; }
__kernel void fill2d(__global float* out, int width) {
  out[get_global_id(1) * width + get_global_id(0)] = (float)(get_global_id(0) + get_global_id(1));
}
)CLC";

#define CHECK(call)                                                                \
  do {                                                                             \
    cl_int status_ = (call);                                                       \
    if (status_ != CL_SUCCESS) {                                                   \
      std::fprintf(stderr, "%s failed: %d (line %d)\n", #call, status_, __LINE__); \
      std::exit(1);                                                                \
    }                                                                              \
  } while (0)

}  // namespace

int main(int argc, char** argv) {
  const size_t n = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 65536;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 1;
  if (rounds < 1) {
    std::fprintf(stderr, "rounds must be at least 1\n");
    return 2;
  }
  const size_t width = 128, height = 32;
  cl_platform_id platform;
  CHECK(clGetPlatformIDs(1, &platform, nullptr));
  cl_device_id device;
  CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr));
  cl_int status = CL_SUCCESS;
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &status);
  CHECK(status);
  cl_command_queue queue = clCreateCommandQueue(context, device, 0, &status);  // no profiling asked
  CHECK(status);
  cl_program program = clCreateProgramWithSource(context, 1, &kSource, nullptr, &status);
  CHECK(status);
  CHECK(clBuildProgram(program, 1, &device, "", nullptr, nullptr));
  cl_kernel scale = clCreateKernel(program, "scale", &status);
  CHECK(status);
  cl_kernel add = clCreateKernel(program, "add", &status);
  CHECK(status);
  cl_kernel fill2d = clCreateKernel(program, "fill2d", &status);
  CHECK(status);

  std::vector<float> host(n, 1.0f);
  cl_mem a = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(float), host.data(), &status);
  CHECK(status);
  cl_mem b = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(float), host.data(), &status);
  CHECK(status);
  cl_mem image = clCreateBuffer(context, CL_MEM_WRITE_ONLY, width * height * sizeof(float), nullptr, &status);
  CHECK(status);

  const float factor = rounds == 1 ? 2.0f : 1.0f;
  CHECK(clSetKernelArg(scale, 0, sizeof a, &a));
  CHECK(clSetKernelArg(scale, 1, sizeof factor, &factor));
  CHECK(clSetKernelArg(add, 0, sizeof a, &a));
  CHECK(clSetKernelArg(add, 1, sizeof b, &b));
  const int width_arg = static_cast<int>(width);
  CHECK(clSetKernelArg(fill2d, 0, sizeof image, &image));
  CHECK(clSetKernelArg(fill2d, 1, sizeof width_arg, &width_arg));
  const size_t local = 64;
  const size_t global2d[2] = {width, height}, local2d[2] = {8, 8};
  for (int round = 0; round < rounds; ++round) {
    for (int i = 0; i < 3; ++i) {
      cl_event event;
      CHECK(clEnqueueNDRangeKernel(queue, scale, 1, nullptr, &n, &local, 0, nullptr, &event));
      CHECK(clReleaseEvent(event));  // released before completion: the profiler must keep its own reference
    }
    for (int i = 0; i < 4; ++i) CHECK(clEnqueueNDRangeKernel(queue, add, 1, nullptr, &n, nullptr, 0, nullptr, nullptr));
    CHECK(clEnqueueNDRangeKernel(queue, fill2d, 2, nullptr, global2d, local2d, 0, nullptr, nullptr));
  }
  CHECK(clFinish(queue));

  // One round: a = 8 after three doublings; b = 1 + 4 * 8 = 33. R rounds (factor 1): b = 1 + 4 R.
  const float expected = rounds == 1 ? 33.0f : 1.0f + 4.0f * static_cast<float>(rounds);
  std::vector<float> result(n);
  CHECK(clEnqueueReadBuffer(queue, b, CL_TRUE, 0, n * sizeof(float), result.data(), 0, nullptr, nullptr));
  for (size_t i = 0; i < n; ++i) {
    if (std::fabs(result[i] - expected) > 1e-5f) {
      std::fprintf(stderr, "wrong result b[%zu] = %f\n", i, result[i]);
      return 1;
    }
  }
  clReleaseMemObject(image);
  clReleaseMemObject(b);
  clReleaseMemObject(a);
  clReleaseKernel(fill2d);
  clReleaseKernel(add);
  clReleaseKernel(scale);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  std::printf("enqueued %d kernels over %zu elements\n", 8 * rounds, n);
  return 0;
}
