#include "core/library_state.h"

#include <algorithm>

namespace opengpa {

LibraryState& Library() {
  static LibraryState state;
  return state;
}

Retired::~Retired() {
  WaitUntilUnpinned();
  Destroy();
}

bool Retired::Pinned() const {
  return std::any_of(sessions.begin(), sessions.end(), [](const auto& session) { return session->Pinned(); });
}

void Retired::WaitUntilUnpinned() const {
  for (const auto& session : sessions) session->WaitUntilUnpinned();
}

void Retired::Destroy() {
  // Command lists hold backend objects of their session's backend session, sessions those of their context.
  command_lists.clear();
  sessions.clear();
  contexts.clear();
}

LibraryState::~LibraryState() {
  Retired retired;
  CloseAllContextsLocked(&retired);
}

void LibraryState::DeleteSessionLocked(HandleValue session_id, Retired* retired) {
  Session* session = sessions.Find(session_id);
  if (session == nullptr) return;
  for (HandleValue list_id : session->command_list_ids()) {
    retired->command_lists.push_back(command_lists.Remove(list_id));
  }
  auto& ids = session->context().session_ids();
  ids.erase(std::remove(ids.begin(), ids.end(), session_id), ids.end());
  retired->sessions.push_back(sessions.Remove(session_id));
}

void LibraryState::ReleaseCommandListsLocked(Session& session) {
  // Command lists hold backend objects of the session's backend session: release them first. Nothing waits
  // on a command list (a waiting GpaGetSampleResult pins the session, not its lists).
  for (HandleValue list_id : session.command_list_ids()) command_lists.Remove(list_id);
}

void LibraryState::CloseContextLocked(HandleValue context_id, Retired* retired) {
  Context* context = contexts.Find(context_id);
  if (context == nullptr) return;
  const std::vector<HandleValue> session_ids = context->session_ids();
  for (HandleValue session_id : session_ids) DeleteSessionLocked(session_id, retired);
  retired->contexts.push_back(contexts.Remove(context_id));
}

void LibraryState::CloseAllContextsLocked(Retired* retired) {
  for (HandleValue context_id : contexts.Ids()) CloseContextLocked(context_id, retired);
}

}  // namespace opengpa
