// GPA_RegisterLoggingCallback, GPA_Initialize, GPA_Destroy, GPA_OpenContext, GPA_SelectContext, GPA_CloseContext.
#include <algorithm>

#include "entry/gpa2/gpa2_state.h"
#include "entry/gpa2/gpa2_status.h"
#include "platform/enum_argument.h"

using namespace opengpa::gpa2;

namespace {

V2Context* FindOpenContext(void* api_context) {
  for (const auto& context : Gpa2().contexts) {
    if (context->api_context == api_context) return context.get();
  }
  return nullptr;
}

}  // namespace

GPA_Status GPA_RegisterLoggingCallback(GPA_Logging_Type loggingType, GPA_LoggingCallbackPtrType callbackFuncPtr) {
  return Guarded("GPA_RegisterLoggingCallback", [&] {
    // A bit mask, read as the int a C caller may pass (any int is a combination; bits v2 does not define
    // select nothing).
    const auto types = static_cast<unsigned>(opengpa::EnumArgument(loggingType));
    if (callbackFuncPtr == nullptr && types != GPA_LOGGING_NONE) {
      // Logged before the change, so a callback registered earlier hears why.
      return Fail(GPA_STATUS_ERROR_NULL_POINTER,
                  "GPA_RegisterLoggingCallback: callbackFuncPtr is NULL but loggingType is {:#x}", types);
    }
    SetLoggingCallback(types, callbackFuncPtr);
    Log(GPA_LOGGING_MESSAGE, "Logging callback registered successfully.");
    return GPA_STATUS_OK;
  });
}

GPA_Status GPA_Initialize() {
  return Guarded("GPA_Initialize", [&] {
    const GpaStatus status = GpaInitialize(kGpaInitializeDefaultBit);
    if (status == kGpaStatusErrorGpaAlreadyInitialized) {
      return Fail(GPA_STATUS_ERROR_FAILED, "GPA_Initialize: GPA is already initialized (call GPA_Destroy first)");
    }
    if (status != kGpaStatusOk) {
      return Fail(GPA_STATUS_ERROR_FAILED, "GPA_Initialize: the library could not initialize");
    }
    return GPA_STATUS_OK;
  });
}

GPA_Status GPA_Destroy() {
  return Guarded("GPA_Destroy", [&] {
    // The v3 GpaDestroy closes every context and deletes every session the v2 face opened.
    const GpaStatus status = GpaDestroy();
    std::vector<std::unique_ptr<V2Context>>().swap(Gpa2().contexts);  // its memory too: the state outlives unloads
    Gpa2().current = nullptr;
    if (status == kGpaStatusErrorGpaNotInitialized) {
      return Fail(GPA_STATUS_ERROR_FAILED, "GPA_Destroy: GPA_Initialize was not called");
    }
    if (status != kGpaStatusOk) return Fail(GPA_STATUS_ERROR_FAILED, "GPA_Destroy: the library could not shut down");
    return GPA_STATUS_OK;
  });
}

GPA_Status GPA_OpenContext(void* context) {
  return Guarded("GPA_OpenContext", [&] {
    if (context == nullptr) return Fail(GPA_STATUS_ERROR_NULL_POINTER, "GPA_OpenContext: context is NULL");
    if (FindOpenContext(context) != nullptr) {
      return Fail(GPA_STATUS_ERROR_COUNTERS_ALREADY_OPEN, "GPA_OpenContext: context {} is already open", context);
    }
    auto opened = std::make_unique<V2Context>();
    opened->api_context = context;
    const GpaStatus status = GpaOpenContext(context, kGpaOpenContextDefaultBit, &opened->v3);
    switch (status) {
      case kGpaStatusOk: break;
      case kGpaStatusErrorGpaNotInitialized:
        return Fail(GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED,
                    "GPA_OpenContext: call GPA_Initialize before GPA_OpenContext");
      case kGpaStatusErrorContextAlreadyOpen:
        return Fail(GPA_STATUS_ERROR_COUNTERS_ALREADY_OPEN,
                    "GPA_OpenContext: context {} is already open (through the v3 API)", context);
      case kGpaStatusErrorHardwareNotSupported:
      case kGpaStatusErrorDriverNotSupported:
      case kGpaStatusErrorApiNotSupported:
        return Fail(GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED,
                    "GPA_OpenContext: the device or driver of context {} is not supported (see the message before)",
                    context);
      default:
        return Fail(GPA_STATUS_ERROR_FAILED, "GPA_OpenContext: the counters of context {} could not be opened ({})",
                    context, GpaGetStatusAsStr(status));
    }
    if (!DescribeCounters(opened->v3, &opened->counters) ||
        (opened->selection = CreateSelection(opened->v3, {})) == nullptr) {
      GpaCloseContext(opened->v3);
      return Fail(GPA_STATUS_ERROR_FAILED, "GPA_OpenContext: the counters of context {} could not be opened", context);
    }
    Gpa2().contexts.push_back(std::move(opened));
    Gpa2().current = Gpa2().contexts.back().get();
    return GPA_STATUS_OK;
  });
}

GPA_Status GPA_SelectContext(void* context) {
  return Guarded("GPA_SelectContext", [&] {
    if (context == nullptr) return Fail(GPA_STATUS_ERROR_NULL_POINTER, "GPA_SelectContext: context is NULL");
    V2Context* found = FindOpenContext(context);
    if (found == nullptr) {
      return Fail(GPA_STATUS_ERROR_COUNTERS_NOT_OPEN,
                  "GPA_SelectContext: context {} was not opened with GPA_OpenContext", context);
    }
    Gpa2().current = found;
    return GPA_STATUS_OK;
  });
}

GPA_Status GPA_CloseContext() {
  return WithCurrentContext("GPA_CloseContext", [&](V2Context& context) {
    if (context.recording) {
      return Fail(GPA_STATUS_ERROR_SAMPLING_NOT_ENDED,
                  "GPA_CloseContext: call GPA_EndSession before closing the context");
    }
    const GpaStatus status = GpaCloseContext(context.v3);  // deletes its sessions too
    auto& contexts = Gpa2().contexts;
    contexts.erase(std::remove_if(contexts.begin(), contexts.end(), [&](const auto& c) { return c.get() == &context; }),
                   contexts.end());
    if (contexts.empty()) std::vector<std::unique_ptr<V2Context>>().swap(contexts);  // the state outlives unloads
    Gpa2().current = contexts.empty() ? nullptr : contexts.front().get();
    if (status != kGpaStatusOk) {
      return Fail(GPA_STATUS_ERROR_FAILED, "GPA_CloseContext: the context did not close cleanly");
    }
    return GPA_STATUS_OK;
  });
}
