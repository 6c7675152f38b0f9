// opengpa_cl_sample: profiles a few OpenCL commands with OpenGPA's libGPUPerfAPICL.so, the way GPA's sample
// applications do, and prints a CSV of every counter per sample.
//
// It picks an OpenCL device (--platform NAME, default the first GPU, else the first device), creates a
// profiling queue, and runs a buffer fill, a vector add and a compute loop of two sizes, each in its own
// GPA sample. Each command also has its own event, so the sample's GPUTime is checked to contain the
// command's own execution time (CL_PROFILING_COMMAND_START..END) and the samples to follow each other in
// time; the exit status is 1 if a check fails.
#include <functional>
#include <initializer_list>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <CL/cl.h>

#include "gpa_sample_support.h"
#include "gpu_performance_api/gpu_perf_api_cl.h"
#include "opengpa/opengpa.hpp"

namespace {

constexpr char kUsage[] =
    "usage: opengpa_cl_sample [--csv FILE] [--platform NAME] [--gpa-lib PATH]\n"
    "  Profiles OpenCL commands with libGPUPerfAPICL.so; prints one CSV row per sample on stdout.\n"
    "  --csv FILE       write the CSV to FILE instead of stdout\n"
    "  --platform NAME  use the OpenCL platform whose name contains NAME (default: the first with a GPU)\n"
    "  --gpa-lib PATH   libGPUPerfAPICL.so, or the folder holding it (default: beside the build, then the\n"
    "                   loader's search path)\n";

constexpr size_t kElements = 1 << 20;
constexpr size_t kSpinWorkItems = 1 << 16;
constexpr int kIterations = 1000;

constexpr const char* kSource = R"(
__kernel void add(__global const float* a, __global const float* b, __global float* c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}
__kernel void spin(__global float* data, int iterations) {
  size_t i = get_global_id(0);
  float x = data[i];
  for (int k = 0; k < iterations; ++k) x = x * 0.9999f + 0.5f;
  data[i] = x;
}
)";

struct Options {
  std::string csv;
  std::string platform;
  std::string gpa_lib;
};

bool ParseOptions(int argc, char** argv, Options* options) {
  return opengpa::sample::ParseFlagValues(argc, argv,
                                          {{"--csv", [&](const std::string& value) { options->csv = value; }},
                                           {"--platform", [&](const std::string& value) { options->platform = value; }},
                                           {"--gpa-lib", [&](const std::string& value) { options->gpa_lib = value; }}});
}

std::string InfoString(cl_platform_id platform, cl_platform_info what) {
  char text[256] = {};
  clGetPlatformInfo(platform, what, sizeof text - 1, text, nullptr);
  return text;
}

// The first device of the platform named `wanted` (or the first GPU anywhere, then the first device).
bool PickDevice(const std::string& wanted, cl_device_id* device, std::string* error) {
  cl_uint count = 0;
  if (clGetPlatformIDs(0, nullptr, &count) != CL_SUCCESS || count == 0) {
    *error = "no OpenCL platform (install one, e.g. PoCL: apt-get install pocl-opencl-icd)";
    return false;
  }
  std::vector<cl_platform_id> platforms(count);
  clGetPlatformIDs(count, platforms.data(), nullptr);
  for (cl_device_type type : std::initializer_list<cl_device_type>{CL_DEVICE_TYPE_GPU, CL_DEVICE_TYPE_ALL}) {
    for (cl_platform_id platform : platforms) {
      if (!wanted.empty() && InfoString(platform, CL_PLATFORM_NAME).find(wanted) == std::string::npos) continue;
      if (clGetDeviceIDs(platform, wanted.empty() ? type : CL_DEVICE_TYPE_ALL, 1, device, nullptr) == CL_SUCCESS) {
        return true;
      }
    }
  }
  *error = "no OpenCL device" + (wanted.empty() ? std::string() : " on a platform named '" + wanted + "'");
  return false;
}

struct Sample {
  std::string label;
  std::function<cl_event()> enqueue;  // returns the command's own event
};

