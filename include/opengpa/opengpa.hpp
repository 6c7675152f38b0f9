// OpenGPA's C++17 layer over the GPA v3 C ABI (header-only; works with any GpaFunctionTable, e.g.
// one from GpaApiManager or from GpaGetFuncTable of a linked library).
//
// Ownership is RAII: Library initializes GPA and destroys it, Context closes its context, Session
// deletes its session, CommandList ends itself if still open, ScopedSample ends its sample.
// Destroy objects in reverse order of creation (samples, lists, sessions, contexts, library).
//
// Errors: every call that fails throws opengpa::Error, which carries the GpaStatus and names the GPA
// function; the detailed reason goes to the GPA logging callback as usual. Destructors never throw.
//
//   opengpa::Library gpa(table);
//   opengpa::Context context(gpa, &open_info);
//   opengpa::Session session(context);
//   session.Enable("GPUTime");
//   session.Begin();
//   for (GpaUInt32 pass = 0; pass < session.PassCount(); ++pass) {
//     opengpa::CommandList list(session, pass, command_buffer, kGpaCommandListPrimary);
//     { opengpa::ScopedSample sample(list, 0); record_draw(); }
//     list.End();
//   }
//   session.End();
//   std::vector<opengpa::CounterValue> values = session.Result(0);  // blocks until ready
#ifndef OPENGPA_OPENGPA_HPP_
#define OPENGPA_OPENGPA_HPP_

#include <cstdint>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "gpu_performance_api/gpu_perf_api.h"

namespace opengpa {

// A failed GPA call.
class Error : public std::runtime_error {
 public:
  Error(GpaStatus status, const std::string& message) : std::runtime_error(message), status_(status) {}
  GpaStatus status() const noexcept { return status_; }

 private:
  GpaStatus status_;
};

// One counter's value for one sample: uint64 or float64, as the counter's data type says.
using CounterValue = std::variant<std::uint64_t, double>;

// A CounterValue as a double, whatever its type (handy for printing and arithmetic).
inline double AsDouble(const CounterValue& value) {
  return std::visit([](auto v) { return static_cast<double>(v); }, value);
}

struct CounterInfo {
  GpaUInt32 index = 0;
  std::string name;
  std::string group;
  std::string description;
  GpaDataType data_type = kGpaDataTypeFloat64;
  GpaUsageType usage = kGpaUsageTypeRatio;
  GpaUuid uuid{};
};

class Library {
 public:
  // Calls GpaInitialize(flags) through `table`; the table must outlive this object.
  explicit Library(const GpaFunctionTable* table, GpaInitializeFlags flags = kGpaInitializeDefaultBit) : gpa_(table) {
    if (gpa_ == nullptr) throw Error(kGpaStatusErrorNullPointer, "opengpa::Library: the function table is null");
    Check(gpa_->GpaInitialize(flags), "GpaInitialize");
  }
  ~Library() {
    if (gpa_ != nullptr) gpa_->GpaDestroy();
  }
  Library(const Library&) = delete;
  Library& operator=(const Library&) = delete;
  Library(Library&& other) noexcept : gpa_(std::exchange(other.gpa_, nullptr)) {}
  Library& operator=(Library&&) = delete;

  const GpaFunctionTable& gpa() const { return *gpa_; }

  // Throws Error unless `status` is kGpaStatusOk or kGpaStatusResultNotReady.
  void Check(GpaStatus status, const char* function) const {
    if (status == kGpaStatusOk || status == kGpaStatusResultNotReady) return;
    throw Error(status, std::string(function) + " failed: " + StatusText(status));
  }
  // GpaGetStatusAsStr's text and the number: "GPA Error: Counter Not Found. (-5)". Never throws.
  std::string StatusText(GpaStatus status) const {
    const char* text = gpa_->GpaGetStatusAsStr != nullptr ? gpa_->GpaGetStatusAsStr(status) : nullptr;
    return std::string(text != nullptr ? text : "") + " (" + std::to_string(status) + ")";
  }
  // GpaGetUsageTypeAsStr: "percentage", "nanoseconds", ...
  std::string UsageTypeName(GpaUsageType usage) const {
    const char* text = nullptr;
    Check(gpa_->GpaGetUsageTypeAsStr(usage, &text), "GpaGetUsageTypeAsStr");
    return text != nullptr ? text : "";
  }
  // GpaGetDataTypeAsStr: "gpa_float64", "gpa_uint64".
  std::string DataTypeName(GpaDataType type) const {
    const char* text = nullptr;
    Check(gpa_->GpaGetDataTypeAsStr(type, &text), "GpaGetDataTypeAsStr");
    return text != nullptr ? text : "";
  }

