// opengpa_nvpmapi_gl_sample: the NvPmApi user guide's code fragments assembled into a program, on an OpenGL
// context (Mesa's llvmpipe in CI): the library loaded through NvPmApiManager, a context from the current GL
// context, real-time mode (NVPMSample once per frame) and experiment mode (passes of objects, one draw
// each). Every value that follows from the work drawn is checked; the exit status is 1 if one differs.
//
//   opengpa_nvpmapi_gl_sample [--library PATH] [--list]
#include <cstring>
#include <string>
#include <vector>

#include "gl_workloads.h"
#include "headless_gl.h"
#include "nvpm_sample.h"

namespace {

using nvpm_sample::Checks;
using nvpm_sample::Ok;
using nvpm_sample::Value;

constexpr int kWidth = 256;
constexpr int kHeight = 128;
constexpr int kSquares = 64;  // 16 x 16-pixel points: 256 pixels each
constexpr int kFrames = 4;

int PrintCounter(NVPMCounterID id, const char* name, void* count) {
  NVPMUINT64 type = 0;
  NVPMUINT64 display = 0;
  GetNvPmApi()->GetCounterAttribute(id, NVPMA_COUNTER_TYPE, &type);
  GetNvPmApi()->GetCounterAttribute(id, NVPMA_COUNTER_DISPLAY_HINT, &display);
  std::printf("  %4u  %-28s type %llu  %s\n", id, name, static_cast<unsigned long long>(type),
              display == NVPM_CD_RATIO ? "ratio" : "raw");
  ++*static_cast<int*>(count);
  return NVPM_OK;
}

// Real-time mode: the guide's AddCounterByName, then Sample once per frame after a glFinish. Frame f draws
// f + 1 batches of kSquares aligned squares: (f + 1) * kSquares * 256 pixels shaded, (f + 1) * kSquares vertices.
// (Aligned squares because a full-screen triangle is split by clipping, and drivers shade the quads on the
// split twice: its SamplesPassed is exact, its shaded pixels are not.)
void RealTime(NVPMContext hNVPMContext, const opengpa::glwork::GlWorkloads& work, Checks* checks) {
  for (const char* name : {"shaded_pixel_count", "IAVerticesIn", "GPUTime"}) {
    Ok(name, GetNvPmApi()->AddCounterByName(hNVPMContext, name));
  }
  NVPMUINT nCount = 0;
  GetNvPmApi()->Sample(hNVPMContext, NULL, &nCount);  // the first interval begins here
  for (int frame = 0; frame < kFrames; ++frame) {
    for (int i = 0; i <= frame; ++i) work.DrawAlignedSquares(kSquares, kWidth, kHeight);
    glFinish();  // the guide: synchronise before NVPMSample to count the whole frame
    NVPMSampleValue samples[8];
    nCount = 8;
    if (!Ok("Sample", GetNvPmApi()->Sample(hNVPMContext, samples, &nCount))) {
      ++checks->failed;
      continue;
    }
    const std::string label = "real-time frame " + std::to_string(frame) + ": ";
    checks->ExpectTrue(label + "counters updated", nCount > 0, std::to_string(nCount) + " values");
    for (NVPMUINT i = 0; i < nCount; ++i) {
      char name[64];
      NVPMUINT length = sizeof name;
      GetNvPmApi()->GetCounterName(samples[i].unCounterID, name, &length);
      const double value = static_cast<double>(samples[i].ulValue);
      if (std::strcmp(name, "shaded_pixel_count") == 0) {
        checks->ExpectEqual(label + name, value, 256.0 * kSquares * (frame + 1));
      } else if (std::strcmp(name, "IAVerticesIn") == 0) {
        checks->ExpectEqual(label + name, value, double(kSquares) * (frame + 1));
      } else if (std::strcmp(name, "GPUTime") == 0) {
        checks->ExpectTrue(label + name + " (ns)", value > 0, std::to_string(samples[i].ulValue));
      }
    }
  }
  Ok("RemoveAllCounters", GetNvPmApi()->RemoveAllCounters(hNVPMContext));
}

// Experiment mode: the guide's loop. Object 0 is a full-screen triangle, object 1 kSquares aligned squares.
void Experiment(NVPMContext hNVPMContext, const opengpa::glwork::GlWorkloads& work, Checks* checks) {
  for (const char* name : {"shaded_pixel_count", "IAVerticesIn", "GPUTime", "SamplesPassed"}) {
    Ok(name, GetNvPmApi()->AddCounterByName(hNVPMContext, name));
  }
  Ok("ReserveObjects", GetNvPmApi()->ReserveObjects(hNVPMContext, 2));
  NVPMUINT nCount = 0;
  if (!Ok("BeginExperiment", GetNvPmApi()->BeginExperiment(hNVPMContext, &nCount))) {
    ++checks->failed;
    return;
  }
  for (NVPMUINT i = 0; i < nCount; i++) {
    GetNvPmApi()->BeginPass(hNVPMContext, i);
    GetNvPmApi()->BeginObject(hNVPMContext, 0);
    work.DrawFullScreenTriangle();
    glFinish();  // FlushGPU()
    GetNvPmApi()->EndObject(hNVPMContext, 0);
    GetNvPmApi()->BeginObject(hNVPMContext, 1);
    work.DrawAlignedSquares(kSquares, kWidth, kHeight);
    glFinish();
    GetNvPmApi()->EndObject(hNVPMContext, 1);
    GetNvPmApi()->EndPass(hNVPMContext, i);
  }
  if (!Ok("EndExperiment", GetNvPmApi()->EndExperiment(hNVPMContext))) {
    ++checks->failed;
    return;
  }
  std::printf("experiment: %u pass(es)\n", nCount);
  checks->ExpectEqual("object 0 (full-screen triangle) SamplesPassed", Value(hNVPMContext, "SamplesPassed", 0),
                      double(kWidth) * kHeight);
  checks->ExpectEqual("object 0 IAVerticesIn", Value(hNVPMContext, "IAVerticesIn", 0), 3);
  checks->ExpectEqual("object 1 (aligned squares) shaded_pixel_count", Value(hNVPMContext, "shaded_pixel_count", 1),
                      256.0 * kSquares);
  checks->ExpectEqual("object 1 IAVerticesIn", Value(hNVPMContext, "IAVerticesIn", 1), kSquares);
  NVPMUINT64 cycles = 0;
  double pixels = Value(hNVPMContext, "shaded_pixel_count", 1, &cycles);
  checks->ExpectEqual("object 1 shaded_pixel_count cycles (a count: value = cycles)", double(cycles), pixels);
  for (NVPMUINT object = 0; object < 2; ++object) {
    double ns = nvpm_sample::ExactValue(hNVPMContext, "GPUTime", object);
    checks->ExpectTrue("object " + std::to_string(object) + " GPUTime (ns)", ns > 0, std::to_string(ns));
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::string error;
  auto gl = opengpa::glwork::HeadlessGl::Create(kWidth, kHeight, &error);
  if (gl == nullptr) {
    std::printf("no headless OpenGL context: %s\n", error.c_str());
    return 1;
  }
  opengpa::glwork::GlWorkloads work;
  if (!work.Build(&error)) {
    std::printf("%s\n", error.c_str());
    return 1;
  }
  if (!nvpm_sample::LoadAndInit(nvpm_sample::LibraryPath(argc, argv))) return 1;

  NVPMContext hNVPMContext(0);
  NVPMRESULT nvResult;
  if ((nvResult = GetNvPmApi()->CreateContextFromOGLContext(reinterpret_cast<APIContextHandle>(gl->context()),
                                                            &hNVPMContext)) != NVPM_OK) {
    std::printf("CreateContextFromOGLContext: %d\n", nvResult);
    return 1;  // This is an error condition
  }
  std::printf("OpenGL context on %s\n", gl->renderer().c_str());
  int counters = 0;
  bool list = argc > 1 && std::strcmp(argv[argc - 1], "--list") == 0;
  GetNvPmApi()->EnumCountersByContextUserData(
      hNVPMContext, list ? PrintCounter : [](NVPMCounterID, const char*, void* count) {
        ++*static_cast<int*>(count);
        return static_cast<int>(NVPM_OK);
      }, &counters);
  std::printf("%d counters\n", counters);

  Checks checks;
  RealTime(hNVPMContext, work, &checks);
  Experiment(hNVPMContext, work, &checks);
  Ok("DestroyContext", GetNvPmApi()->DestroyContext(hNVPMContext));
  Ok("Shutdown", GetNvPmApi()->Shutdown());
  std::printf("%s: %d check(s) failed\n", checks.failed == 0 ? "PASS" : "FAIL", checks.failed);
  return checks.failed == 0 ? 0 : 1;
}