// Profiles each sample's command on `queue` and writes the CSV; 1 when a check fails. Throws opengpa::Error
// when a GPA call fails.
int Profile(const Options& options, const GpaFunctionTable& table, cl_command_queue queue,
            const std::vector<Sample>& samples) {
  opengpa::Library gpa(&table);
  // GpaOpenContext takes the cl_command_queue itself (see gpu_perf_api_cl.h).
  opengpa::Context gpa_context(gpa, queue);
  opengpa::Session session(gpa_context);
  session.EnableAll();
  session.Begin();
  std::vector<cl_event> events;
  {
    opengpa::CommandList list(session, 0);
    for (GpaUInt32 id = 0; id < samples.size(); ++id) {
      list.BeginSample(id);
      events.push_back(samples[id].enqueue());
      list.EndSample();
    }
    list.End();
  }
  session.End();
  clFinish(queue);

  const std::vector<opengpa::sample::EnabledCounter> counters = opengpa::sample::EnabledCounters(session);
  opengpa::sample::CsvOutput output(options.csv);
  std::ostream& csv = output.stream();
  csv << "SampleId,Label";
  for (const opengpa::sample::EnabledCounter& counter : counters) csv << "," << counter.name;
  csv << ",CommandNs\n";  // the command's own START..END, for comparison
  int failures = 0;
  double previous_end = 0.0;
  for (GpaUInt32 id = 0; id < samples.size(); ++id) {
    // A uint64 or a float64 per counter (GPUTime and GPA's timing counters are float64).
    const std::vector<opengpa::CounterValue> values = session.Result(id);
    std::map<std::string, double> value;
    csv << id << "," << samples[id].label;
    for (std::size_t e = 0; e < counters.size() && e < values.size(); ++e) {
      const double number = opengpa::AsDouble(values[e]);
      csv << "," << static_cast<GpaUInt64>(number);  // nanoseconds: whole numbers either way
      value[counters[e].name] = number;
    }
    cl_ulong start = 0;
    cl_ulong end = 0;
    clGetEventProfilingInfo(events[id], CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr);
    clGetEventProfilingInfo(events[id], CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr);
    const double command_ns = static_cast<double>(end - start);
    csv << "," << (end - start) << "\n";
    if (value["GPUTime"] < command_ns) {
      std::cerr << "CHECK FAILED sample " << id << ": GPUTime " << value["GPUTime"] << " < the command's own "
                << command_ns << " ns\n";
      ++failures;
    }
    if (value["ExecutionStart"] < previous_end) {
      std::cerr << "CHECK FAILED sample " << id << " starts before the previous sample ended\n";
      ++failures;
    }
    previous_end = value["ExecutionEnd"];
    clReleaseEvent(events[id]);
  }
  if (failures == 0) std::cerr << "every sample contains its command's execution time, in order\n";
  return failures == 0 ? 0 : 1;
}

int Run(const Options& options) {
  std::string error;
  cl_device_id device = nullptr;
  if (!PickDevice(options.platform, &device, &error)) {
    std::cerr << "opengpa_cl_sample: " << error << "\n";
    return 1;
  }
  char device_name[256] = {};
  clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof device_name - 1, device_name, nullptr);
  std::cerr << "OpenCL device: " << device_name << "\n";

  cl_int status = CL_SUCCESS;
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &status);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  cl_command_queue queue = clCreateCommandQueue(context, device, CL_QUEUE_PROFILING_ENABLE, &status);
#pragma GCC diagnostic pop
  const char* source = kSource;
  cl_program program = clCreateProgramWithSource(context, 1, &source, nullptr, &status);
  if (clBuildProgram(program, 1, &device, "", nullptr, nullptr) != CL_SUCCESS) {
    std::cerr << "opengpa_cl_sample: clBuildProgram failed\n";
    return 1;
  }
  cl_kernel add = clCreateKernel(program, "add", &status);
  cl_kernel spin = clCreateKernel(program, "spin", &status);
  cl_mem a = clCreateBuffer(context, CL_MEM_READ_WRITE, kElements * sizeof(float), nullptr, &status);
  cl_mem b = clCreateBuffer(context, CL_MEM_READ_WRITE, kElements * sizeof(float), nullptr, &status);
  cl_mem c = clCreateBuffer(context, CL_MEM_READ_WRITE, kElements * sizeof(float), nullptr, &status);
  const size_t global = kElements;
  const float one = 1.0f;
  auto enqueue_spin = [&](int iterations) {
    clSetKernelArg(spin, 0, sizeof c, &c);
    clSetKernelArg(spin, 1, sizeof iterations, &iterations);
    cl_event event = nullptr;
    clEnqueueNDRangeKernel(queue, spin, 1, nullptr, &kSpinWorkItems, nullptr, 0, nullptr, &event);
    return event;
  };
  const std::vector<Sample> samples = {
      {"fill",
       [&] {
         cl_event event = nullptr;
         clEnqueueFillBuffer(queue, a, &one, sizeof one, 0, kElements * sizeof(float), 0, nullptr, &event);
         return event;
       }},
      {"vector_add",
       [&] {
         clSetKernelArg(add, 0, sizeof a, &a);
         clSetKernelArg(add, 1, sizeof b, &b);
         clSetKernelArg(add, 2, sizeof c, &c);
         cl_event event = nullptr;
         clEnqueueNDRangeKernel(queue, add, 1, nullptr, &global, nullptr, 0, nullptr, &event);
         return event;
       }},
      {"spin_1x", [&] { return enqueue_spin(kIterations); }},
      {"spin_2x", [&] { return enqueue_spin(2 * kIterations); }},
  };
  clEnqueueFillBuffer(queue, b, &one, sizeof one, 0, kElements * sizeof(float), 0, nullptr, nullptr);
  // Run everything once unmeasured: some drivers (PoCL) compile a kernel at its first enqueue.
  for (const Sample& sample : samples) clReleaseEvent(sample.enqueue());
  clFinish(queue);

  std::unique_ptr<opengpa::client::LoadedGpaLibrary> library =
      opengpa::sample::LoadGpa(kGpaApiOpencl, options.gpa_lib, "opengpa_cl_sample");
  if (library == nullptr) return 1;
  int result = 1;
  try {
    result = Profile(options, library->Table(), queue, samples);
  } catch (const opengpa::Error& failure) {
    std::cerr << "opengpa_cl_sample: " << failure.what() << "\n";
  }
  for (cl_mem buffer : {a, b, c}) clReleaseMemObject(buffer);
  clReleaseKernel(add);
  clReleaseKernel(spin);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return result;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (!ParseOptions(argc, argv, &options)) {
    std::cerr << kUsage;
    return 2;
  }
  return Run(options);
}
