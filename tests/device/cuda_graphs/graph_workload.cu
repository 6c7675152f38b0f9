// CUDA Graphs of known kernels for `opengpa profile` (issue 12; known_work.cuh builds them):
//   1. plain launches on one stream: ffma(K), ffma(2K), copy A->B, scale C   (the references)
//   2. LAUNCHES times, on the same stream:
//      G  captured: ffma(K), memset D, copy A->B, memcpy D->E, scale C        -> one sample of the whole launch
//      E  built:    ffma(2K) -> {copy A->B, memset D, scale C} (a fork)       -> one sample of the whole launch
//      P  captured: ffma(K), copy A->B, scale C (kernels only)               -> one sample: the three kernels' sums
//      S  built:    copy A->B alone                                          -> the copy's own sample
// So a profile holds 4 + 4 * LAUNCHES samples: P's instruction counts must equal the sum of the plain
// ffma(K), copy and scale exactly, S's those of the plain copy, DRAM bytes within 2%. Buffers A, B, C are
// 256 MiB (five times the H100's L2), D and E 4 MiB. Usage: graph_workload [LAUNCHES]
#include <cstring>

#include "known_work.cuh"

int main(int argc, char** argv) {
  const int launches = argc > 1 ? std::atoi(argv[1]) : 3;
  KnownWork work;
  work.Allocate();
  cudaStream_t stream;
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  work.PlainLaunches(stream);
  CHECK(cudaStreamSynchronize(stream));
  cudaGraph_t graphs[4] = {work.Capture(stream), work.Build(), work.CaptureKernelsOnly(stream),
                           work.BuildSingleKernel()};
  cudaGraphExec_t execs[4];
  for (int g = 0; g < 4; ++g) execs[g] = KnownWork::Instantiate(graphs[g]);
  for (int i = 0; i < launches; ++i) {
    for (cudaGraphExec_t exec : execs) CHECK(cudaGraphLaunch(exec, stream));
  }
  CHECK(cudaStreamSynchronize(stream));
  // The program's own results, whoever ran its graphs' nodes (`opengpa profile --graph-profiling node` replays
  // them): C scaled once per plain run and once per launch of G, E and P; D last set by E (3), E copied from
  // D by G (2); B a copy of A.
  float c0 = 0, b0 = 0, a0 = 0;
  unsigned char d0 = 0, e0 = 0;
  CHECK(cudaMemcpy(&c0, work.c + 12345, sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&b0, work.b + 777, sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&a0, work.a + 777, sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&d0, work.d + 99, 1, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&e0, work.e + 99, 1, cudaMemcpyDeviceToHost));
  float expected_c;
  const unsigned int ones = 0x01010101u;
  std::memcpy(&expected_c, &ones, sizeof(float));
  for (int i = 0; i < 1 + 3 * launches; ++i) expected_c *= 1.5f;
  const bool results_ok = c0 == expected_c && b0 == a0 && (launches == 0 || (d0 == 3 && e0 == 2));
  std::printf("graph_workload results: %s (C %g expected %g, B==A %d, D %d, E %d)\n", results_ok ? "ok" : "WRONG", c0,
              expected_c, b0 == a0, d0, e0);
  for (int g = 0; g < 4; ++g) {
    CHECK(cudaGraphExecDestroy(execs[g]));
    CHECK(cudaGraphDestroy(graphs[g]));
  }
  std::printf("graph_workload: 4 plain launches, then %d launches each of graphs G, E, P and S\n", launches);
  return results_ok ? 0 : 2;
}
