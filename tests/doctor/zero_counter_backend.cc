// A stand-in libGPUPerfAPIVK.so for the doctor's tests: the real entry layer and core over a backend that accepts
// any Vulkan device, offers GPUTime, CSThreads, VSVerticesIn and PSPixelsIn, records nothing and reads every value
// as 0, the way a driver (or a layer in front of it) that drops GPA's queries looks from the application's side.
// `opengpa doctor` must then fail the Vulkan checks and name the cause (tests/doctor/doctor_checks.py).
#include <memory>
#include <string_view>
#include <vector>

#include "core/backend.h"

namespace opengpa::doctor_test {
namespace {

constexpr std::string_view kCatalog = R"JSON({
  "constants": {},
  "counters": [
    {"name": "GPUTime", "group": "Timing", "type": "float64", "usage": "nanoseconds",
     "description": "Always 0 (doctor test driver).", "formula": "zero_time_ns"},
    {"name": "CSThreads", "group": "ComputeShader", "type": "float64", "usage": "items",
     "description": "Always 0 (doctor test driver).", "formula": "zero_compute_invocations"},
    {"name": "VSVerticesIn", "group": "VertexShader", "type": "float64", "usage": "items",
     "description": "Always 0 (doctor test driver).", "formula": "zero_vertex_invocations"},
    {"name": "PSPixelsIn", "group": "PixelShader", "type": "float64", "usage": "items",
     "description": "Always 0 (doctor test driver).", "formula": "zero_fragment_invocations"}
  ]
})JSON";

class ZeroCommandList : public BackendCommandList {};

class ZeroSession : public BackendSession {
 public:
  explicit ZeroSession(std::size_t counters) : counters_(counters) {}
  GpaUInt32 PassCount() const override { return 1; }
  GpaStatus Begin() override { return kGpaStatusOk; }
  GpaStatus End() override { return kGpaStatusOk; }
  GpaStatus BeginCommandList(GpaUInt32, void*, GpaCommandListType, std::unique_ptr<BackendCommandList>* out) override {
    *out = std::make_unique<ZeroCommandList>();
    return kGpaStatusOk;
  }
  GpaStatus EndCommandList(BackendCommandList&) override { return kGpaStatusOk; }
  GpaStatus BeginSample(BackendCommandList&, SampleSlot) override { return kGpaStatusOk; }
  GpaStatus EndSample(BackendCommandList&, SampleSlot) override { return kGpaStatusOk; }
  bool IsPassComplete(GpaUInt32) override { return true; }
  GpaStatus ReadResults(SampleSlot slot_count, std::vector<double>* values) override {
    values->assign(static_cast<std::size_t>(slot_count) * counters_, 0.0);
    return kGpaStatusOk;
  }

 private:
  std::size_t counters_;
};

class ZeroContext : public BackendContext {
 public:
  ZeroContext() {
    device_.name = "OpenGPA doctor test driver (every counter reads 0)";
    device_.chip = "zero";
    device_.generation = kGpaHwGenerationSoftware;
    for (const char* name :
         {"zero_time_ns", "zero_compute_invocations", "zero_vertex_invocations", "zero_fragment_invocations"}) {
      HardwareCounterInfo counter;
      counter.name = name;
      counter.group = "Zero";
      counter.description = "Always 0";
      hardware_.push_back(counter);
    }
  }
  const DeviceInfo& Device() const override { return device_; }
  GpaContextSampleTypeFlags SupportedSampleTypes() const override { return kGpaContextSampleTypeDiscreteCounter; }
  const std::vector<HardwareCounterInfo>& HardwareCounters() const override { return hardware_; }
  std::vector<std::string_view> DerivedCatalogs() const override { return {kCatalog}; }
  GpaStatus CountPasses(const std::vector<HardwareCounterIndex>&, GpaUInt32* passes) override {
    *passes = 1;
    return kGpaStatusOk;
  }
  GpaStatus CreateSession(int, const std::vector<HardwareCounterIndex>& counters,
                          std::unique_ptr<BackendSession>* out) override {
    *out = std::make_unique<ZeroSession>(counters.size());
    return kGpaStatusOk;
  }

 private:
  DeviceInfo device_;
  std::vector<HardwareCounterInfo> hardware_;
};

class ZeroBackend : public Backend {
 public:
  GpaApiType Api() const override { return kGpaApiVulkan; }
  bool HasCommandLists() const override { return true; }
  GpaStatus OpenContext(void*, GpaOpenContextFlags, std::unique_ptr<BackendContext>* out) override {
    *out = std::make_unique<ZeroContext>();
    return kGpaStatusOk;
  }
};

}  // namespace
}  // namespace opengpa::doctor_test

namespace opengpa {
Backend& ActiveBackend() {
  static doctor_test::ZeroBackend backend;
  return backend;
}
}  // namespace opengpa
