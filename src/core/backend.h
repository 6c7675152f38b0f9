// The contract between the API-independent core and one graphics/compute API backend.
//
// The core owns every GPA object (contexts, sessions, command lists, samples), checks arguments and
// state, and turns hardware values into derived counters. A backend only talks to the driver:
// it says which hardware counters a device has, how many passes a set of them takes, records
// samples into the application's command lists, and reads raw values back.
//
// Samples reach a backend as dense slots: the core numbers every sample id of a session 0, 1, 2...
// in the order first seen, and a sample keeps its slot in every pass.
#ifndef OPENGPA_CORE_BACKEND_H_
#define OPENGPA_CORE_BACKEND_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "counters/hardware_counter.h"
#include "gpu_performance_api/gpu_perf_api_types.h"
#include "gpu_performance_api/opengpa_ext.h"  // kGpaApiCuda, kGpaHwGenerationSoftware, streaming sample types

namespace opengpa {

using SampleSlot = std::uint32_t;

// The execution resources GPA 4's device-limit queries report, in GPA's terms. On NVIDIA a compute unit
// is an SM and a SIMD one of its sub-partitions (SMSPs), each with its own warp slots and register file.
// GpaUpdateDeviceInformation overrides the first four.
struct DeviceShape {
  GpaUInt32 shader_engines = 0;              // NVIDIA: graphics processing clusters (not exposed by CUDA: 0)
  GpaUInt32 compute_units = 0;               // SMs
  GpaUInt32 simds = 0;                       // SM sub-partitions, all SMs together
  GpaUInt32 waves_per_simd = 0;              // warp slots per sub-partition
  GpaUInt32 vgprs_per_simd = 0;              // 32-bit registers per sub-partition
  GpaUInt32 lds_bytes_per_compute_unit = 0;  // shared memory per SM

  GpaUInt32 MaxWaveSlots() const { return simds * waves_per_simd; }
  GpaUInt32 MaxVgprs() const { return simds * vgprs_per_simd; }
  GpaUInt32 MaxLdsBytes() const { return compute_units * lds_bytes_per_compute_unit; }
};

struct DeviceInfo {
  std::string name;  // what GpaGetDeviceName returns, e.g. "NVIDIA H100 80GB HBM3 (GH100)"
  std::string chip;  // chip or driver family, e.g. "GH100", "llvmpipe"; may be empty
  GpaUInt32 vendor_id = 0;
  GpaUInt32 device_id = 0;
  GpaUInt32 revision_id = 0;
  GpaHwGeneration generation = kGpaHwGenerationNone;
  DeviceShape shape;  // zero where the API does not say (software drivers, offline chips)
};

// How a streaming session (kGpaSessionSampleTypeStreamingCounter) samples: what the caller asked for through
// GpaSpmSetSampleInterval / GpaSpmSetDuration (GPA 4) or OpenGpaSetStreamingOptions (opengpa_ext.h), or the
// defaults. Zero: the backend's choice.
struct StreamingOptions {
  std::uint64_t interval_ns = 100'000;      // GPU time between samples
  std::uint64_t duration_ns = 0;            // how long the caller expects to sample (sizes the buffer), 0: unknown
  std::uint64_t hardware_buffer_bytes = 0;  // where samples wait for the host; 0: sized from the above
};

// What a streaming session sampled: sample i spans [start_ns[i], end_ns[i]] on the GPU's clock (ns) and has
// one raw value per hardware counter of the session (values, rows in CreateSession's counter order).
struct StreamingSeries {
  std::vector<std::uint64_t> start_ns;
  std::vector<std::uint64_t> end_ns;
  std::vector<double> values;
  std::uint64_t begin_ns = 0;  // when sampling started and stopped (the host's view: cuptiGetTimestamp on CUDA)
  std::uint64_t stop_ns = 0;
  std::uint64_t interval_ns = 0;
  std::uint64_t lost_samples = 0;  // samples lost to the buffer (counted, and logged by the backend)
  std::uint64_t overflows = 0;     // times the hardware buffer reported an overflow
  std::uint64_t covered_ns = 0;    // what the samples cover of stop_ns - begin_ns
};

// The application's command list as the backend sees it (a VkCommandBuffer, a CUPTI pass, ...).
class BackendCommandList {
 public:
  virtual ~BackendCommandList() = default;
};

class BackendSession {
 public:
  virtual ~BackendSession() = default;

