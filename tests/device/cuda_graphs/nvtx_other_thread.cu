// NVTX ranges marked by a thread that never calls CUDA, around work another thread launches (issue 12: a
// range pushed on a thread with no current CUDA context). Each step launches known_ffma(K) and
// known_ffma(2K) on the main thread, whose FFMAs are known exactly: blocks x threads x 3K.
//   STEPS "marked" ranges: pushed and popped by the marker thread, which has no CUDA context current (the
//       first is pushed after the main thread created the primary context but before its first launch);
//   STEPS "main" ranges: pushed and popped by the main thread itself around the same launches.
// Under `opengpa profile --range-mode nvtx` every one of them is a sample with that FFMA count.
// Usage: nvtx_other_thread [STEPS]
#include <nvtx3/nvToolsExt.h>

#include <condition_variable>
#include <mutex>
#include <thread>

#include "known_kernels.cuh"

namespace {

constexpr int kIterations = 1000, kBlocks = 528, kThreads = 256;

// Turns between the marker thread and the main thread: the marker pushes, then the main thread launches
// and waits for its kernels, then the marker pops.
struct Turns {
  std::mutex mutex;
  std::condition_variable changed;
  int pushed = 0, finished = 0;

  void Wait(const int& counter, int value) {
    std::unique_lock<std::mutex> lock(mutex);
    changed.wait(lock, [&] { return counter >= value; });
  }
  void Bump(int& counter) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      ++counter;
    }
    changed.notify_all();
  }
};

void Step(float* out) {
  known_ffma<<<kBlocks, kThreads>>>(out, kIterations);
  known_ffma<<<kBlocks, kThreads>>>(out, 2 * kIterations);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
}

}  // namespace

int main(int argc, char** argv) {
  const int steps = argc > 1 ? std::atoi(argv[1]) : 8;
  CHECK(cudaFree(nullptr));  // the primary context, current on this thread only
  float* out = nullptr;
  CHECK(cudaMalloc(&out, kBlocks * kThreads * sizeof(float)));
  Turns turns;
  std::thread marker([&] {
    for (int step = 1; step <= steps; ++step) {
      nvtxRangePushA("marked");
      turns.Bump(turns.pushed);
      turns.Wait(turns.finished, step);
      nvtxRangePop();
    }
  });
  for (int step = 1; step <= steps; ++step) {
    turns.Wait(turns.pushed, step);
    Step(out);
    turns.Bump(turns.finished);
  }
  marker.join();
  for (int step = 0; step < steps; ++step) {
    nvtxRangePushA("main");
    Step(out);
    nvtxRangePop();
  }
  float first = 0;
  CHECK(cudaMemcpy(&first, out, sizeof first, cudaMemcpyDeviceToHost));
  std::printf("nvtx_other_thread: %d marked and %d main steps, %lld FFMAs each (out[0] = %g)\n", steps, steps,
              static_cast<long long>(kBlocks) * kThreads * 3 * kIterations, first);
  return 0;
}
