// opengpa_gl_sample: profiles a small OpenGL frame with OpenGPA's libGPUPerfAPIGL.so, the way GPA's sample
// applications do, and prints a CSV of every counter per sample.
//
// It makes a headless GL 4.5 context (EGL surfaceless: Mesa's llvmpipe; --egl-platform device: a GPU
// driver such as NVIDIA's), draws triangles, a full-screen triangle, a geometry-shader and a tessellation
// draw and a compute dispatch, each in its own GPA sample, while the application's own GL_TIME_ELAPSED
// query times the whole frame (GPA's GPUTime uses GL_TIMESTAMP queries and leaves that slot free). Counters
// whose value follows from the workload are checked; the exit status is 1 if one differs.
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "gl_workloads.h"
#include "gpa_sample_support.h"
#include "gpu_performance_api/gpu_perf_api_gl.h"
#include "headless_gl.h"
#include "opengpa/opengpa.hpp"

namespace opengpa::glwork {
namespace {

constexpr char kUsage[] =
    "usage: opengpa_gl_sample [--csv FILE] [--egl-platform surfaceless|device] [--gpa-lib PATH]\n"
    "  Profiles draws and a dispatch with libGPUPerfAPIGL.so; prints one CSV row per sample on stdout.\n"
    "  --csv FILE        write the CSV to FILE instead of stdout\n"
    "  --egl-platform P  EGL platform (default surfaceless: llvmpipe; device: the first EGL device)\n"
    "  --gpa-lib PATH    libGPUPerfAPIGL.so, or the folder holding it (default: beside the build, then the\n"
    "                    loader's search path)\n";

constexpr int kWidth = 1280;
constexpr int kHeight = 720;
constexpr int kTriangles = 4096;
constexpr int kGsTriangles = 1024;
constexpr int kPatches = 512;
constexpr int kGroups[3] = {64, 16, 2};

struct Options {
  std::string csv;
  std::string gpa_lib;
};

bool ParseOptions(int argc, char** argv, Options* options) {
  return sample::ParseFlagValues(
      argc, argv,
      {{"--csv", [&](const std::string& value) { options->csv = value; }},
       {"--gpa-lib", [&](const std::string& value) { options->gpa_lib = value; }},
       {"--egl-platform", [](const std::string& value) { setenv("OPENGPA_EGL_PLATFORM", value.c_str(), 1); }}});
}

struct SampleSpec {
  std::string label;
  std::function<void()> work;
  std::map<std::string, double> expected;  // counters whose value follows from the work
};

std::vector<SampleSpec> Frame(const GlWorkloads& gl) {
  const double pixels = double(kWidth) * kHeight;
  const double threads =
      double(kGroups[0]) * kGroups[1] * kGroups[2] * GlWorkloads::kLocalSizeX * GlWorkloads::kLocalSizeY;
  return {
      {"triangles",
       [&gl] { gl.DrawSmallTriangles(kTriangles); },
       {{"IAVerticesIn", 3.0 * kTriangles},
        {"IAPrimitivesIn", kTriangles},
        {"VSVerticesIn", 3.0 * kTriangles},
        {"PrimitivesIn", kTriangles},
        {"CSThreads", 0}}},
      {"fullscreen",
       [&gl] { gl.DrawFullScreenTriangle(); },
       {{"IAVerticesIn", 3}, {"IAPrimitivesIn", 1}, {"SamplesPassed", pixels}}},
      {"squares",
       [&gl] { gl.DrawAlignedSquares((kWidth / 16) * (kHeight / 16), kWidth, kHeight); },
       {{"SamplesPassed", pixels}, {"PSPixelsIn", pixels}}},
      {"geometry",
       [&gl] { gl.DrawThroughGeometryShader(kGsTriangles); },
       {{"GSPrimsIn", kGsTriangles}, {"GSPrimsOut", 2.0 * kGsTriangles}, {"PrimitivesIn", 2.0 * kGsTriangles}}},
      {"tessellation",
       [&gl] { gl.DrawTessellatedPatches(kPatches); },
       {{"HSPatches", kPatches}, {"PrimitivesIn", kPatches}}},
      {"compute",
       [&gl] { gl.Dispatch(kGroups[0], kGroups[1], kGroups[2]); },
       {{"CSThreads", threads}, {"IAVerticesIn", 0}, {"SamplesPassed", 0}}},
  };
}

// Profiles the frame in every pass GPA asks for and writes the CSV; 1 when a counter differs from what the
// workload implies. Throws opengpa::Error when a GPA call fails.
int Profile(const Options& options, const GpaFunctionTable& table, const HeadlessGl& context,
            const GlWorkloads& workloads) {
  opengpa::Library gpa(&table);
  opengpa::Context gpa_context(gpa, context.context());
  opengpa::Session session(gpa_context);
  session.EnableAll();
  const GpaUInt32 passes = session.PassCount();
  session.Begin();

  const std::vector<SampleSpec> frame = Frame(workloads);
  // Draw the frame once unmeasured: drivers compile shader variants at the first draw, which is not the
  // cost the samples should show.
  for (const SampleSpec& sample : frame) sample.work();
  glFinish();
  GLuint frame_query = 0;
  glGenQueries(1, &frame_query);
  for (GpaUInt32 pass = 0; pass < passes; ++pass) {
    opengpa::CommandList list(session, pass);
    glBeginQuery(GL_TIME_ELAPSED, frame_query);  // the application's own timer, across every sample
    for (GpaUInt32 id = 0; id < frame.size(); ++id) {
      list.BeginSample(id);
      frame[id].work();
      list.EndSample();
    }
    glEndQuery(GL_TIME_ELAPSED);
    list.End();
  }
  session.End();
  glFinish();
  GLuint64 frame_ns = 0;
  glGetQueryObjectui64v(frame_query, GL_QUERY_RESULT, &frame_ns);
  glDeleteQueries(1, &frame_query);

  const std::vector<sample::EnabledCounter> counters = sample::EnabledCounters(session);
  sample::CsvOutput output(options.csv);
  std::ostream& csv = output.stream();
  csv << "SampleId,Label";
  for (const sample::EnabledCounter& counter : counters) csv << "," << counter.name;
  csv << "\n";
  int mismatches = 0;
  double gpu_time_sum = 0.0;
  for (GpaUInt32 id = 0; id < frame.size(); ++id) {
    const std::vector<opengpa::CounterValue> values = session.Result(id);
    csv << id << "," << frame[id].label;
    for (std::size_t e = 0; e < counters.size() && e < values.size(); ++e) {
      const double value = opengpa::AsDouble(values[e]);
      csv << "," << std::visit([](auto v) { return std::to_string(v); }, values[e]);
      if (counters[e].name == "GPUTime") gpu_time_sum += value;
      auto expected = frame[id].expected.find(counters[e].name);
      if (expected != frame[id].expected.end() && expected->second != value) {
        std::cerr << "MISMATCH sample " << id << " (" << frame[id].label << ") " << counters[e].name << " = " << value
                  << ", the workload implies " << expected->second << "\n";
        ++mismatches;
      }
    }
    csv << "\n";
  }
  std::cerr << "application GL_TIME_ELAPSED over the frame: " << frame_ns
            << " ns; sum of GPA GPUTime: " << static_cast<GpaUInt64>(gpu_time_sum) << " ns\n";
  if (mismatches == 0) std::cerr << "every counter implied by the workload matches\n";
  return mismatches == 0 ? 0 : 1;
}

int Run(const Options& options) {
  std::string error;
  std::unique_ptr<HeadlessGl> context = HeadlessGl::Create(kWidth, kHeight, &error);
  if (!context) {
    std::cerr << "opengpa_gl_sample: no GL context: " << error
              << "\n  install Mesa's EGL/llvmpipe (apt-get install libegl-mesa0 libgl1-mesa-dri) or use --egl-platform "
                 "device\n";
    return 1;
  }
  GlWorkloads workloads;
  if (!workloads.Build(&error)) {
    std::cerr << "opengpa_gl_sample: " << error << "\n";
    return 1;
  }
  std::cerr << "GL renderer: " << context->renderer() << " (EGL " << context->platform() << ")\n";

  std::unique_ptr<client::LoadedGpaLibrary> library =
      sample::LoadGpa(kGpaApiOpengl, options.gpa_lib, "opengpa_gl_sample");
  if (library == nullptr) return 1;
  try {
    return Profile(options, library->Table(), *context, workloads);
  } catch (const opengpa::Error& failure) {
    std::cerr << "opengpa_gl_sample: " << failure.what() << "\n";
    return 1;
  }
}

}  // namespace
}  // namespace opengpa::glwork

int main(int argc, char** argv) {
  opengpa::glwork::Options options;
  if (!opengpa::glwork::ParseOptions(argc, argv, &options)) {
    std::cerr << opengpa::glwork::kUsage;
    return 2;
  }
  return opengpa::glwork::Run(options);
}
