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
  for (int g = 0; g < 4; ++g) {
    CHECK(cudaGraphExecDestroy(execs[g]));
    CHECK(cudaGraphDestroy(graphs[g]));
  }
  std::printf("graph_workload: 4 plain launches, then %d launches each of graphs G, E, P and S\n", launches);
  return 0;
}
