// gpa4_cpp_client: gpa4_cpp_client (a GPA application in C++ over GpaApiManager) against GPA 4's headers
// (include/v4): the same library hands it the v4 function table, whose counter queries take the session. Before
// sampling for real it begins the session and aborts it (GpaAbortSession), which must leave the session ready to
// begin again with its counters; at the end GpaResetSession must leave no counter enabled.
//
// usage: gpa4_cpp_client vulkan|opengl|cuda   (GPA 4 has no OpenCL)
#include <chrono>
#include <cstring>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "client_workloads.h"
#include "gpu_performance_api/gpu_perf_api.h"
#include "gpu_performance_api/gpu_perf_api_interface_loader.h"
#include "gpu_performance_api/opengpa_ext.h"

// What gpu_perf_api_interface_loader.h asks a program to define once.
GpaApiManager* GpaApiManager::gpa_api_manager_ = nullptr;
GpaFuncTableInfo* gpa_function_table_info = nullptr;

namespace {

// The API numbers: kGpaApiCuda (opengpa_ext.h, 0x100) lies outside GpaApiType's range, and C++ may not load it as
// the enum (the macro is a GpaApiType prvalue, which a map initializer loads), so the table keeps ints and the
// chosen one becomes a GpaApiType only for GpaApiManager's calls.
constexpr int kCuda = OPENGPA_ENUM_EXTENSION_BASE + 0;
const std::map<std::string, int> kApis = {{"vulkan", kGpaApiVulkan}, {"opengl", kGpaApiOpengl}, {"cuda", kCuda}};

struct WorkloadDeleter {
  void operator()(ClientWorkload* workload) const { ClientWorkloadDestroy(workload); }
};
using Workload = std::unique_ptr<ClientWorkload, WorkloadDeleter>;

class Client {
 public:
  explicit Client(const GpaFunctionTable& gpa) : gpa_(gpa) {}

  // Every step of a profile; false (with the reason on stderr) at the first that fails.
  bool Profile(ClientWorkload& workload) {
    return Check(
               gpa_.GpaOpenContext(ClientWorkloadGpaContext(&workload), ClientWorkloadOpenFlags(&workload), &context_),
               "GpaOpenContext") &&
           DescribeDevice() &&
           Check(gpa_.GpaCreateSession(context_, kGpaSessionSampleTypeDiscreteCounter, &session_),
                 "GpaCreateSession") &&
           EnableCounters(workload) && CountPasses(workload) &&
           (ClientWorkloadCanSample(&workload) ? AbortOnce() && Sample(workload) && ReadResults(workload)
                                               : SamplingIsRefused()) &&
           ResetLeavesNoCounters();
  }

  ~Client() {
    if (session_ != nullptr) gpa_.GpaDeleteSession(session_);
    if (context_ != nullptr) gpa_.GpaCloseContext(context_);
  }

 private:
  bool Check(GpaStatus status, const char* what) const {
    if (status == kGpaStatusOk) return true;
    std::cerr << "gpa4_cpp_client: " << what << " returned " << status << " (" << gpa_.GpaGetStatusAsStr(status)
              << ")\n";
    return false;
  }

  // GpaAbortSession stops a begun session whatever its passes: it can then be begun again, counters kept.
  bool AbortOnce() {
    GpaUInt32 enabled = 0;
    if (!Check(gpa_.GpaBeginSession(session_), "GpaBeginSession") ||
        !Check(gpa_.GpaAbortSession(session_), "GpaAbortSession") ||
        !Check(gpa_.GpaGetNumEnabledCounters(session_, &enabled), "GpaGetNumEnabledCounters")) {
      return false;
    }
    if (enabled != enabled_) {
      std::cerr << "gpa4_cpp_client: " << enabled << " counters enabled after GpaAbortSession, expected " << enabled_
                << "\n";
      return false;
    }
    return true;
  }

  // GpaResetSession returns the session to its created state: no counter enabled.
  bool ResetLeavesNoCounters() {
    GpaUInt32 enabled = 1;
    if (!Check(gpa_.GpaResetSession(session_), "GpaResetSession") ||
        !Check(gpa_.GpaGetNumEnabledCounters(session_, &enabled), "GpaGetNumEnabledCounters")) {
      return false;
    }
    if (enabled != 0) {
      std::cerr << "gpa4_cpp_client: " << enabled << " counters still enabled after GpaResetSession\n";
      return false;
    }
    std::cout << "abort and reset behaved\n";
    return true;
  }