 private:
  const GpaFunctionTable* gpa_;
};

class Context {
 public:
  Context(Library& library, void* api_context, GpaOpenContextFlags flags = kGpaOpenContextDefaultBit)
      : library_(&library) {
    library.Check(gpa().GpaOpenContext(api_context, flags, &id_), "GpaOpenContext");
  }
  ~Context() {
    if (id_ != nullptr) gpa().GpaCloseContext(id_);
  }
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  GpaContextId id() const { return id_; }
  Library& library() const { return *library_; }

  std::string DeviceName() const {
    const char* name = nullptr;
    library_->Check(gpa().GpaGetDeviceName(id_, &name), "GpaGetDeviceName");
    return name;
  }
  // GpaGetDeviceGeneration's answer as a number: a software device answers opengpa_ext.h's
  // kGpaHwGenerationSoftware (0x100), which lies outside GpaHwGeneration, and C++ may not hold it in the enum.
  int GenerationNumber() const {
    int generation = kGpaHwGenerationNone;
    library_->Check(gpa().GpaGetDeviceGeneration(id_, reinterpret_cast<GpaHwGeneration*>(&generation)),
                    "GpaGetDeviceGeneration");
    return generation;
  }
  // The same as the enum, for hardware generations only: on a software device (kGpaHwGenerationSoftware) the
  // result is undefined C++; use GenerationNumber() there.
  GpaHwGeneration Generation() const { return static_cast<GpaHwGeneration>(GenerationNumber()); }
  GpaUInt32 CounterCount() const {
    GpaUInt32 count = 0;
    library_->Check(gpa().GpaGetNumCounters(id_, &count), "GpaGetNumCounters");
    return count;
  }
  CounterInfo Counter(GpaUInt32 index) const {
    CounterInfo info;
    info.index = index;
    const char* text = nullptr;
    library_->Check(gpa().GpaGetCounterName(id_, index, &text), "GpaGetCounterName");
    info.name = text;
    library_->Check(gpa().GpaGetCounterGroup(id_, index, &text), "GpaGetCounterGroup");
    info.group = text;
    library_->Check(gpa().GpaGetCounterDescription(id_, index, &text), "GpaGetCounterDescription");
    info.description = text;
    library_->Check(gpa().GpaGetCounterDataType(id_, index, &info.data_type), "GpaGetCounterDataType");
    library_->Check(gpa().GpaGetCounterUsageType(id_, index, &info.usage), "GpaGetCounterUsageType");
    library_->Check(gpa().GpaGetCounterUuid(id_, index, &info.uuid), "GpaGetCounterUuid");
    return info;
  }
  std::vector<CounterInfo> Counters() const {
    std::vector<CounterInfo> counters;
    const GpaUInt32 count = CounterCount();
    counters.reserve(count);
    for (GpaUInt32 i = 0; i < count; ++i) counters.push_back(Counter(i));
    return counters;
  }
  // The counter's index (case-insensitive name), or nullopt when the context has no such counter.
  std::optional<GpaUInt32> FindCounter(const std::string& name) const {
    GpaUInt32 index = 0;
    const GpaStatus status = gpa().GpaGetCounterIndex(id_, name.c_str(), &index);
    if (status == kGpaStatusErrorCounterNotFound) return std::nullopt;
    library_->Check(status, "GpaGetCounterIndex");
    return index;
  }

 private:
  const GpaFunctionTable& gpa() const { return library_->gpa(); }

