// CUPTI's own cost, without OpenGPA: times each Range Profiler phase (user range, user replay) for range
// capacities 16, 256 and 2048, with and without a tiny kernel in each range. docs/cuda.md compares these
// numbers with GpaBeginSample/GpaEndSample. Build (development machine) and run (GPU machine):
//   nvcc -std=c++17 -O2 -arch=sm_90 tests/device/cuda/cupti_range_cost.cu -o cupti_range_cost \
//        -L/usr/local/cuda/lib64 -lcupti -L/usr/local/cuda/lib64/stubs -lcuda
//   LD_LIBRARY_PATH=<folder of libcupti.so.13> ./cupti_range_cost
#include <cuda.h>
#include <cuda_runtime.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>
using C = std::chrono::steady_clock;
static double ms(C::time_point a, C::time_point b) { return std::chrono::duration<double, std::milli>(b - a).count(); }
__global__ void k(float* p) { p[threadIdx.x] += 1.0f; }
int main() {
  float* d;
  cudaMalloc(&d, 1024);
  CUcontext ctx;
  cuCtxGetCurrent(&ctx);
  CUpti_Profiler_Initialize_Params ip{CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
  cuptiProfilerInitialize(&ip);
  CUpti_Device_GetChipName_Params cn{CUpti_Device_GetChipName_Params_STRUCT_SIZE};
  cuptiDeviceGetChipName(&cn);
  const char* metrics[] = {"gpu__time_duration.sum", "dram__bytes_read.sum", "smsp__inst_executed.sum",
                           "lts__t_request_hit_rate.pct"};
  CUpti_Profiler_Host_Initialize_Params hi{CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
  hi.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  hi.pChipName = cn.pChipName;
  cuptiProfilerHostInitialize(&hi);
  CUpti_Profiler_Host_ConfigAddMetrics_Params am{CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
  am.pHostObject = hi.pHostObject;
  am.ppMetricNames = metrics;
  am.numMetrics = 4;
  cuptiProfilerHostConfigAddMetrics(&am);
  CUpti_Profiler_Host_GetConfigImageSize_Params cs{CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE};
  cs.pHostObject = hi.pHostObject;
  cuptiProfilerHostGetConfigImageSize(&cs);
  std::vector<uint8_t> cfg(cs.configImageSize);
  CUpti_Profiler_Host_GetConfigImage_Params gi{CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE};
  gi.pHostObject = hi.pHostObject;
  gi.configImageSize = cfg.size();
  gi.pConfigImage = cfg.data();
  cuptiProfilerHostGetConfigImage(&gi);
  for (size_t capacity : {16, 256, 2048}) {
    for (int with_kernel : {1, 0}) {
      auto t0 = C::now();
      CUpti_RangeProfiler_Enable_Params en{CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
      en.ctx = ctx;
      cuptiRangeProfilerEnable(&en);
      auto t1 = C::now();
      CUpti_RangeProfiler_GetCounterDataSize_Params ds{CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
      ds.pRangeProfilerObject = en.pRangeProfilerObject;
      ds.pMetricNames = metrics;
      ds.numMetrics = 4;
      ds.maxNumOfRanges = capacity;
      ds.maxNumRangeTreeNodes = capacity;
      cuptiRangeProfilerGetCounterDataSize(&ds);
      std::vector<uint8_t> cd(ds.counterDataSize);
      CUpti_RangeProfiler_CounterDataImage_Initialize_Params ci{
          CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE};
      ci.pRangeProfilerObject = en.pRangeProfilerObject;
      ci.counterDataSize = cd.size();
      ci.pCounterData = cd.data();
      cuptiRangeProfilerCounterDataImageInitialize(&ci);
      auto t2 = C::now();
      CUpti_RangeProfiler_SetConfig_Params sc{CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE};
      sc.pRangeProfilerObject = en.pRangeProfilerObject;
      sc.configSize = cfg.size();
      sc.pConfig = cfg.data();
      sc.counterDataImageSize = cd.size();
      sc.pCounterDataImage = cd.data();
      sc.range = CUPTI_UserRange;
      sc.replayMode = CUPTI_UserReplay;
      sc.maxRangesPerPass = capacity;
      sc.numNestingLevels = 1;
      sc.minNestingLevel = 1;
      sc.targetNestingLevel = 1;
      CUptiResult rs = cuptiRangeProfilerSetConfig(&sc);
      auto t3 = C::now();
      CUpti_RangeProfiler_Start_Params st{CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
      st.pRangeProfilerObject = en.pRangeProfilerObject;
      cuptiRangeProfilerStart(&st);
      auto t4 = C::now();
      std::vector<double> push, pop;
      const int n = std::min<int>(capacity, 200);
      for (int i = 0; i < n; ++i) {
        CUpti_RangeProfiler_PushRange_Params pu{CUpti_RangeProfiler_PushRange_Params_STRUCT_SIZE};
        pu.pRangeProfilerObject = en.pRangeProfilerObject;
        pu.pRangeName = "r";
        auto a = C::now();
        cuptiRangeProfilerPushRange(&pu);
        auto b = C::now();
        if (with_kernel) k<<<1, 32>>>(d);
        CUpti_RangeProfiler_PopRange_Params po{CUpti_RangeProfiler_PopRange_Params_STRUCT_SIZE};
        po.pRangeProfilerObject = en.pRangeProfilerObject;
        auto c = C::now();
        cuptiRangeProfilerPopRange(&po);
        auto e = C::now();
        push.push_back(ms(a, b) * 1e3);
        pop.push_back(ms(c, e) * 1e3);
      }
      auto t5 = C::now();
      CUpti_RangeProfiler_Stop_Params sp{CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
      sp.pRangeProfilerObject = en.pRangeProfilerObject;
      cuptiRangeProfilerStop(&sp);
      auto t6 = C::now();
      CUpti_RangeProfiler_DecodeData_Params dd{CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
      dd.pRangeProfilerObject = en.pRangeProfilerObject;
      cuptiRangeProfilerDecodeData(&dd);
      auto t7 = C::now();
      CUpti_RangeProfiler_Disable_Params di{CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
      di.pRangeProfilerObject = en.pRangeProfilerObject;
      cuptiRangeProfilerDisable(&di);
      auto t8 = C::now();
      std::sort(push.begin(), push.end());
      std::sort(pop.begin(), pop.end());
      printf(
          "capacity %4zu kernel %d: image %.1f MB, enable %.1f ms, image init %.1f ms, setconfig %.1f ms (%d), start "
          "%.2f ms, %d ranges %.1f ms (push median %.1f us, pop median %.1f us), stop %.2f ms, decode %.1f ms, disable "
          "%.1f ms\n",
          capacity, with_kernel, cd.size() / 1e6, ms(t0, t1), ms(t1, t2), ms(t2, t3), (int)rs, ms(t3, t4), n,
          ms(t4, t5), push[n / 2], pop[n / 2], ms(t5, t6), ms(t6, t7), ms(t7, t8));
      fflush(stdout);
    }
  }
  return 0;
}
