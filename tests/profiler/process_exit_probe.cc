// A library Python loads (process_exit_check.py) to check CallAtProcessExit (src/profiler/process_exit.h) in a
// real CPython: the function it registers writes a marker file, as the profiler writes its last batch.
#include <cstdio>
#include <string>

#include "profiler/process_exit.h"

namespace {

std::string marker_path;

void WriteMarker() {
  static bool written = false;  // called from Py_AtExit and from exit(); the profiler's finish is once too
  if (written) return;
  written = true;
  if (std::FILE* marker = std::fopen(marker_path.c_str(), "w")) {
    std::fputs("finished\n", marker);
    std::fclose(marker);
  }
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int OpenGpaProbeCallAtProcessExit(const char* marker) {
  marker_path = marker;
  return opengpa::inject_cuda::CallAtProcessExit(&WriteMarker).empty() ? 0 : 1;
}
