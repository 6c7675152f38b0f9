// NvPmApi's state: initialized or not, and its contexts. A context wraps one GPA v3 context of the API's
// library, its counter catalog, the counters added, the objects reserved, the running experiment or the
// open real-time interval, and the last readings (per object after an experiment; object 0 in real-time
// mode). Every entry point holds `mutex` (recursive: nothing here calls back, but GPA's logging might).
#ifndef OPENGPA_ENTRY_NVPMAPI_NVPM_STATE_H_
#define OPENGPA_ENTRY_NVPMAPI_NVPM_STATE_H_

#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <vector>

#include "entry/nvpmapi/context_counters.h"
#include "entry/nvpmapi/gpa_backend.h"
#include "entry/nvpmapi/nvpm_log.h"
#include "platform/guarded.h"

namespace opengpa::nvpm {

// A CUDA pass holds at most this many objects (GPA_CUDA_DEFAULT_MAX_SAMPLES_PER_PASS: CUPTI sizes its
// buffers for it); OpenGL has no such limit but its queries cost memory, so ReserveObjects stops there.
inline constexpr NVPMUINT kMaxObjectsCuda = 256;
inline constexpr NVPMUINT kMaxObjectsOpenGl = 65536;

struct Experiment {
  GpaSessionId session = nullptr;
  NVPMUINT passes = 0;
  NVPMUINT passes_ended = 0;
  std::optional<NVPMUINT> open_pass;
  GpaCommandListId list = nullptr;
  std::optional<NVPMUINT> open_object;
  bool open_object_measured = false;  // begun as a GPA sample (objects pass 0 never saw are not)
  std::set<NVPMUINT> objects_in_pass;
  std::set<NVPMUINT> pass0_objects;
  std::optional<NVPMUINT> pass_missing_objects;  // a later pass that skipped an object of pass 0
  std::vector<NVPMCounterID> counters;           // the counters added when it began
};

struct RealtimeInterval {
  GpaSessionId session = nullptr;
  GpaCommandListId list = nullptr;
  std::vector<NVPMCounterID> counters;  // the group it measures
};

struct Realtime {
  bool groups_stale = true;
  std::vector<std::vector<NVPMCounterID>> groups;  // each fits in one GPA pass; measured round robin
  std::size_t next_group = 0;
  std::optional<RealtimeInterval> open;
};

struct Context {
  NVPMContext handle = 0;
  GpaBackend* backend = nullptr;
  GpaContextId gpa = nullptr;
  CounterCatalog catalog;
  std::vector<NVPMCounterID> added;  // in the order added
  NVPMUINT reserved_objects = 0;
  std::optional<Experiment> experiment;
  Realtime realtime;
  std::map<NVPMUINT, std::map<NVPMCounterID, Reading>> readings;  // object -> counter -> reading

  bool IsAdded(NVPMCounterID id) const;
  NVPMUINT MaxObjects() const { return backend->api == Api::kCuda ? kMaxObjectsCuda : kMaxObjectsOpenGl; }
};

struct State {
  std::recursive_mutex mutex;
  bool initialized = false;
  NVPMContext next_handle = 1;
  std::map<NVPMContext, std::unique_ptr<Context>> contexts;
};

State& Nvpm();

// Runs body() under the mutex; NVPM_ERROR_NOT_INITIALIZED before Init; an exception becomes
// NVPM_ERROR_INTERNAL with a message.
template <typename Body>
NVPMRESULT Guarded(const char* function, Body&& body) noexcept {
  return GuardedWith<NVPMRESULT>(
      function, NVPM_ERROR_INTERNAL, [](const std::string& message) { Fail(NVPM_ERROR_INTERNAL, "{}", message); },
      [&]() -> NVPMRESULT {
        std::lock_guard<std::recursive_mutex> lock(Nvpm().mutex);
        if (!Nvpm().initialized) return Fail(NVPM_ERROR_NOT_INITIALIZED, "{}: call Init first", function);
        return body();
      });
}

// Guarded, for calls on a context: NVPM_ERROR_INVALID_CONTEXT for a handle no CreateContext* returned.
template <typename Body>
NVPMRESULT WithContext(const char* function, NVPMContext handle, Body&& body) noexcept {
  return Guarded(function, [&]() -> NVPMRESULT {
    auto found = Nvpm().contexts.find(handle);
    if (found == Nvpm().contexts.end()) {
      return Fail(NVPM_ERROR_INVALID_CONTEXT, "{}: {} is not an NvPmApi context", function, handle);
    }
    return body(*found->second);
  });
}

// Ends an open real-time interval without reading it (an experiment begins, the context goes away).
void AbandonInterval(Context& context);

// Ends and deletes a running experiment's session without reading it (EndExperiment too early,
// DestroyContext, Shutdown).
void AbandonExperiment(Context& context);

}  // namespace opengpa::nvpm

#endif  // OPENGPA_ENTRY_NVPMAPI_NVPM_STATE_H_
