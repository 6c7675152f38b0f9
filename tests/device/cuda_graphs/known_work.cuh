// The work of graph_workload.cu and graph_probe.cu: plain launches of the known kernels and two graphs of
// them, one captured from a stream and one built node by node (graph_workload.cu says what each holds).
#pragma once
#include "known_kernels.cuh"

struct KnownWork {
  static constexpr int kIterations = 1000;
  static constexpr int kFfmaBlocks = 528, kThreads = 256;
  static constexpr size_t kBytes = 256u << 20, kSmallBytes = 4u << 20;
  static constexpr size_t kCount4 = kBytes / sizeof(float4);

  float *a = nullptr, *b = nullptr, *c = nullptr, *d = nullptr, *e = nullptr, *out = nullptr;
  dim3 copy_grid{static_cast<unsigned>((kCount4 + kThreads - 1) / kThreads)};

  static float4* F4(float* p) { return reinterpret_cast<float4*>(p); }

  void Allocate() {
    CHECK(cudaMalloc(&a, kBytes));
    CHECK(cudaMalloc(&b, kBytes));
    CHECK(cudaMalloc(&c, kBytes));
    CHECK(cudaMalloc(&d, kSmallBytes));
    CHECK(cudaMalloc(&e, kSmallBytes));
    CHECK(cudaMalloc(&out, kFfmaBlocks * kThreads * sizeof(float)));
    CHECK(cudaMemset(a, 1, kBytes));
    CHECK(cudaMemset(c, 1, kBytes));
    CHECK(cudaDeviceSynchronize());
  }

  // The references: ffma(K), ffma(2K), copy A->B, scale C.
  void PlainLaunches(cudaStream_t stream) {
    known_ffma<<<kFfmaBlocks, kThreads, 0, stream>>>(out, kIterations);
    known_ffma<<<kFfmaBlocks, kThreads, 0, stream>>>(out, 2 * kIterations);
    known_copy<<<copy_grid, kThreads, 0, stream>>>(F4(a), F4(b), kCount4);
    known_scale<<<copy_grid, kThreads, 0, stream>>>(F4(c), kCount4);
    CHECK(cudaGetLastError());
  }

  // Graph G: ffma(K), memset D, copy A->B, memcpy D->E, scale C, captured from `stream`.
  cudaGraph_t Capture(cudaStream_t stream) {
    cudaGraph_t graph;
    CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    known_ffma<<<kFfmaBlocks, kThreads, 0, stream>>>(out, kIterations);
    CHECK(cudaMemsetAsync(d, 2, kSmallBytes, stream));
    known_copy<<<copy_grid, kThreads, 0, stream>>>(F4(a), F4(b), kCount4);
    CHECK(cudaMemcpyAsync(e, d, kSmallBytes, cudaMemcpyDeviceToDevice, stream));
    known_scale<<<copy_grid, kThreads, 0, stream>>>(F4(c), kCount4);
    CHECK(cudaStreamEndCapture(stream, &graph));
    return graph;
  }

  // Graph E: ffma(2K) -> {copy A->B, memset D, scale C}, built node by node.
  cudaGraph_t Build() {
    cudaGraph_t graph;
    CHECK(cudaGraphCreate(&graph, 0));
    static int iterations2 = 2 * kIterations;
    static size_t count = kCount4;
    static float4 *fa, *fb, *fc;
    static float* fout;
    fa = F4(a), fb = F4(b), fc = F4(c), fout = out;
    static void* ffma_args[] = {&fout, &iterations2};
    static void* copy_args[] = {&fa, &fb, &count};
    static void* scale_args[] = {&fc, &count};
    cudaKernelNodeParams ffma{
        reinterpret_cast<void*>(known_ffma), dim3(kFfmaBlocks), dim3(kThreads), 0, ffma_args, nullptr};
    cudaKernelNodeParams copy{reinterpret_cast<void*>(known_copy), copy_grid, dim3(kThreads), 0, copy_args, nullptr};
    cudaKernelNodeParams scale{reinterpret_cast<void*>(known_scale), copy_grid, dim3(kThreads), 0, scale_args, nullptr};
    cudaGraphNode_t root, copy_node, memset_node, scale_node;
    CHECK(cudaGraphAddKernelNode(&root, graph, nullptr, 0, &ffma));
    CHECK(cudaGraphAddKernelNode(&copy_node, graph, &root, 1, &copy));
    cudaMemsetParams memset{};
    memset.dst = d;
    memset.value = 3;
    memset.elementSize = 1;
    memset.width = kSmallBytes;
    memset.height = 1;
    CHECK(cudaGraphAddMemsetNode(&memset_node, graph, &root, 1, &memset));
    CHECK(cudaGraphAddKernelNode(&scale_node, graph, &root, 1, &scale));
    return graph;
  }

  // Graph P: ffma(K), copy A->B, scale C captured from `stream`: kernels only, so a launch's counters are
  // exactly those of the three kernels.
  cudaGraph_t CaptureKernelsOnly(cudaStream_t stream) {
    cudaGraph_t graph;
    CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    known_ffma<<<kFfmaBlocks, kThreads, 0, stream>>>(out, kIterations);
    known_copy<<<copy_grid, kThreads, 0, stream>>>(F4(a), F4(b), kCount4);
    known_scale<<<copy_grid, kThreads, 0, stream>>>(F4(c), kCount4);
    CHECK(cudaStreamEndCapture(stream, &graph));
    return graph;
  }

  // Graph S: one kernel node, copy A->B, built node by node: its launch is that kernel's sample.
  cudaGraph_t BuildSingleKernel() {
    cudaGraph_t graph;
    CHECK(cudaGraphCreate(&graph, 0));
    static size_t count = kCount4;
    static float4 *fa, *fb;
    fa = F4(a), fb = F4(b);
    static void* copy_args[] = {&fa, &fb, &count};
    cudaKernelNodeParams copy{reinterpret_cast<void*>(known_copy), copy_grid, dim3(kThreads), 0, copy_args, nullptr};
    cudaGraphNode_t node;
    CHECK(cudaGraphAddKernelNode(&node, graph, nullptr, 0, &copy));
    return graph;
  }

  static cudaGraphExec_t Instantiate(cudaGraph_t graph) {
    cudaGraphExec_t exec;
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
    return exec;
  }
};
