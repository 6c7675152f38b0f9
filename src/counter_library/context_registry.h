// The open counter contexts of libGPUPerfAPICounters.so and the guards every entry point runs under, shared by
// the v3 entry points (counter_library_entry.cc) and what the v4 table adds (gpa4_bridge.cc): one registry,
// so a context opened through either table is the same context to both.
#ifndef OPENGPA_COUNTER_LIBRARY_CONTEXT_REGISTRY_H_
#define OPENGPA_COUNTER_LIBRARY_CONTEXT_REGISTRY_H_

#include <exception>
#include <mutex>

#include "core/handle_registry.h"
#include "counter_library/counter_context.h"
#include "platform/guarded.h"
#include "platform/logging.h"

namespace opengpa::counter_library {

// A counter-context id is a generation-checked handle (core/handle_registry.h), never a pointer, so a stale or
// made-up id is reported instead of dereferenced. 0xC0 is this library's own kind tag.
using Registry = HandleRegistry<CounterContext, static_cast<HandleKind>(0xC0)>;

std::mutex& LibraryMutex();
Registry& Contexts();

// Opens the offline device `api` (v3's numbering) names, checks it offers the context sample types `required`
// (IncompatibleSampleTypes otherwise), builds the counters and registers the context (caller holds the lock).
[[nodiscard]] GpaStatus OpenContext(int api, const GpaCounterContextHardwareInfo& hardware_info,
                                    GpaOpenContextFlags flags, ContextFlavor flavor, GpaContextSampleTypeFlags required,
                                    GpaCounterContext* out);

using opengpa::NullArgument;

// Runs `body` under the library lock; no exception crosses the C boundary (platform/guarded.h).
template <typename Body>
[[nodiscard]] GpaStatus GuardedLocked(const char* function, Body&& body) noexcept {
  return opengpa::Guarded(function, [&] {
    std::lock_guard<std::mutex> lock(LibraryMutex());
    return body();
  });
}

// `body(context)` for a live context id, under the library lock; NULL and unknown ids are refused.
template <typename Body>
[[nodiscard]] GpaStatus WithContext(const char* function, GpaCounterContext id, Body&& body) noexcept {
  return GuardedLocked(function, [&]() -> GpaStatus {
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
