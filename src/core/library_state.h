// Everything one libGPUPerfAPI<X>.so instance knows: whether GpaInitialize ran, and the registries
// that turn GPA ids into objects.
//
// Locking: `mutex` is taken exclusively to create or delete contexts, sessions and command lists, and
// shared by every other call, so an object found under the shared lock stays alive for the call.
// Object state is guarded by the session's own lock (taken after this one, never before).
#ifndef OPENGPA_CORE_LIBRARY_STATE_H_
#define OPENGPA_CORE_LIBRARY_STATE_H_

#include <shared_mutex>

#include "core/command_list.h"
#include "core/context.h"
#include "core/handle_registry.h"
#include "core/session.h"
#include "gpu_performance_api/gpu_perf_api_types.h"

namespace opengpa {

struct LibraryState {
  std::shared_mutex mutex;
  bool initialized = false;
  GpaInitializeFlags initialize_flags = 0;
  HandleRegistry<Context, HandleKind::kContext> contexts;
  HandleRegistry<Session, HandleKind::kSession> sessions;
  HandleRegistry<CommandList, HandleKind::kCommandList> command_lists;

  ~LibraryState();

  // With `mutex` held exclusively: delete a session with its command lists / a context with its sessions.
  void DeleteSessionLocked(HandleValue session_id);
  // With `mutex` held exclusively: forget the session's command lists (before Session::Abort or Reset).
  void ReleaseCommandListsLocked(Session& session);
  void CloseContextLocked(HandleValue context_id);
  void CloseAllContextsLocked();
};

LibraryState& Library();

}  // namespace opengpa

#endif  // OPENGPA_CORE_LIBRARY_STATE_H_
