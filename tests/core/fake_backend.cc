#include "tests/core/fake_backend.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "core/backend.h"

namespace opengpa::fake {
namespace {

constexpr std::uint32_t kBlockOf[kHardwareCounterCount] = {0, 0, 1, 1, 2};

constexpr const char* kCatalog = R"json({
  "constants": {"SCALE": 4},
  "counters": [
    {"name": "FakeTotalWork", "group": "Fake", "description": "Cycles plus items.", "type": "uint64",
     "usage": "items", "formula": "FakeCycles + FakeItems"},
    {"name": "FakeBusyPercent", "group": "Fake", "description": "Busy over cycles.", "type": "float64",
     "usage": "percentage", "formula": "max(min(FakeBusy / FakeCycles * 100, 100), 0)"},
    {"name": "FakeBytesPerItem", "group": "Fake", "description": "Bytes per item.", "type": "float64",
     "usage": "ratio", "formula": "FakeBytes / FakeItems"},
    {"name": "FakeTimeMs", "group": "Timing", "description": "Time in milliseconds.", "type": "float64",
     "usage": "milliseconds", "formula": "FakeTime / 1000000"},
    {"name": "FakeScaledBytes", "group": "Fake", "description": "Bytes times SCALE times UNITS.", "type": "uint64",
     "usage": "bytes", "formula": "FakeBytes * SCALE * UNITS"},
    {"name": "FakeNegative", "group": "Fake", "description": "Always below zero: reads 0 as uint64.",
     "type": "uint64", "usage": "items", "formula": "0 - FakeItems"},
    {"name": "FakeNeedsMissing", "group": "Fake", "description": "Hidden: names an absent counter.",
     "type": "uint64", "usage": "items", "formula": "FakeAbsent * 2"}
  ]
})json";

// Which pass collects each requested counter: the k-th counter of a block goes to pass k / limit.
std::vector<GpaUInt32> PassOfEach(const std::vector<HardwareCounterIndex>& counters, std::uint32_t limit) {
  std::vector<GpaUInt32> pass_of;
  std::uint32_t used[kBlockCount] = {};
  for (HardwareCounterIndex h : counters) pass_of.push_back(used[kBlockOf[h]]++ / limit);
  return pass_of;
}

struct FakeCommandList : BackendCommandList {
  FakeCommandList(FakeDevice& device, GpaUInt32 pass, GpaCommandListType type)
      : device(device), pass(pass), type(type) {
    ++device.command_lists_alive;
  }
  ~FakeCommandList() override { --device.command_lists_alive; }
  FakeDevice& device;
  GpaUInt32 pass;
  GpaCommandListType type;
  SampleSlot open = 0xFFFFFFFFu;
  std::vector<SampleSlot> ended;
  bool closed = false;
};

class FakeSession : public BackendSession {
 public:
  FakeSession(FakeDevice& device, const std::vector<HardwareCounterIndex>& counters, bool streaming)
      : device_(device),
        counters_(counters),
        pass_of_(PassOfEach(counters, std::max(1u, device.block_limit))),
        streaming_(streaming) {
    GpaUInt32 passes = 1;
    for (GpaUInt32 p : pass_of_) passes = std::max(passes, p + 1);
    ended_.resize(passes);
    copies_.resize(passes);
    ++device_.sessions_alive;
  }
  ~FakeSession() override { --device_.sessions_alive; }

  GpaUInt32 PassCount() const override { return static_cast<GpaUInt32>(ended_.size()); }
  GpaStatus Begin() override { return device_.begin_session_status; }
  GpaStatus End() override { return device_.end_session_status; }

