// Everything one libGPUPerfAPI<X>.so instance knows: whether GpaInitialize ran, and the registries
// that turn GPA ids into objects.
//
// Locking: `mutex` is taken exclusively to create or delete contexts, sessions and command lists, and
// shared by every other call, so an object found under the shared lock stays alive for the call.
// Object state is guarded by the session's own lock (taken after this one, never before).
// No call waits for a device while holding `mutex`: GpaGetSampleResult pins its session (Session::Pin)
// and releases `mutex` before it reads; deleting a session or closing a context takes the objects out of
// the registries under `mutex` and destroys them after releasing it, once no pin is left (Retired).
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

// Objects taken out of the registries (their ids are stale at once). Destroyed by Destroy() or the
// destructor, which the caller reaches after releasing the library lock: each session is destroyed once
// the GpaGetSampleResult calls still reading it have returned; command lists first, contexts last.
struct Retired {
  std::vector<std::unique_ptr<CommandList>> command_lists;
  std::vector<std::unique_ptr<Session>> sessions;
  std::vector<std::unique_ptr<Context>> contexts;

  Retired() = default;
  Retired(const Retired&) = delete;
  Retired& operator=(const Retired&) = delete;
  ~Retired() { Destroy(); }
  void Destroy();
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
  void CloseContextLocked(HandleValue context_id, Retired* retired);
  void CloseAllContextsLocked(Retired* retired);
};

LibraryState& Library();

}  // namespace opengpa

#endif  // OPENGPA_CORE_LIBRARY_STATE_H_
