// Everything one libGPUPerfAPI<X>.so instance knows: whether GpaInitialize ran, and the registries
// that turn GPA ids into objects.
//
// Locking: `mutex` is taken exclusively to create or delete contexts, sessions and command lists, and
// shared by every other call, so an object found under the shared lock stays alive for the call.
// Object state is guarded by the session's own lock (taken after this one, never before).
// No call waits for a device while holding `mutex`: GpaGetSampleResult pins its session (Session::Pin)
// and releases `mutex` before it reads; deleting a session or closing a context takes the objects out of
// the registries under `mutex` (Retired) and destroys them under it too, unless a reader still pins one of
// the sessions: then it waits for the reader with `mutex` released, and destroys after taking it again.
#ifndef OPENGPA_CORE_LIBRARY_STATE_H_
#define OPENGPA_CORE_LIBRARY_STATE_H_

#include <memory>
#include <shared_mutex>
#include <vector>

#include "core/command_list.h"
#include "core/context.h"
#include "core/handle_registry.h"
#include "core/session.h"
#include "gpu_performance_api/gpu_perf_api_types.h"

namespace opengpa {

// Objects taken out of the registries (their ids are stale at once), to be destroyed by Destroy() once
// no GpaGetSampleResult still reads one of the sessions (no pin); command lists first, contexts last.
// The destructor waits for the pins and destroys what is left.
struct Retired {
  std::vector<std::unique_ptr<CommandList>> command_lists;
  std::vector<std::unique_ptr<Session>> sessions;
  std::vector<std::unique_ptr<Context>> contexts;

  Retired() = default;
  Retired(const Retired&) = delete;
  Retired& operator=(const Retired&) = delete;
  ~Retired();
  bool Pinned() const;
  void WaitUntilUnpinned() const;
  void Destroy();  // with no session pinned
};

struct LibraryState {
  std::shared_mutex mutex;
  bool initialized = false;
  GpaInitializeFlags initialize_flags = 0;
  HandleRegistry<Context, HandleKind::kContext> contexts;
  HandleRegistry<Session, HandleKind::kSession> sessions;
  HandleRegistry<CommandList, HandleKind::kCommandList> command_lists;

  ~LibraryState();

  // With `mutex` held exclusively: take out a session with its command lists / a context with its sessions,
  // into `retired`, which the caller destroys after releasing `mutex`.
  void DeleteSessionLocked(HandleValue session_id, Retired* retired);
  // With `mutex` held exclusively: forget the session's command lists (before Session::Abort or Reset).
  void ReleaseCommandListsLocked(Session& session);
  void CloseContextLocked(HandleValue context_id, Retired* retired);
  void CloseAllContextsLocked(Retired* retired);
};

LibraryState& Library();

}  // namespace opengpa

#endif  // OPENGPA_CORE_LIBRARY_STATE_H_
