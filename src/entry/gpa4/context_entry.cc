// GPA 4's context calls: GpaInitialize and GpaOpenContext with v4's flags, the sample-type bits, the device limits.
#include "entry/gpa4/core_bridge.h"
#include "entry/gpa4/gpa4_entry_points.h"
#include "entry/gpa4/v3_entry_points.h"
#include "platform/guarded.h"

namespace opengpa::gpa4 {
namespace {

constexpr GpaInitializeFlags kKnownInitializeBits =
    kGpaInitializeSimultaneousQueuesEnableBit | kGpaInitializeEnableSqttBit;

// GPA v3's two obsolete GpaOpenContext bits, which GPA 4 dropped (v3 accepts them without effect).
constexpr GpaOpenContextFlags kV3ObsoleteOpenContextBits = 0x02 | 0x04;

}  // namespace

GpaStatus GpaInitialize(GpaInitializeFlags flags) {
  return opengpa::Guarded("GpaInitialize", [&] {
    if ((flags & ~kKnownInitializeBits) != 0) {
      return LogError(kGpaStatusErrorInvalidParameter, "GpaInitialize: flags {:#x} has unknown bits {:#x}", flags,
                      flags & ~kKnownInitializeBits);
    }
    if ((flags & kGpaInitializeEnableSqttBit) == kGpaInitializeEnableSqttBit) {
      // No OpenGPA context offers SQTT (docs/gpa4.md): sessions of that type are refused at GpaCreateSession.
      Log(kGpaLoggingMessage,
          "GpaInitialize: kGpaInitializeEnableSqttBit asks for SQTT, which no OpenGPA context offers");
    }
    return ::GpaInitialize(flags & kGpaInitializeSimultaneousQueuesEnableBit);
  });
}

GpaStatus GpaOpenContext(void* api_context, GpaOpenContextFlags flags, GpaContextId* context_id) {
  return opengpa::Guarded("GpaOpenContext", [&] {
    if ((flags & kV3ObsoleteOpenContextBits) != 0) {
      return LogError(kGpaStatusErrorInvalidParameter,
                      "GpaOpenContext: flags {:#x} has bits {:#x}, which GPA 4 does not define", flags,
                      flags & kV3ObsoleteOpenContextBits);
    }
    return ::GpaOpenContext(api_context, flags, context_id);
  });
}

GpaStatus GpaGetSupportedSampleTypes(GpaContextId context_id, GpaContextSampleTypeFlags* sample_types) {
  const GpaStatus status = ::GpaGetSupportedSampleTypes(context_id, sample_types);
  // v3 gives discrete counters no bit (its value is 0); GPA 4 gives them bit 0. The other bits mean the same.
  if (status == kGpaStatusOk) *sample_types |= kGpaContextSampleTypeDiscreteCounter;
  return status;
}

GpaStatus GpaUpdateDeviceInformation(GpaContextId context_id, GpaUInt32 num_shader_engines, GpaUInt32 num_compute_units,
                                     GpaUInt32 num_simds, GpaUInt32 num_waves_per_simd) {
  return UpdateDeviceInformation(context_id, num_shader_engines, num_compute_units, num_simds, num_waves_per_simd);
}

GpaStatus GpaGetDeviceMaxWaveSlots(GpaContextId context_id, GpaUInt32* max_wave_slots) {
  return GetDeviceLimit("GpaGetDeviceMaxWaveSlots", context_id, DeviceLimit::kWaveSlots, max_wave_slots);
}

GpaStatus GpaGetDeviceMaxVgprs(GpaContextId context_id, GpaUInt32* max_vgprs) {
  return GetDeviceLimit("GpaGetDeviceMaxVgprs", context_id, DeviceLimit::kVgprs, max_vgprs);
}

GpaStatus GpaGetDeviceMaxLdsBytes(GpaContextId context_id, GpaUInt32* max_lds_bytes) {
  return GetDeviceLimit("GpaGetDeviceMaxLdsBytes", context_id, DeviceLimit::kLdsBytes, max_lds_bytes);
}

}  // namespace opengpa::gpa4
