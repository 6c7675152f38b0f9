// opengpa-doctor-gl: libGPUPerfAPIGL.so against samples/opengl/workload on a headless EGL context (Mesa's
// surfaceless platform by default; OPENGPA_EGL_PLATFORM=device for a GPU's EGL device, as tests/device does).
// Samples of one session:
//   0  the heavy full-screen triangle: GPUTime > 0 and at most the host's wall time up to glFinish
//   1  glDispatchCompute(4, 4, 2) of 8 x 4 threads: CSThreads = 1024, exactly
//   2  M small triangles (not --quick): VSVerticesIn = 3M, exactly
//   3  16 x 16-pixel point squares tiling the 64 x 32 viewport (not --quick): PSPixelsIn = 64 x 32, exactly (their
//      edges fall on 2 x 2 quads and 4 x 4 blocks, so no driver shades helper pixels)
#include <chrono>
#include <string>

#include "gl_workloads.h"
#include "gpa_sampling.h"
#include "headless_gl.h"
#include "loaded_modules.h"
#include "probe_main.h"

namespace opengpa::doctor {
namespace {

using glwork::GlWorkloads;
using glwork::HeadlessGl;
using Clock = std::chrono::steady_clock;

constexpr int kWidth = 64, kHeight = 32;
constexpr int kHeavyIterations = 4000;  // milliseconds on llvmpipe, tens of microseconds on an H100
constexpr int kGroupsX = 4, kGroupsY = 4, kGroupsZ = 2;
constexpr int kTriangles = 100;

std::string GlString(GLenum name) {
  const GLubyte* text = glGetString(name);
  return text != nullptr ? reinterpret_cast<const char*>(text) : "";
}

nlohmann::json DescribeDriver(const HeadlessGl& gl) {
  const char* egl_version = eglQueryString(gl.display(), EGL_VERSION);
  const char* egl_vendor = eglQueryString(gl.display(), EGL_VENDOR);
  return {{"device", GlString(GL_RENDERER)},
          {"name", GlString(GL_VENDOR)},
          {"version", GlString(GL_VERSION)},
          {"egl",
           {{"platform", gl.platform()},
            {"version", egl_version ? egl_version : ""},
            {"vendor", egl_vendor ? egl_vendor : ""}}},
          {"libraries", LoadedModules({"libEGL", "libOpenGL", "libGLdispatch", "libgallium", "libnvidia-eglcore",
                                       "libnvidia-glcore", "swrast_dri", "libGPUPerfAPI"})}};
}

void RunOpenGlProbe(const ProbeOptions& options, ProbeReport& report) {
  std::string error;
  auto gl = HeadlessGl::Create(kWidth, kHeight, &error);
  if (!gl) {
    report.MarkAbsent("no headless OpenGL 4.5 context through EGL: " + error);
    return;
  }
  report.SetDriver(DescribeDriver(*gl));
  GlWorkloads workloads;
  if (!workloads.Build(&error)) {
    report.AddCause({"workload_not_built", "the GL workload did not compile: " + error,
                     "the driver's GLSL compiler refused a shader of samples/opengl/workload; update the driver"});
    return;
  }
  auto gpa = ProbeGpaLibrary::Load(kGpaApiOpengl, options.search, &report);
  if (!gpa) return;
  opengpa::Context context(gpa->Gpa(), gl->context());
  report.Driver()["gpa_device"] = context.DeviceName();
  std::vector<std::string> counters = {"GPUTime", "CSThreads"};
  if (!options.quick) counters.insert(counters.end(), {"VSVerticesIn", "PSPixelsIn"});
  if (const auto missing = MissingCounters(context, counters); !missing.empty()) {
    for (const auto& name : missing) {
      report.AddCause({"counter_not_offered", name + " is not offered on " + context.DeviceName(),
                       "the context lacks the query behind it (ARB_pipeline_statistics_query, GL 4.6); "
                       "`opengpa list --api gl` shows what it offers"});
    }
    return;
  }
  // Compile and warm up outside the measurement, so the samples time the work rather than shader compilation.
  workloads.DrawHeavyFullScreenTriangle(kHeavyIterations);
  workloads.Dispatch(1, 1, 1);
  glFinish();
  const GpaUInt32 samples = options.quick ? 2 : 4;
  double longest_pass_ns = 0;
  const auto values = CollectSamples(context, counters, samples, [&](opengpa::Session& session, GpaUInt32 pass) {
    const auto start = Clock::now();
    opengpa::CommandList list(session, pass);
    list.BeginSample(0);
    workloads.DrawHeavyFullScreenTriangle(kHeavyIterations);
    list.EndSample();
    list.BeginSample(1);
    workloads.Dispatch(kGroupsX, kGroupsY, kGroupsZ);
    list.EndSample();
    if (samples > 2) {
      list.BeginSample(2);
      workloads.DrawSmallTriangles(kTriangles);
      list.EndSample();
      list.BeginSample(3);
      workloads.DrawAlignedSquares((kWidth / 16) * (kHeight / 16), kWidth, kHeight);
      list.EndSample();
    }
    list.End();
    glFinish();
    longest_pass_ns = std::max(longest_pass_ns, std::chrono::duration<double, std::nano>(Clock::now() - start).count());
  });

  report.Compare({"heavy full-screen triangle", "GPUTime", "nanoseconds", values[0].at("GPUTime"), longest_pass_ns,
                  Tolerance::PositiveAtMost(), "the host's wall time of the pass, up to glFinish"});
  const int local = GlWorkloads::kLocalSizeX * GlWorkloads::kLocalSizeY;
  report.Compare({"dispatch " + std::to_string(kGroupsX) + "x" + std::to_string(kGroupsY) + "x" +
                      std::to_string(kGroupsZ) + " of " + std::to_string(local) + " threads",
                  "CSThreads", "items", values[1].at("CSThreads"), double{kGroupsX * kGroupsY * kGroupsZ * local},
                  Tolerance::Exact(), "groups x local size"});
  if (samples > 2) {
    report.Compare({"draw of " + std::to_string(kTriangles) + " triangles", "VSVerticesIn", "items",
                    values[2].at("VSVerticesIn"), 3.0 * kTriangles, Tolerance::Exact(),
                    "3 vertices per triangle of a non-indexed draw"});
    report.Compare({"16x16 squares tiling " + std::to_string(kWidth) + "x" + std::to_string(kHeight), "PSPixelsIn",
                    "items", values[3].at("PSPixelsIn"), double{kWidth * kHeight}, Tolerance::Exact(),
                    "one fragment per pixel of the viewport"});
  }
  report.ExplainFailedChecks(
      "the driver answered GPA's queries with nothing: a GL driver without working timer or pipeline-statistics "
      "queries, an interposer that drops queries, or a stand-in libGPUPerfAPIGL.so; `opengpa doctor -v --api gl` "
      "shows which libraries were loaded");
}

}  // namespace
}  // namespace opengpa::doctor

int main(int argc, char** argv) { return opengpa::doctor::RunProbe(argc, argv, "gl", opengpa::doctor::RunOpenGlProbe); }
