// Command lists and samples: GpaBeginCommandList ... GpaGetSampleId.
#include "core/backend.h"
#include "entry/entry_support.h"

using namespace opengpa;
using namespace opengpa::entry;

namespace {

// GpaContinueSampleOnCommandList and GpaCopySecondarySamples on an API without command lists (OpenGL, OpenCL,
// CUDA): refused before any argument is looked at, as GPA does.
GpaStatus NoCommandLists(const char* function) {
  return LogError(kGpaStatusErrorApiNotSupported, "{}: this API has no command lists", function);
}

// For calls whose only handle is command_list_id: null check, then WithCommandList.
template <typename Body>
GpaStatus GuardedCommandListCall(const char* function, GpaCommandListId command_list_id, Body&& body) {
  return Guarded(function, [&] {
    if (command_list_id == nullptr) return NullArgument(function, "command_list_id");
    return WithCommandList(function, "command_list_id", command_list_id, body);
  });
}

}  // namespace

GpaStatus GpaBeginCommandList(GpaSessionId session_id, GpaUInt32 pass_index, void* command_list,
                              GpaCommandListType command_list_type, GpaCommandListId* command_list_id) {
  return Guarded("GpaBeginCommandList", [&] {
    // The session first (an unknown one is SessionNotFound whatever the other arguments, as in GPA), then the rest.
    if (session_id == nullptr) return NullArgument("GpaBeginCommandList", "session_id");
    ExclusiveLock lock(Library().mutex);
    Session* session = nullptr;
    if (GpaStatus status = FindSession("GpaBeginCommandList", session_id, &session); status != kGpaStatusOk) {
      return status;
    }
    const int type = EnumArgument(command_list_type);
    if (command_list == nullptr && type != kGpaCommandListNone) {
      return LogError(kGpaStatusErrorNullPointer,
                      "GpaBeginCommandList: command_list is NULL but command_list_type is {}", type);
    }
    if (command_list_id == nullptr) return NullArgument("GpaBeginCommandList", "command_list_id");
    if (type < kGpaCommandListNone || type >= kGpaCommandListLast) {
      return LogError(kGpaStatusErrorInvalidParameter,
                      "GpaBeginCommandList: command_list_type {} is not a GpaCommandListType", type);
    }
    if (command_list != nullptr && type == kGpaCommandListNone) {
      return LogError(kGpaStatusErrorInvalidParameter,
                      "GpaBeginCommandList: command_list {} is not NULL but command_list_type is kGpaCommandListNone",
                      command_list);
    }
    std::unique_ptr<CommandList> list;
    if (GpaStatus status =
            session->BeginCommandList(pass_index, command_list, static_cast<GpaCommandListType>(type), &list);
        status != kGpaStatusOk) {
      return status;
    }
    CommandList* raw = list.get();
    const HandleValue id = Library().command_lists.Add(std::move(list));
    if (id == 0) return LogError(kGpaStatusErrorFailed, "GpaBeginCommandList: too many command lists");
    session->AddCommandList(id, raw);
    *command_list_id = HandleFromValue<GpaCommandListId>(id);
    return kGpaStatusOk;
  });
}

GpaStatus GpaEndCommandList(GpaCommandListId command_list_id) {
  return GuardedCommandListCall("GpaEndCommandList", command_list_id,
                                [](CommandList& list) { return list.session->EndCommandList(list); });
}

GpaStatus GpaBeginSample(GpaUInt32 sample_id, GpaCommandListId command_list_id) {
  return GuardedCommandListCall("GpaBeginSample", command_list_id,
                                [&](CommandList& list) { return list.session->BeginSample(sample_id, list); });
}

GpaStatus GpaEndSample(GpaCommandListId command_list_id) {
  return GuardedCommandListCall("GpaEndSample", command_list_id,
                                [](CommandList& list) { return list.session->EndSample(list); });
}

GpaStatus GpaContinueSampleOnCommandList(GpaUInt32 src_sample_id, GpaCommandListId primary_command_list_id) {
  return Guarded("GpaContinueSampleOnCommandList", [&] {
    if (!ActiveBackend().HasCommandLists()) return NoCommandLists("GpaContinueSampleOnCommandList");
    if (primary_command_list_id == nullptr) {
      return NullArgument("GpaContinueSampleOnCommandList", "primary_command_list_id");
    }
    return WithCommandList(
        "GpaContinueSampleOnCommandList", "primary_command_list_id", primary_command_list_id,
        [&](CommandList& primary) { return primary.session->ContinueSample(src_sample_id, primary); });
  });
}

GpaStatus GpaCopySecondarySamples(GpaCommandListId secondary_command_list_id, GpaCommandListId primary_command_list_id,
                                  GpaUInt32 num_samples, GpaUInt32* new_sample_ids) {
  constexpr const char* kFunction = "GpaCopySecondarySamples";
  return Guarded(kFunction, [&] {
    if (!ActiveBackend().HasCommandLists()) return NoCommandLists(kFunction);
    // Each list is null-checked and looked up before the next argument is looked at, as in GPA.
    SharedLock lock(Library().mutex);
    CommandList* secondary = nullptr;
    CommandList* primary = nullptr;
    if (secondary_command_list_id == nullptr) return NullArgument(kFunction, "secondary_command_list_id");
    if (GpaStatus status =
            FindCommandList(kFunction, "secondary_command_list_id", secondary_command_list_id, &secondary);
        status != kGpaStatusOk) {
      return status;
    }
    if (primary_command_list_id == nullptr) return NullArgument(kFunction, "primary_command_list_id");
    if (GpaStatus status = FindCommandList(kFunction, "primary_command_list_id", primary_command_list_id, &primary);
        status != kGpaStatusOk) {
      return status;
    }
    if (new_sample_ids == nullptr && num_samples > 0) return NullArgument(kFunction, "new_sample_ids");
    if (secondary->session != primary->session) {
      return LogError(kGpaStatusErrorInvalidParameter,
                      "GpaCopySecondarySamples: the secondary and primary command lists belong to different sessions");
    }
    return primary->session->CopySecondarySamples(*secondary, *primary, num_samples, new_sample_ids);
  });
}

GpaStatus GpaGetSampleCount(GpaSessionId session_id, GpaUInt32* sample_count) {
  return Guarded("GpaGetSampleCount", [&] {
    if (session_id == nullptr) return NullArgument("GpaGetSampleCount", "session_id");
    if (sample_count == nullptr) return NullArgument("GpaGetSampleCount", "sample_count");
    return WithSession("GpaGetSampleCount", session_id,
                       [&](Session& session) { return session.GetSampleCount(sample_count); });
  });
}

GpaStatus GpaGetSampleId(GpaSessionId session_id, GpaUInt32 index, GpaUInt32* sample_id) {
  return Guarded("GpaGetSampleId", [&] {
    if (session_id == nullptr) return NullArgument("GpaGetSampleId", "session_id");
    if (sample_id == nullptr) return NullArgument("GpaGetSampleId", "sample_id");
    return WithSession("GpaGetSampleId", session_id,
                       [&](Session& session) { return session.GetSampleId(index, sample_id); });
  });
}
