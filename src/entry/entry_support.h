// What every exported Gpa* function shares: no exception crosses the C ABI, null arguments and
// unknown ids are reported with the argument's name and value.
#ifndef OPENGPA_ENTRY_ENTRY_SUPPORT_H_
#define OPENGPA_ENTRY_ENTRY_SUPPORT_H_

#include "core/library_state.h"
#include "gpu_performance_api/gpu_perf_api.h"
#include "platform/enum_argument.h"
#include "platform/guarded.h"
#include "platform/logging.h"

namespace opengpa::entry {

using opengpa::Guarded;
using opengpa::NullArgument;

// Each Find* logs and returns the *NotFound status when `id` names no live object of its kind
// (stale, deleted, of another kind, or garbage). The caller holds Library().mutex.
[[nodiscard]] inline GpaStatus FindContext(const char* function, GpaContextId id, Context** out) {
  *out = Library().contexts.Find(HandleValueOf(id));
  if (*out == nullptr) {
    return LogError(kGpaStatusErrorContextNotFound, "{}: context_id {:#x} is not an open context", function,
                    HandleValueOf(id));
  }
  return kGpaStatusOk;
}

[[nodiscard]] inline GpaStatus FindSession(const char* function, GpaSessionId id, Session** out) {
  *out = Library().sessions.Find(HandleValueOf(id));
  if (*out == nullptr) {
    return LogError(kGpaStatusErrorSessionNotFound, "{}: session_id {:#x} is not an existing session", function,
                    HandleValueOf(id));
  }
  return kGpaStatusOk;
}

[[nodiscard]] inline GpaStatus FindCommandList(const char* function, const char* argument, GpaCommandListId id,
                                               CommandList** out) {
  *out = Library().command_lists.Find(HandleValueOf(id));
  if (*out == nullptr) {
    return LogError(kGpaStatusErrorCommandListNotFound, "{}: {} {:#x} is not a command list of an existing session",
                    function, argument, HandleValueOf(id));
  }
  return kGpaStatusOk;
}

using SharedLock = std::shared_lock<std::shared_mutex>;
using ExclusiveLock = std::unique_lock<std::shared_mutex>;

// Destroys what a delete or close took out, under `lock` (held) like every other creation and destruction.
// When a GpaGetSampleResult still reads one of the sessions (it may be waiting for the device), waits for it
// with `lock` released, so that calls on other sessions and contexts go on meanwhile.
inline void DestroyRetired(Retired& retired, ExclusiveLock& lock) {
  if (retired.Pinned()) {
    lock.unlock();
    retired.WaitUntilUnpinned();
    lock.lock();
  }
  retired.Destroy();
}

// Each With* looks a (null-checked) id up under the library's shared lock and runs `body(Object&)`.
template <typename Body>
[[nodiscard]] GpaStatus WithContext(const char* function, GpaContextId id, Body&& body) {
  SharedLock lock(Library().mutex);
  Context* context = nullptr;
  if (GpaStatus status = FindContext(function, id, &context); status != kGpaStatusOk) return status;
  return body(*context);
}

template <typename Body>
[[nodiscard]] GpaStatus WithSession(const char* function, GpaSessionId id, Body&& body) {
  SharedLock lock(Library().mutex);
  Session* session = nullptr;
  if (GpaStatus status = FindSession(function, id, &session); status != kGpaStatusOk) return status;
  return body(*session);
}

template <typename Body>
[[nodiscard]] GpaStatus WithCommandList(const char* function, const char* argument, GpaCommandListId id, Body&& body) {
  SharedLock lock(Library().mutex);
  CommandList* list = nullptr;
  if (GpaStatus status = FindCommandList(function, argument, id, &list); status != kGpaStatusOk) return status;
  return body(*list);
}

// What every per-counter query shares: null checks (output, then context_id), context lookup, index check,
// then `*output = read(Context&, const PublicCounter&)` under the library's shared lock.
template <typename Output, typename Read>
[[nodiscard]] GpaStatus ReadContextCounter(const char* function, const char* output_name, GpaContextId context_id,
                                           GpaUInt32 index, Output* output, Read&& read) {
  return Guarded(function, [&] {
    if (output == nullptr) return NullArgument(function, output_name);
    if (context_id == nullptr) return NullArgument(function, "context_id");
    return WithContext(function, context_id, [&](Context& context) {
      if (index >= context.counters().size()) {
        return LogError(kGpaStatusErrorIndexOutOfRange, "{}: index {} is not below the counter count {}", function,
                        index, context.counters().size());
      }
      *output = read(context, context.counters().at(index));
      return kGpaStatusOk;
    });
  });
}

// GpaCreateSession with the sample type as an int (a GpaSessionSampleType value, opengpa_ext.h's included):
// GPA v3's entry point and GPA 4's both create sessions through it.
[[nodiscard]] GpaStatus CreateSessionOfType(GpaContextId context_id, int type, GpaSessionId* session_id);

}  // namespace opengpa::entry

#endif  // OPENGPA_ENTRY_ENTRY_SUPPORT_H_
