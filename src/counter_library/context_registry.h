// The open counter contexts of libGPUPerfAPICounters.so and the guards every entry point runs under, shared by
// the v3 entry points (counter_library_entry.cc) and what the v4 table adds (gpa4_bridge.cc): one registry,
// so a context opened through either table is the same context to both.
#ifndef OPENGPA_COUNTER_LIBRARY_CONTEXT_REGISTRY_H_
#define OPENGPA_COUNTER_LIBRARY_CONTEXT_REGISTRY_H_

#include <exception>
#include <mutex>

#include "core/handle_registry.h"
#include "counter_library/counter_context.h"
#include "platform/logging.h"

namespace opengpa::counter_library {

// A counter-context id is a generation-checked handle (core/handle_registry.h), never a pointer, so a stale or
// made-up id is reported instead of dereferenced. 0xC0 is this library's own kind tag.
using Registry = HandleRegistry<CounterContext, static_cast<HandleKind>(0xC0)>;

std::mutex& LibraryMutex();
Registry& Contexts();

// Opens the offline device `api` (v3's numbering) names, checks it offers the context sample types `required`
// (IncompatibleSampleTypes otherwise), builds the counters and registers the context (caller holds the lock).
GpaStatus OpenContext(int api, const GpaCounterContextHardwareInfo& hardware_info, GpaOpenContextFlags flags,
                      ContextFlavor flavor, GpaContextSampleTypeFlags required, GpaCounterContext* out);

inline GpaStatus NullArgument(const char* function, const char* argument) {
  return LogError(kGpaStatusErrorNullPointer, "{}: {} is NULL", function, argument);
}

// Runs `body` under the library lock; no exception crosses the C boundary.
template <typename Body>
GpaStatus Guarded(const char* function, Body&& body) noexcept {
  try {
    std::lock_guard<std::mutex> lock(LibraryMutex());
    return body();
  } catch (const std::exception& e) {
    try {
      return LogError(kGpaStatusErrorException, "{}: {}", function, e.what());
    } catch (...) {
      return kGpaStatusErrorException;
    }
  } catch (...) {
    return kGpaStatusErrorException;
  }
}

// `body(context)` for a live context id, under the library lock; NULL and unknown ids are refused.
template <typename Body>
GpaStatus WithContext(const char* function, GpaCounterContext id, Body&& body) noexcept {
  return Guarded(function, [&]() -> GpaStatus {
    if (id == nullptr) return NullArgument(function, "gpa_virtual_context");
    CounterContext* context = Contexts().Find(HandleValueOf(id));
    if (context == nullptr) {
      // AMD's counter library answers kGpaStatusErrorContextNotOpen here (not GPA's ContextNotFound).
      return LogError(kGpaStatusErrorContextNotOpen, "{}: counter context {} is not open", function,
                      static_cast<const void*>(id));
    }
    return body(*context);
  });
}

}  // namespace opengpa::counter_library

#endif  // OPENGPA_COUNTER_LIBRARY_CONTEXT_REGISTRY_H_
