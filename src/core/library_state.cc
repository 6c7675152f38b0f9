#include "core/library_state.h"

#include <algorithm>

namespace opengpa {

LibraryState& Library() {
  static LibraryState state;
  return state;
}

LibraryState::~LibraryState() { CloseAllContextsLocked(); }

void LibraryState::DeleteSessionLocked(HandleValue session_id) {
  Session* session = sessions.Find(session_id);
  if (session == nullptr) return;
  ReleaseCommandListsLocked(*session);
  auto& ids = session->context().session_ids();
  ids.erase(std::remove(ids.begin(), ids.end(), session_id), ids.end());
  sessions.Remove(session_id);
}

void LibraryState::ReleaseCommandListsLocked(Session& session) {
  // Command lists hold backend objects of the session's backend session: release them first.
  for (HandleValue list_id : session.command_list_ids()) command_lists.Remove(list_id);
}

void LibraryState::CloseContextLocked(HandleValue context_id) {
  Context* context = contexts.Find(context_id);
  if (context == nullptr) return;
  const std::vector<HandleValue> session_ids = context->session_ids();
  for (HandleValue session_id : session_ids) DeleteSessionLocked(session_id);
  contexts.Remove(context_id);
}

void LibraryState::CloseAllContextsLocked() {
  for (HandleValue context_id : contexts.Ids()) CloseContextLocked(context_id);
}

}  // namespace opengpa
