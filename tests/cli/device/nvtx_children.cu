// A CUDA program for `opengpa profile --nvtx-include` and child processes on the GPU (tests/cli/device/
// run_nvtx_children.sh): kernels inside and outside NVTX push/pop ranges of the default domain and of a
// registered one, a range pushed before the first CUDA call, and a child that the program forks and execs
// (it inherits CUDA_INJECTION64_PATH) launching kernels of its own. Each kernel's grid is fixed, so its
// instruction count is the same in every launch and can be compared with ncu's launch by launch.
//   nvtx_children          the parent: launches 0..4, then the child, then launch 5
//   nvtx_children child    the child: launch 0 outside any range, launch 1 inside "outer"
#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

__global__ void add_one(float* data, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] += 1.0f;
}

__global__ void scale(float* data, int n, float factor) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= factor;
}

namespace {

constexpr int kElements = 1 << 16;

bool Check(cudaError_t status, const char* what) {
  if (status == cudaSuccess) return true;
  std::fprintf(stderr, "nvtx_children: %s: %s\n", what, cudaGetErrorString(status));
  return false;
}

void AddOne(float* data) { add_one<<<kElements / 128, 128>>>(data, kElements); }
void Scale(float* data) { scale<<<kElements / 256, 256>>>(data, kElements, 2.0f); }

int Child() {
  float* data = nullptr;
  if (!Check(cudaMalloc(&data, kElements * sizeof(float)), "cudaMalloc")) return 1;
  AddOne(data);  // child launch 0: no range
  nvtxRangePushA("outer");
  AddOne(data);  // child launch 1: outer
  nvtxRangePop();
  const bool ok = Check(cudaDeviceSynchronize(), "child kernels");
  cudaFree(data);
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "child") == 0) return Child();
  nvtxRangePushA("outer");  // before the program's first CUDA call
  float* data = nullptr;
  if (!Check(cudaMalloc(&data, kElements * sizeof(float)), "cudaMalloc")) return 1;
  AddOne(data);  // launch 0: outer
  nvtxRangePop();
  AddOne(data);  // launch 1: no range
  nvtxDomainHandle_t domain = nvtxDomainCreateA("mylib");
  nvtxEventAttributes_t attributes{};
  attributes.version = NVTX_VERSION;
  attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  attributes.messageType = NVTX_MESSAGE_TYPE_ASCII;
  attributes.message.ascii = "work";
  nvtxDomainRangePushEx(domain, &attributes);
  Scale(data);  // launch 2: mylib@work
  nvtxDomainRangePop(domain);
  nvtxRangePushA("outer");
  nvtxRangePushA("inner");
  Scale(data);  // launch 3: outer > inner
  nvtxRangePop();
  nvtxRangePop();
  nvtxRangePushA("inner");
  AddOne(data);  // launch 4: inner
  nvtxRangePop();
  if (!Check(cudaDeviceSynchronize(), "parent kernels")) return 1;
  std::fflush(nullptr);
  const pid_t child = fork();
  if (child == 0) {
    execl("/proc/self/exe", argv[0], "child", static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  waitpid(child, &status, 0);
  AddOne(data);  // launch 5: no range, after the child
  const bool ok = Check(cudaDeviceSynchronize(), "last kernel");
  cudaFree(data);
  std::printf("nvtx_children: parent %d, child %d exited %d\n", static_cast<int>(getpid()), static_cast<int>(child),
              WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  return ok && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
