// GpaInitialize, GpaDestroy, GpaOpenContext, GpaCloseContext and the device queries.
#include <cstring>

#include "core/backend.h"
#include "entry/entry_support.h"

using namespace opengpa;
using namespace opengpa::entry;

namespace {

// Every bit GPA v3.17 defines for GpaInitialize (it lists only the default, 0) plus GPA's simultaneous-queues
// bit, which GPA's own tests pass and OpenGPA accepts and ignores.
constexpr GpaInitializeFlags kKnownInitializeBits =
    kGpaInitializeDefaultBit | kGpaInitializeSimultaneousQueuesEnableBit;

// Every bit GPA v3.17 defines for GpaOpenContext, the two obsolete ones included (accepted, no effect).
constexpr GpaOpenContextFlags kKnownOpenContextBits =
    kGpaOpenContextHideDerivedCountersBit | kGpaOpenContextHideSoftwareCountersBit_obsolete |
    kGpaOpenContextHideHardwareCountersBit_obsolete | kGpaOpenContextClockModeNoneBit |
    kGpaOpenContextClockModePeakBit | kGpaOpenContextClockModeMinMemoryBit | kGpaOpenContextClockModeMinEngineBit |
    kGpaOpenContextEnableHardwareCountersBit;

constexpr GpaOpenContextFlags kClockModeBits = kGpaOpenContextClockModeNoneBit | kGpaOpenContextClockModePeakBit |
                                               kGpaOpenContextClockModeMinMemoryBit |
                                               kGpaOpenContextClockModeMinEngineBit;

}  // namespace

GpaStatus GpaInitialize(GpaInitializeFlags flags) {
  return Guarded("GpaInitialize", [&] {
    ExclusiveLock lock(Library().mutex);
    if (Library().initialized) {
      return LogError(kGpaStatusErrorGpaAlreadyInitialized, "GpaInitialize: GPA is already initialized");
    }
    if ((flags & ~kKnownInitializeBits) != 0) {
      return LogError(kGpaStatusErrorInvalidParameter, "GpaInitialize: flags {:#x} has unknown bits {:#x}", flags,
                      flags & ~kKnownInitializeBits);
    }
    if (GpaStatus status = ActiveBackend().Initialize(flags); status != kGpaStatusOk) {
      return LogError(status, "GpaInitialize: the backend could not initialize (flags {:#x})", flags);
    }
    Library().initialized = true;
    Library().initialize_flags = flags;
    return kGpaStatusOk;
  });
}

GpaStatus GpaDestroy() {
  return Guarded("GpaDestroy", [&] {
    ExclusiveLock lock(Library().mutex);
    if (!Library().initialized) {
      return LogError(kGpaStatusErrorGpaNotInitialized, "GpaDestroy: GpaInitialize was not called");
    }
    if (Library().contexts.size() != 0) {
      Log(kGpaLoggingMessage, "GpaDestroy: closing {} context(s) left open", Library().contexts.size());
      Retired retired;
      Library().CloseAllContextsLocked(&retired);
      DestroyRetired(retired, lock);  // before the backend shuts down
    }
    Library().initialized = false;
    if (GpaStatus status = ActiveBackend().Destroy(); status != kGpaStatusOk) {
      return LogError(status, "GpaDestroy: the backend could not shut down");
    }
    return kGpaStatusOk;
  });
}

GpaStatus GpaOpenContext(void* context, GpaOpenContextFlags flags, GpaContextId* context_id) {
  return Guarded("GpaOpenContext", [&] {
    if (context == nullptr) return NullArgument("GpaOpenContext", "context");
    if (context_id == nullptr) return NullArgument("GpaOpenContext", "context_id");
    ExclusiveLock lock(Library().mutex);
    if (!Library().initialized) {
      return LogError(kGpaStatusErrorGpaNotInitialized, "GpaOpenContext: call GpaInitialize first");
    }
    const GpaOpenContextFlags known = kKnownOpenContextBits | ActiveBackend().ApiSpecificOpenContextBits();
    if ((flags & ~known) != 0) {
      return LogError(kGpaStatusErrorInvalidParameter, "GpaOpenContext: flags {:#x} has unknown bits {:#x}", flags,
                      flags & ~known);
    }
    if ((flags & kGpaOpenContextHideDerivedCountersBit) != 0 &&
        (flags & kGpaOpenContextEnableHardwareCountersBit) == 0) {
      return LogError(kGpaStatusErrorInvalidParameter,
                      "GpaOpenContext: flags {:#x} hide the derived counters without "
                      "kGpaOpenContextEnableHardwareCountersBit: no counters would be exposed",
                      flags);
    }
    const GpaOpenContextFlags clock_bits = flags & kClockModeBits;
    if ((clock_bits & (clock_bits - 1)) != 0) {
      return LogError(kGpaStatusErrorInvalidParameter, "GpaOpenContext: flags {:#x} names more than one clock mode",
                      flags);
    }
    for (HandleValue id : Library().contexts.Ids()) {
      if (Library().contexts.Find(id)->api_context() == context) {
        return LogError(kGpaStatusErrorContextAlreadyOpen, "GpaOpenContext: context {} is already open as {:#x}",
                        context, id);
      }
    }
    std::unique_ptr<Context> opened;
    if (GpaStatus status = Context::Open(ActiveBackend(), context, flags, &opened); status != kGpaStatusOk) {
      return status;
    }
    const HandleValue id = Library().contexts.Add(std::move(opened));
    if (id == 0) return LogError(kGpaStatusErrorFailed, "GpaOpenContext: too many open contexts");
    *context_id = HandleFromValue<GpaContextId>(id);
    return kGpaStatusOk;
  });
}