  Library* library_;
  GpaContextId id_ = nullptr;
};

class Session {
 public:
  explicit Session(Context& context, GpaSessionSampleType type = kGpaSessionSampleTypeDiscreteCounter)
      : context_(&context) {
    Check(gpa().GpaCreateSession(context.id(), type, &id_), "GpaCreateSession");
  }
  ~Session() {
    if (id_ != nullptr) gpa().GpaDeleteSession(id_);
  }
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  GpaSessionId id() const { return id_; }
  Context& context() const { return *context_; }

  void Enable(GpaUInt32 index) { Check(gpa().GpaEnableCounter(id_, index), "GpaEnableCounter"); }
  void Enable(const std::string& name) {
    Check(gpa().GpaEnableCounterByName(id_, name.c_str()), "GpaEnableCounterByName");
  }
  void EnableAll() { Check(gpa().GpaEnableAllCounters(id_), "GpaEnableAllCounters"); }
  void Disable(GpaUInt32 index) { Check(gpa().GpaDisableCounter(id_, index), "GpaDisableCounter"); }

  GpaUInt32 PassCount() const {
    GpaUInt32 passes = 0;
    Check(gpa().GpaGetPassCount(id_, &passes), "GpaGetPassCount");
    return passes;
  }
  // Public counter indices of the enabled counters, in the order results are returned.
  std::vector<GpaUInt32> EnabledCounters() const {
    GpaUInt32 count = 0;
    Check(gpa().GpaGetNumEnabledCounters(id_, &count), "GpaGetNumEnabledCounters");
    std::vector<GpaUInt32> indices(count);
    for (GpaUInt32 i = 0; i < count; ++i) Check(gpa().GpaGetEnabledIndex(id_, i, &indices[i]), "GpaGetEnabledIndex");
    return indices;
  }

  void Begin() { Check(gpa().GpaBeginSession(id_), "GpaBeginSession"); }
  void End() { Check(gpa().GpaEndSession(id_), "GpaEndSession"); }

  bool IsComplete() const {
    const GpaStatus status = gpa().GpaIsSessionComplete(id_);
    Check(status, "GpaIsSessionComplete");
    return status == kGpaStatusOk;
  }
  std::vector<GpaUInt32> SampleIds() const {
    GpaUInt32 count = 0;
    Check(gpa().GpaGetSampleCount(id_, &count), "GpaGetSampleCount");
    std::vector<GpaUInt32> ids(count);
    for (GpaUInt32 i = 0; i < count; ++i) Check(gpa().GpaGetSampleId(id_, i, &ids[i]), "GpaGetSampleId");
    return ids;
  }

  // The raw 64-bit words GPA returns for `sample_id`, one per enabled counter (blocks until ready).
  std::vector<GpaUInt64> RawResult(GpaUInt32 sample_id) const {
    std::size_t size = 0;
    Check(gpa().GpaGetSampleResultSize(id_, sample_id, &size), "GpaGetSampleResultSize");
    std::vector<GpaUInt64> words(size / sizeof(GpaUInt64));
    Check(gpa().GpaGetSampleResult(id_, sample_id, size, words.data()), "GpaGetSampleResult");
    return words;
  }
  // `sample_id`'s values typed by each enabled counter's data type, in enabled order.
  std::vector<CounterValue> Result(GpaUInt32 sample_id) const {
    const std::vector<GpaUInt64> words = RawResult(sample_id);
    const std::vector<GpaDataType>& types = EnabledDataTypes();
    std::vector<CounterValue> values;
    values.reserve(words.size());
    for (std::size_t i = 0; i < words.size(); ++i) {
      if (i < types.size() && types[i] == kGpaDataTypeFloat64) {
        double value;
        std::memcpy(&value, &words[i], sizeof value);
        values.emplace_back(value);
      } else {
        values.emplace_back(static_cast<std::uint64_t>(words[i]));
      }
    }
    return values;
  }
  // One enabled counter of one sample; throws Error(kGpaStatusErrorInvalidDataType) when the counter
  // is not of the requested type, Error(kGpaStatusErrorIndexOutOfRange) for a bad position.
  std::uint64_t ResultUint64(GpaUInt32 sample_id, std::size_t enabled_position) const {
    return Typed<std::uint64_t>(sample_id, enabled_position);
  }
  double ResultFloat64(GpaUInt32 sample_id, std::size_t enabled_position) const {
    return Typed<double>(sample_id, enabled_position);
  }