  // Passes needed for the counters the session was created with (>= 1).
  virtual GpaUInt32 PassCount() const = 0;

  [[nodiscard]] virtual GpaStatus Begin() = 0;
  [[nodiscard]] virtual GpaStatus End() = 0;

  // `api_list` is the application's command buffer, or nullptr with kGpaCommandListNone.
  [[nodiscard]] virtual GpaStatus BeginCommandList(GpaUInt32 pass, void* api_list, GpaCommandListType type,
                                                   std::unique_ptr<BackendCommandList>* out) = 0;
  [[nodiscard]] virtual GpaStatus EndCommandList(BackendCommandList& list) = 0;

  [[nodiscard]] virtual GpaStatus BeginSample(BackendCommandList& list, SampleSlot slot) = 0;
  [[nodiscard]] virtual GpaStatus EndSample(BackendCommandList& list, SampleSlot slot) = 0;

  // A sample begun on `from` is ended on `to` (both primaries of the same pass).
  [[nodiscard]] virtual GpaStatus ContinueSample(SampleSlot /*slot*/, BackendCommandList& /*from*/,
                                                 BackendCommandList& /*to*/) {
    return kGpaStatusErrorApiNotSupported;
  }
  // Samples recorded on a secondary list are made results of the primary that executes it:
  // copies[i] = {slot on the secondary, new slot on the primary}.
  [[nodiscard]] virtual GpaStatus CopySecondarySamples(
      BackendCommandList& /*secondary*/, BackendCommandList& /*primary*/,
      const std::vector<std::pair<SampleSlot, SampleSlot>>& /*copies*/) {
    return kGpaStatusErrorApiNotSupported;
  }

  // Streaming sessions only (a session CreateSession made for kGpaSessionSampleTypeStreamingCounter): start
  // sampling the session's counters every options.interval_ns, stop (after the work submitted so far), and the
  // samples once stopped.
  [[nodiscard]] virtual GpaStatus StartStreaming(const StreamingOptions& /*options*/) {
    return kGpaStatusErrorApiNotSupported;
  }
  [[nodiscard]] virtual GpaStatus StopStreaming() { return kGpaStatusErrorApiNotSupported; }
  [[nodiscard]] virtual GpaStatus ReadStreamingSeries(StreamingSeries* /*series*/) {
    return kGpaStatusErrorApiNotSupported;
  }

  // Non-blocking: have the GPU commands of this pass finished?
  virtual bool IsPassComplete(GpaUInt32 pass) = 0;

  // Blocking read of all passes: values->size() becomes slot_count * counter count, row-major by slot,
  // columns in the order of the counters given to BackendContext::CreateSession.
  // Slots the backend never saw (e.g. secondary-only samples) may be left 0.
  [[nodiscard]] virtual GpaStatus ReadResults(SampleSlot slot_count, std::vector<double>* values) = 0;
  // After ReadResults: a slot whose values could not be measured whole while the others were (NVIDIA's sampler
  // triggers that ran ahead of a sample's work, nvidia/engine_triggers.h); its row is left 0, and reading it gives
  // kGpaStatusErrorReadingSampleResult with `why`.
  virtual bool SampleIncomplete(SampleSlot /*slot*/, std::string* /*why*/) const { return false; }
};

// A session that only streams (GPA 4's streaming counters): one pass, command lists that carry nothing, and no
// samples; the core drives it through StartStreaming/StopStreaming/ReadStreamingSeries, which the backend
// implements with IsPassComplete and ReadResults (the stream as GPA v3's one sample).
class StreamingOnlySession : public BackendSession {
 public:
  GpaUInt32 PassCount() const override { return 1; }
  [[nodiscard]] GpaStatus Begin() override { return kGpaStatusOk; }
  [[nodiscard]] GpaStatus End() override { return kGpaStatusOk; }
  [[nodiscard]] GpaStatus BeginCommandList(GpaUInt32 /*pass*/, void* /*api_list*/, GpaCommandListType /*type*/,
                                           std::unique_ptr<BackendCommandList>* out) override {
    *out = std::make_unique<BackendCommandList>();
    return kGpaStatusOk;
  }
  [[nodiscard]] GpaStatus EndCommandList(BackendCommandList& /*list*/) override { return kGpaStatusOk; }
  [[nodiscard]] GpaStatus BeginSample(BackendCommandList& /*list*/, SampleSlot /*slot*/) override {
    return kGpaStatusErrorApiNotSupported;
  }
  [[nodiscard]] GpaStatus EndSample(BackendCommandList& /*list*/, SampleSlot /*slot*/) override {
    return kGpaStatusErrorApiNotSupported;
  }
};

class BackendContext {
 public:
  virtual ~BackendContext() = default;