GpaStatus GpaCloseContext(GpaContextId context_id) {
  return Guarded("GpaCloseContext", [&] {
    if (context_id == nullptr) return NullArgument("GpaCloseContext", "context_id");
    ExclusiveLock lock(Library().mutex);
    Context* context = nullptr;
    if (GpaStatus status = FindContext("GpaCloseContext", context_id, &context); status != kGpaStatusOk) return status;
    if (!context->session_ids().empty()) {
      Log(kGpaLoggingMessage, "GpaCloseContext: deleting {} session(s) of the context", context->session_ids().size());
    }
    Retired retired;
    Library().CloseContextLocked(HandleValueOf(context_id), &retired);
    DestroyRetired(retired, lock);
    return kGpaStatusOk;
  });
}

GpaStatus GpaGetSupportedSampleTypes(GpaContextId context_id, GpaContextSampleTypeFlags* sample_types) {
  return Guarded("GpaGetSupportedSampleTypes", [&] {
    if (sample_types == nullptr) return NullArgument("GpaGetSupportedSampleTypes", "sample_types");
    if (context_id == nullptr) return NullArgument("GpaGetSupportedSampleTypes", "context_id");
    return WithContext("GpaGetSupportedSampleTypes", context_id, [&](Context& context) {
      *sample_types = context.supported_sample_types();
      return kGpaStatusOk;
    });
  });
}

GpaStatus GpaGetDeviceAndRevisionId(GpaContextId context_id, GpaUInt32* device_id, GpaUInt32* revision_id) {
  return Guarded("GpaGetDeviceAndRevisionId", [&] {
    if (device_id == nullptr) return NullArgument("GpaGetDeviceAndRevisionId", "device_id");
    if (revision_id == nullptr) return NullArgument("GpaGetDeviceAndRevisionId", "revision_id");
    if (context_id == nullptr) return NullArgument("GpaGetDeviceAndRevisionId", "context_id");
    return WithContext("GpaGetDeviceAndRevisionId", context_id, [&](Context& context) {
      *device_id = context.device().device_id;
      *revision_id = context.device().revision_id;
      return kGpaStatusOk;
    });
  });
}

GpaStatus GpaGetDeviceName(GpaContextId context_id, const char** device_name) {
  return Guarded("GpaGetDeviceName", [&] {
    if (device_name == nullptr) return NullArgument("GpaGetDeviceName", "device_name");
    if (context_id == nullptr) return NullArgument("GpaGetDeviceName", "context_id");
    return WithContext("GpaGetDeviceName", context_id, [&](Context& context) {
      *device_name = context.device().name.c_str();  // lives until the context is closed
      return kGpaStatusOk;
    });
  });
}

GpaStatus GpaGetDeviceGeneration(GpaContextId context_id, GpaHwGeneration* hardware_generation) {
  return Guarded("GpaGetDeviceGeneration", [&] {
    if (hardware_generation == nullptr) return NullArgument("GpaGetDeviceGeneration", "hardware_generation");
    if (context_id == nullptr) return NullArgument("GpaGetDeviceGeneration", "context_id");
    return WithContext("GpaGetDeviceGeneration", context_id, [&](Context& context) {
      // Copied as bytes: OpenGPA's extension values (kGpaHwGenerationSoftware, opengpa_ext.h) lie outside
      // GpaHwGeneration's range, and loading one as the enum is undefined behaviour in C++ (UBSan: enum).
      std::memcpy(hardware_generation, &context.device().generation, sizeof *hardware_generation);
      return kGpaStatusOk;
    });
  });
}
