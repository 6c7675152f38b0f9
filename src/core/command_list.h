// A GPA command list: one application command list (or none) recorded for one pass of a session.
// Owned by the library's command-list registry; mutated only under its session's lock.
#ifndef OPENGPA_CORE_COMMAND_LIST_H_
#define OPENGPA_CORE_COMMAND_LIST_H_

#include <memory>
#include <vector>

#include "core/backend.h"
#include "core/sample_id_map.h"
#include "gpu_performance_api/gpu_perf_api_types.h"

namespace opengpa {

class Session;

struct CommandList {
  Session* session = nullptr;
  GpaUInt32 pass = 0;
  GpaCommandListType type = kGpaCommandListNone;
  void* api_list = nullptr;
  std::unique_ptr<BackendCommandList> backend;
  bool open = true;
  SampleSlot open_sample = kNoSlot;  // the sample begun (or continued) here and not yet ended
  std::vector<SampleSlot> samples;   // secondary lists only: samples begun here, in order (what gets copied)
};

}  // namespace opengpa

#endif  // OPENGPA_CORE_COMMAND_LIST_H_