 private:
  const GpaFunctionTable& gpa() const { return context_->library().gpa(); }
  void Check(GpaStatus status, const char* function) const { context_->library().Check(status, function); }

  const std::vector<GpaDataType>& EnabledDataTypes() const {
    if (types_.empty()) {
      for (GpaUInt32 index : EnabledCounters()) {
        GpaDataType type = kGpaDataTypeFloat64;
        Check(gpa().GpaGetCounterDataType(context_->id(), index, &type), "GpaGetCounterDataType");
        types_.push_back(type);
      }
    }
    return types_;
  }

  template <typename T>
  T Typed(GpaUInt32 sample_id, std::size_t position) const {
    const std::vector<CounterValue> values = Result(sample_id);
    if (position >= values.size()) {
      throw Error(kGpaStatusErrorIndexOutOfRange, "opengpa::Session: enabled position " + std::to_string(position) +
                                                      " is not below " + std::to_string(values.size()));
    }
    if (!std::holds_alternative<T>(values[position])) {
      throw Error(kGpaStatusErrorInvalidDataType,
                  "opengpa::Session: enabled counter " + std::to_string(position) + " has the other data type");
    }
    return std::get<T>(values[position]);
  }

  Context* context_;
  GpaSessionId id_ = nullptr;
  mutable std::vector<GpaDataType> types_;  // fixed once counters are enabled and the session begun
};

class CommandList {
 public:
  CommandList(Session& session, GpaUInt32 pass, void* api_list = GPA_NULL_COMMAND_LIST,
              GpaCommandListType type = kGpaCommandListNone)
      : session_(&session) {
    Check(gpa().GpaBeginCommandList(session.id(), pass, api_list, type, &id_), "GpaBeginCommandList");
  }
  // Ends the list if End() was not called (errors are then only logged by GPA).
  ~CommandList() {
    if (open_) gpa().GpaEndCommandList(id_);
  }
  CommandList(const CommandList&) = delete;
  CommandList& operator=(const CommandList&) = delete;

  GpaCommandListId id() const { return id_; }

  void End() {
    open_ = false;
    Check(gpa().GpaEndCommandList(id_), "GpaEndCommandList");
  }
  void BeginSample(GpaUInt32 sample_id) { Check(gpa().GpaBeginSample(sample_id, id_), "GpaBeginSample"); }
  void EndSample() { Check(gpa().GpaEndSample(id_), "GpaEndSample"); }
  void ContinueSample(GpaUInt32 sample_id) {
    Check(gpa().GpaContinueSampleOnCommandList(sample_id, id_), "GpaContinueSampleOnCommandList");
  }
  // Makes the samples of `secondary` (an ended secondary list executed by this one) results of this
  // list under `new_sample_ids`, in the order they were recorded.
  void CopySecondarySamples(CommandList& secondary, std::vector<GpaUInt32> new_sample_ids) {
    Check(gpa().GpaCopySecondarySamples(secondary.id_, id_, static_cast<GpaUInt32>(new_sample_ids.size()),
                                        new_sample_ids.data()),
          "GpaCopySecondarySamples");
  }

 private:
  const GpaFunctionTable& gpa() const { return session_->context().library().gpa(); }
  void Check(GpaStatus status, const char* function) const { session_->context().library().Check(status, function); }

  Session* session_;
  GpaCommandListId id_ = nullptr;
  bool open_ = true;
};

// Begins a sample on construction and ends it on destruction.
class ScopedSample {
 public:
  ScopedSample(CommandList& list, GpaUInt32 sample_id) : list_(&list) { list.BeginSample(sample_id); }
  ~ScopedSample() {
    try {
      list_->EndSample();
    } catch (const Error&) {
      // Destructors do not throw; GPA has logged the reason.
    }
  }
  ScopedSample(const ScopedSample&) = delete;
  ScopedSample& operator=(const ScopedSample&) = delete;

 private:
  CommandList* list_;
};

}  // namespace opengpa

#endif  // OPENGPA_OPENGPA_HPP_