  bool DescribeDevice() {
    const char* name = nullptr;
    // Read as an int: a software device answers kGpaHwGenerationSoftware (opengpa_ext.h, 0x100), outside
    // GpaHwGeneration, which C++ may not load as the enum.
    int generation = kGpaHwGenerationNone;
    if (!Check(gpa_.GpaGetDeviceName(context_, &name), "GpaGetDeviceName") ||
        !Check(gpa_.GpaGetDeviceGeneration(context_, reinterpret_cast<GpaHwGeneration*>(&generation)),
               "GpaGetDeviceGeneration")) {
      return false;
    }
    std::cout << "device: " << name << " (generation " << generation << ")\n";
    return true;
  }

  bool EnableCounters(ClientWorkload& workload) {
    GpaUInt32 count = 0;
    if (!Check(gpa_.GpaGetNumCounters(session_, &count), "GpaGetNumCounters")) return false;
    std::cout << count << " counters\n";
    for (GpaUInt32 index = 0; index < count; ++index) {
      const char* name = nullptr;
      const char* group = nullptr;
      if (!Check(gpa_.GpaGetCounterName(session_, index, &name), "GpaGetCounterName") ||
          !Check(gpa_.GpaGetCounterGroup(session_, index, &group), "GpaGetCounterGroup")) {
        return false;
      }
      if (ClientWorkloadWantsCounter(&workload, name, group)) {
        if (!Check(gpa_.GpaEnableCounter(session_, index), "GpaEnableCounter")) return false;
        ++enabled_;
      }
    }
    return true;
  }

  bool CountPasses(ClientWorkload& workload) {
    if (!Check(gpa_.GpaGetPassCount(session_, &passes_), "GpaGetPassCount")) return false;
    std::cout << enabled_ << " counters enabled, " << passes_ << " pass(es)\n";
    if (enabled_ == 0 || passes_ != ClientWorkloadExpectedPasses(&workload)) {
      std::cerr << "gpa4_cpp_client: " << enabled_ << " counters in " << passes_ << " passes, expected some in "
                << ClientWorkloadExpectedPasses(&workload) << "\n";
      return false;
    }
    return true;
  }

  // An offline context lists and schedules counters; sampling needs the GPU.
  bool SamplingIsRefused() {
    const GpaStatus status = gpa_.GpaBeginSession(session_);
    if (status != kGpaStatusErrorHardwareNotSupported) {
      std::cerr << "gpa4_cpp_client: GpaBeginSession on an offline context returned " << status << "\n";
      return false;
    }
    std::cout << "sampling refused as expected: " << gpa_.GpaGetStatusAsStr(status) << "\n";
    return true;
  }