  GpaStatus BeginCommandList(GpaUInt32 pass, void*, GpaCommandListType type,
                             std::unique_ptr<BackendCommandList>* out) override {
    if (pass >= PassCount()) return kGpaStatusErrorFailed;
    if (device_.command_list_status != kGpaStatusOk) return device_.command_list_status;
    // Like a real backend sizing its query pool: room for every sample seen so far, before recording.
    if (ended_[pass].size() < slots_seen_) ended_[pass].resize(slots_seen_, 0);
    *out = std::make_unique<FakeCommandList>(device_, pass, type);
    return kGpaStatusOk;
  }
  GpaStatus EndCommandList(BackendCommandList& list) override {
    if (device_.command_list_status != kGpaStatusOk) return device_.command_list_status;
    auto& fake = static_cast<FakeCommandList&>(list);
    if (fake.closed) return kGpaStatusErrorFailed;
    fake.closed = true;
    return kGpaStatusOk;
  }
  GpaStatus BeginSample(BackendCommandList& list, SampleSlot slot) override {
    if (device_.throw_in_samples) throw std::bad_alloc();
    if (device_.sample_status != kGpaStatusOk) return device_.sample_status;
    auto& fake = static_cast<FakeCommandList&>(list);
    if (fake.closed || fake.open != 0xFFFFFFFFu) return kGpaStatusErrorFailed;
    fake.open = slot;
    return kGpaStatusOk;
  }
  GpaStatus EndSample(BackendCommandList& list, SampleSlot slot) override {
    if (device_.sample_status != kGpaStatusOk) return device_.sample_status;
    auto& fake = static_cast<FakeCommandList&>(list);
    if (fake.closed || fake.open != slot) return kGpaStatusErrorFailed;  // the core passed the wrong slot
    fake.open = 0xFFFFFFFFu;
    MarkEnded(fake.pass, slot);
    return kGpaStatusOk;
  }
  GpaStatus ContinueSample(SampleSlot slot, BackendCommandList& from, BackendCommandList& to) override {
    if (!device_.supports_continue) return kGpaStatusErrorApiNotSupported;
    auto& source = static_cast<FakeCommandList&>(from);
    auto& target = static_cast<FakeCommandList&>(to);
    if (source.open != slot || target.open != 0xFFFFFFFFu || source.pass != target.pass) return kGpaStatusErrorFailed;
    source.open = 0xFFFFFFFFu;
    target.open = slot;
    return kGpaStatusOk;
  }
  GpaStatus CopySecondarySamples(BackendCommandList& secondary, BackendCommandList& primary,
                                 const std::vector<std::pair<SampleSlot, SampleSlot>>& copies) override {
    if (!device_.supports_secondary) return kGpaStatusErrorApiNotSupported;
    auto& from = static_cast<FakeCommandList&>(secondary);
    auto& to = static_cast<FakeCommandList&>(primary);
    if (from.type != kGpaCommandListSecondary || to.type != kGpaCommandListPrimary || from.pass != to.pass) {
      return kGpaStatusErrorFailed;
    }
    for (const auto& [source, target] : copies) {
      copies_[to.pass][target] = source;
      MarkEnded(to.pass, target);
    }
    return kGpaStatusOk;
  }

  bool IsPassComplete(GpaUInt32) override { return device_.passes_complete.load(); }

  GpaStatus StartStreaming(const StreamingOptions& options) override {
    if (!streaming_ || stream_state_ != 0) return kGpaStatusErrorFailed;  // the core must not ask twice
    interval_ns_ = options.interval_ns;
    stream_state_ = 1;
    return kGpaStatusOk;
  }
  GpaStatus StopStreaming() override {
    if (stream_state_ != 1) return kGpaStatusErrorFailed;
    stream_state_ = 2;
    return kGpaStatusOk;
  }
  GpaStatus ReadStreamingSeries(StreamingSeries* series) override {
    if (stream_state_ != 2) return kGpaStatusErrorFailed;
    *series = StreamingSeries{};
    for (std::uint32_t i = 0; i < kStreamedSamples; ++i) {
      series->start_ns.push_back(kStreamBeginNs + i * interval_ns_);
      series->end_ns.push_back(kStreamBeginNs + (i + 1) * interval_ns_);
      for (HardwareCounterIndex h : counters_) series->values.push_back(FakeHardwareValue(h, i));
    }
    series->begin_ns = kStreamBeginNs;
    series->stop_ns = kStreamBeginNs + kStreamedSamples * interval_ns_;
    series->interval_ns = interval_ns_;
    series->covered_ns = kStreamedSamples * interval_ns_;
    return kGpaStatusOk;
  }

  bool SampleIncomplete(SampleSlot slot, std::string* why) const override {
    if (device_.incomplete_slot < 0 || slot != static_cast<SampleSlot>(device_.incomplete_slot)) return false;
    *why = "the fake device measured it in part";
    return true;
  }

  GpaStatus ReadResults(SampleSlot slot_count, std::vector<double>* values) override {
    ++device_.read_results_calls;
    if (device_.hold_reads.load()) {
      ++device_.reads_waiting;
      const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(20);
      while (device_.hold_reads.load() && std::chrono::steady_clock::now() < give_up) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
      --device_.reads_waiting;
    }
    if (device_.read_status != kGpaStatusOk) return device_.read_status;
    values->assign(static_cast<std::size_t>(slot_count) * counters_.size(), 0.0);
    if (streaming_) {  // the one sample is the whole stream: every counter summed over it
      for (std::size_t c = 0; c < counters_.size() && slot_count > 0; ++c) {
        for (std::uint32_t i = 0; i < kStreamedSamples; ++i) (*values)[c] += FakeHardwareValue(counters_[c], i);
      }
      return kGpaStatusOk;
    }
    for (SampleSlot slot = 0; slot < slot_count; ++slot) {
      for (std::size_t c = 0; c < counters_.size(); ++c) {
        const GpaUInt32 pass = pass_of_[c];
        if (!WasEnded(pass, slot)) continue;
        auto copy = copies_[pass].find(slot);
        const SampleSlot source = copy == copies_[pass].end() ? slot : copy->second;
        (*values)[slot * counters_.size() + c] = FakeHardwareValue(counters_[c], source);
      }
    }
    return kGpaStatusOk;
  }

 private:
  void MarkEnded(GpaUInt32 pass, SampleSlot slot) {
    slots_seen_ = std::max<std::size_t>(slots_seen_, slot + 1);
    auto& ended = ended_[pass];
    if (slot >= ended.size()) ended.resize(slot + 1, 0);
    ended[slot] = 1;
  }
  bool WasEnded(GpaUInt32 pass, SampleSlot slot) const { return slot < ended_[pass].size() && ended_[pass][slot] != 0; }