  virtual const DeviceInfo& Device() const = 0;
  virtual GpaContextSampleTypeFlags SupportedSampleTypes() const = 0;
  virtual const std::vector<HardwareCounterInfo>& HardwareCounters() const = 0;

  // JSON catalog(s) of derived (public) counters for this device; see catalogs/README.md.
  // A derived counter whose formula names a counter this device lacks is hidden, not an error.
  virtual std::vector<std::string_view> DerivedCatalogs() const = 0;
  // Named device constants formulas may use (e.g. {"SM_COUNT", 132}).
  virtual std::vector<std::pair<std::string, double>> Constants() const { return {}; }

  // How many passes collecting exactly `counters` takes.
  [[nodiscard]] virtual GpaStatus CountPasses(const std::vector<HardwareCounterIndex>& counters, GpaUInt32* passes) = 0;

  // Whether a streaming session can sample exactly `counters` together (GpaEnableCounter asks before adding
  // one). kGpaStatusOk, or the reason logged: kGpaStatusErrorIncompatibleSampleTypes for a counter that cannot
  // be streamed, kGpaStatusErrorNotEnabled for a set that does not fit one streaming pass.
  [[nodiscard]] virtual GpaStatus CheckStreamable(const std::vector<HardwareCounterIndex>& /*counters*/) {
    return kGpaStatusErrorIncompatibleSampleTypes;
  }

  // `type` is a GpaSessionSampleType's value as an int: OpenGPA's extension types (opengpa_ext.h) lie outside
  // the C enum's range, so an enum object may not hold them.
  [[nodiscard]] virtual GpaStatus CreateSession(int type, const std::vector<HardwareCounterIndex>& counters,
                                                std::unique_ptr<BackendSession>* out) = 0;
};

// One per libGPUPerfAPI<X>.so.
class Backend {
 public:
  virtual ~Backend() = default;
  virtual GpaApiType Api() const = 0;
  // Whether the API records into command lists the application owns (Vulkan). Without them,
  // GpaContinueSampleOnCommandList and GpaCopySecondarySamples are kGpaStatusErrorApiNotSupported outright.
  virtual bool HasCommandLists() const { return false; }
  [[nodiscard]] virtual GpaStatus Initialize(GpaInitializeFlags /*flags*/) { return kGpaStatusOk; }
  // GpaOpenContext bits from kGpaOpenContextApiSpecificOptionsStart (0x10000000) up that this API defines
  // (Vulkan: GPA 4's kGpaOpenContextVkUseInfoType2); every other bit there is refused.
  virtual GpaOpenContextFlags ApiSpecificOpenContextBits() const { return 0; }
  [[nodiscard]] virtual GpaStatus Destroy() { return kGpaStatusOk; }
  // `api_context` is what the application passed to GpaOpenContext (already checked non-null).
  [[nodiscard]] virtual GpaStatus OpenContext(void* api_context, GpaOpenContextFlags flags,
                                              std::unique_ptr<BackendContext>* out) = 0;
};

// Defined once by each backend library; the entry layer calls it.
Backend& ActiveBackend();

}  // namespace opengpa

#endif  // OPENGPA_CORE_BACKEND_H_