  bool Sample(ClientWorkload& workload) {
    if (!Check(gpa_.GpaBeginSession(session_), "GpaBeginSession")) return false;
    for (GpaUInt32 pass = 0; pass < passes_; ++pass) {
      void* command_list = ClientWorkloadBeginCommandList(&workload);
      GpaCommandListId list = nullptr;
      if (!Check(
              gpa_.GpaBeginCommandList(session_, pass, command_list, ClientWorkloadCommandListType(&workload), &list),
              "GpaBeginCommandList")) {
        return false;
      }
      for (GpaUInt32 sample = 0; sample < 2; ++sample) {
        if (!Check(gpa_.GpaBeginSample(sample, list), "GpaBeginSample")) return false;
        ClientWorkloadDoWork(&workload, command_list, sample);
        if (!Check(gpa_.GpaEndSample(list), "GpaEndSample")) return false;
      }
      if (!Check(gpa_.GpaEndCommandList(list), "GpaEndCommandList")) return false;
      if (!ClientWorkloadSubmit(&workload, command_list)) {
        std::cerr << "gpa4_cpp_client: pass " << pass << ": the work failed\n";
        return false;
      }
    }
    if (!Check(gpa_.GpaEndSession(session_), "GpaEndSession")) return false;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (gpa_.GpaIsSessionComplete(session_) != kGpaStatusOk) {
      if (std::chrono::steady_clock::now() > deadline) {
        std::cerr << "gpa4_cpp_client: the session did not complete within 60 s\n";
        return false;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return true;
  }

  bool ReadResults(ClientWorkload& workload) {
    GpaUInt32 sample_count = 0;
    if (!Check(gpa_.GpaGetSampleCount(session_, &sample_count), "GpaGetSampleCount")) return false;
    std::vector<const char*> names(enabled_);
    std::vector<GpaDataType> types(enabled_);
    for (GpaUInt32 e = 0; e < enabled_; ++e) {
      GpaUInt32 index = 0;
      if (!Check(gpa_.GpaGetEnabledIndex(session_, e, &index), "GpaGetEnabledIndex") ||
          !Check(gpa_.GpaGetCounterName(session_, index, &names[e]), "GpaGetCounterName") ||
          !Check(gpa_.GpaGetCounterDataType(session_, index, &types[e]), "GpaGetCounterDataType")) {
        return false;
      }
    }
    int checks = 0;
    for (GpaUInt32 s = 0; s < sample_count; ++s) {
      GpaUInt32 sample_id = 0;
      size_t size = 0;
      if (!Check(gpa_.GpaGetSampleId(session_, s, &sample_id), "GpaGetSampleId") ||
          !Check(gpa_.GpaGetSampleResultSize(session_, sample_id, &size), "GpaGetSampleResultSize")) {
        return false;
      }
      std::vector<GpaUInt64> raw(size / sizeof(GpaUInt64));
      if (raw.size() != enabled_ ||
          !Check(gpa_.GpaGetSampleResult(session_, sample_id, size, raw.data()), "GpaGetSampleResult")) {
        return false;
      }
      std::vector<double> values(enabled_);
      for (GpaUInt32 e = 0; e < enabled_; ++e) {
        if (types[e] == kGpaDataTypeFloat64) {
          std::memcpy(&values[e], &raw[e], sizeof(double));
        } else {
          values[e] = static_cast<double>(raw[e]);
        }
        std::cout << "sample " << sample_id << "  " << std::left << std::setw(24) << names[e] << " " << std::fixed
                  << std::setprecision(6) << values[e] << "\n";
      }
      char message[512] = "";
      const int made = ClientWorkloadCheckSample(&workload, sample_id, enabled_, names.data(), values.data(), message,
                                                 sizeof message);
      if (made < 0) {
        std::cerr << "gpa4_cpp_client: " << message << "\n";
        return false;
      }
      checks += made;
    }
    if (checks == 0) {
      std::cerr << "gpa4_cpp_client: no result was checked\n";
      return false;
    }
    std::cout << checks << " checks passed\n";
    return true;
  }

  const GpaFunctionTable& gpa_;
  GpaContextId context_ = nullptr;
  GpaSessionId session_ = nullptr;
  GpaUInt32 enabled_ = 0;
  GpaUInt32 passes_ = 0;
};

void LogGpa(GpaLoggingType type, const char* message) {
  std::cerr << "GPA " << ((type & kGpaLoggingError) ? "error" : "message") << ": " << message << "\n";
}

}  // namespace

int main(int argc, char** argv) {
  const auto api = argc == 2 ? kApis.find(argv[1]) : kApis.end();
  if (api == kApis.end()) {
    std::cerr << "usage: gpa4_cpp_client vulkan|opengl|cuda\n";
    return 2;
  }
  // AMD's C++ loader takes a GpaApiType: kGpaApiCuda in one is undefined C++ (docs/sanitizers.md), whatever
  // OpenGPA does, so the CUDA run of this client is left out of the sanitizer run; the others are in range.
  const GpaApiType gpa_api = static_cast<GpaApiType>(api->second);
  GpaApiManager* manager = GpaApiManager::Instance();
  if (manager->LoadApi(gpa_api) != kGpaStatusOk) {
    std::cerr << "gpa4_cpp_client: cannot load " << manager->GetLibraryFileName(gpa_api) << " (tried "
              << manager->GetLibraryFullPath(gpa_api) << ", then the loader's search path): " << manager->GetLastError()
              << "\n";
    return 1;
  }
  GpaFunctionTable* gpa = manager->GetFunctionTable(gpa_api);
  std::cout << "loaded " << manager->GetLibraryFileName(gpa_api) << "\n";
  gpa->GpaRegisterLoggingCallback(kGpaLoggingErrorAndMessage, LogGpa);
  if (gpa->GpaInitialize(kGpaInitializeDefaultBit) != kGpaStatusOk) return 1;

  bool passed = false;
  {
    char error[512] = "";
    Workload workload(ClientWorkloadCreateByName(api->first.c_str(), error, sizeof error));
    if (!workload) {
      std::cerr << "gpa4_cpp_client: no " << api->first << " device: " << error << "\n";
    } else {
      Client client(*gpa);  // closes its session and context before the workload goes
      passed = client.Profile(*workload);
    }
  }
  if (gpa->GpaDestroy() != kGpaStatusOk) passed = false;
  manager->UnloadApi(gpa_api);
  GpaApiManager::DeleteInstance();
  if (passed) std::cout << "gpa4_cpp_client " << api->first << ": passed\n";
  return passed ? 0 : 1;
}