  FakeDevice& device_;
  std::vector<HardwareCounterIndex> counters_;
  std::vector<GpaUInt32> pass_of_;
  std::vector<std::vector<std::uint8_t>> ended_;  // [pass][slot]
  std::size_t slots_seen_ = 0;
  std::vector<std::map<SampleSlot, SampleSlot>> copies_;  // [pass]: primary slot -> secondary slot
  bool streaming_;
  int stream_state_ = 0;  // 0 not begun, 1 streaming, 2 stopped
  std::uint64_t interval_ns_ = 0;
};

class FakeContext : public BackendContext {
 public:
  explicit FakeContext(FakeDevice& device) : device_(device) {
    info_.name = "OpenGPA Fake Device (FAKE1)";
    info_.chip = "FAKE1";
    info_.vendor_id = 0x1234;
    info_.device_id = 0xF00D;
    info_.revision_id = 7;
    info_.generation = kGpaHwGenerationSoftware;
    info_.shape.compute_units = device.compute_units;
    info_.shape.simds = device.simds;
    info_.shape.waves_per_simd = device.waves_per_simd;
    info_.shape.vgprs_per_simd = device.vgprs_per_simd;
    info_.shape.lds_bytes_per_compute_unit = device.lds_bytes_per_compute_unit;
    const char* names[kHardwareCounterCount] = {"FakeCycles", "FakeItems", "FakeBytes", "FakeBusy", "FakeTime"};
    for (std::uint32_t h = 0; h < kHardwareCounterCount; ++h) {
      HardwareCounterInfo counter;
      counter.name = names[h];
      counter.group = "FakeBlock" + std::to_string(kBlockOf[h]);
      counter.description = std::string("Fake hardware counter ") + names[h];
      counter.data_type = h == 4 ? kGpaDataTypeFloat64 : kGpaDataTypeUint64;
      counter.usage = h == 4 ? kGpaUsageTypeNanoseconds : kGpaUsageTypeItems;
      counter.unit = "fakeblock" + std::to_string(kBlockOf[h]);
      hardware_.push_back(counter);
    }
  }

  const DeviceInfo& Device() const override { return info_; }
  GpaContextSampleTypeFlags SupportedSampleTypes() const override { return device_.sample_types; }
  const std::vector<HardwareCounterInfo>& HardwareCounters() const override { return hardware_; }
  std::vector<std::string_view> DerivedCatalogs() const override { return {kCatalog}; }
  std::vector<std::pair<std::string, double>> Constants() const override { return {{"UNITS", kUnitsConstant}}; }

  GpaStatus CountPasses(const std::vector<HardwareCounterIndex>& counters, GpaUInt32* passes) override {
    GpaUInt32 count = 1;
    for (GpaUInt32 p : PassOfEach(counters, std::max(1u, device_.block_limit))) count = std::max(count, p + 1);
    *passes = count;
    return kGpaStatusOk;
  }

  GpaStatus CheckStreamable(const std::vector<HardwareCounterIndex>& counters) override {
    if ((device_.sample_types & kGpaContextSampleTypeStreamingCounter) == 0)
      return kGpaStatusErrorIncompatibleSampleTypes;
    for (HardwareCounterIndex h : counters) {
      if (kBlockOf[h] == 2) return kGpaStatusErrorIncompatibleSampleTypes;
    }
    GpaUInt32 passes = 1;
    CountPasses(counters, &passes);
    return passes == 1 ? kGpaStatusOk : kGpaStatusErrorNotEnabled;
  }

  GpaStatus CreateSession(int type, const std::vector<HardwareCounterIndex>& counters,
                          std::unique_ptr<BackendSession>* out) override {
    const bool streaming = type == static_cast<int>(kGpaSessionSampleTypeStreamingCounter);
    *out = std::make_unique<FakeSession>(device_, counters, streaming);
    return kGpaStatusOk;
  }

 private:
  FakeDevice& device_;
  DeviceInfo info_;
  std::vector<HardwareCounterInfo> hardware_;
};

class FakeBackend : public Backend {
 public:
  GpaApiType Api() const override { return kGpaApiNoSupport; }
  bool HasCommandLists() const override { return true; }  // primaries and secondaries, like Vulkan
  GpaStatus OpenContext(void* api_context, GpaOpenContextFlags flags, std::unique_ptr<BackendContext>* out) override {
    auto* device = static_cast<FakeDevice*>(api_context);
    device->last_open_flags = flags;
    if (device->throw_in_open) throw std::runtime_error("fake device exploded");
    if (device->open_status != kGpaStatusOk) return device->open_status;
    *out = std::make_unique<FakeContext>(*device);
    return kGpaStatusOk;
  }
};

}  // namespace
}  // namespace opengpa::fake

namespace opengpa {
Backend& ActiveBackend() {
  static fake::FakeBackend backend;
  return backend;
}
}  // namespace opengpa
