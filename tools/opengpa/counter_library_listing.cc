#include "counter_library_listing.h"

#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include "counter_library_call.h"
#include "gpu_performance_api/gpu_perf_api_counters.h"
#include "gpu_performance_api/opengpa_counters_ext.h"
#include "library_path.h"
#include "platform/dynamic_library.h"
#include "platform/type_strings.h"

namespace opengpa::cli {
namespace {

constexpr const char kCounterLibrary[] = "libGPUPerfAPICounters.so";

// The library's last error, for the CLI's message (its callback has no user pointer).
std::string& LastLibraryError() {
  static std::string message;
  return message;
}

// Errors are kept for the CLI's own message; other messages (registered only with --verbose) go to stderr.
void OnLibraryMessage(GpaLoggingType type, const char* message) {
  if ((type & kGpaLoggingError) != 0) {
    LastLibraryError() = message;
  } else {
    std::cerr << "libGPUPerfAPICounters: " << message << '\n';
  }
}

std::string Hex(GpaUInt32 value) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%X", value);
  return text;
}

// GPA's strings for its data and usage types (GpaGetDataTypeAsStr / GpaGetUsageTypeAsStr, which the counter
// library does not have), so a listing reads the same from either library: the live libraries' own text.
const char* DataTypeName(GpaDataType type) {
  const char* name = DataTypeAsString(static_cast<int>(type));
  return name != nullptr ? name : "unknown";
}

const char* UsageName(GpaUsageType usage) {
  const char* name = UsageTypeAsString(static_cast<int>(usage));
  return name != nullptr ? name : "unknown";
}

// The library loaded and its table filled, with its log routed to stderr until it is unloaded.
class CounterLibrary {
 public:
  static std::unique_ptr<CounterLibrary> Load(bool verbose, std::string* error) {
    const std::optional<std::string> path = FindOpenGpaLibrary(kCounterLibrary, error);
    if (!path) return nullptr;
    auto library = std::make_unique<CounterLibrary>();
    std::string why;
    library->handle_ = DynamicLibrary::Open({*path}, &why);
    if (library->handle_ == nullptr) {
      *error = "cannot load " + *path + ": " + why;
      return nullptr;
    }
    const auto get_table = library->handle_->Get<GpaCounterLibGetFuncTablePtrType>("GpaCounterLibGetFuncTable");
    if (get_table == nullptr || get_table(&library->table_) != kGpaStatusOk) {
      *error = *path + " gives no GPA counter-library table";
      return nullptr;
    }
    library->register_logging_ = library->handle_->Get<OpenGpaCounterLibRegisterLoggingCallbackPtrType>(
        "OpenGpaCounterLibRegisterLoggingCallback");
    if (library->register_logging_ != nullptr) {
      library->register_logging_(verbose ? kGpaLoggingErrorAndMessage : kGpaLoggingError, &OnLibraryMessage);
    }
    library->formula_ =
        library->handle_->Get<OpenGpaCounterLibGetCounterFormulaPtrType>("OpenGpaCounterLibGetCounterFormula");
    return library;
  }
  ~CounterLibrary() {
    if (context_ != nullptr) table_.GpaCounterLibCloseCounterContext(context_);
    if (register_logging_ != nullptr) register_logging_(kGpaLoggingNone, nullptr);
  }

  const GpaCounterLibFuncTable& Table() const { return table_; }
  OpenGpaCounterLibGetCounterFormulaPtrType Formula() const { return formula_; }
  GpaCounterContext& Context() { return context_; }

 private:
  std::unique_ptr<DynamicLibrary> handle_;
  GpaCounterLibFuncTable table_;  // the header's constructor states the version this CLI was built with
  OpenGpaCounterLibRegisterLoggingCallbackPtrType register_logging_ = nullptr;
  OpenGpaCounterLibGetCounterFormulaPtrType formula_ = nullptr;
  GpaCounterContext context_ = nullptr;
};

bool Failed(GpaStatus status, const std::string& call, std::string* error) {
  if (status == kGpaStatusOk) return false;
  *error = call + " failed (status " + std::to_string(status) + ")";
  if (!LastLibraryError().empty()) *error += ": " + LastLibraryError();
  return true;
}

}  // namespace

bool ParseDeviceId(const std::string& text, GpaUInt32* value) {
  if (text.empty() || text[0] == '-' || text[0] == '+') return false;
  try {
    std::size_t used = 0;
    const unsigned long long parsed = std::stoull(text, &used, 0);
    if (used != text.size() || parsed > 0xFFFFFFFFull) return false;
    *value = static_cast<GpaUInt32>(parsed);
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

bool DescribeThroughCounterLibrary(const CounterLibraryDevice& device, DeviceDescription* description,
                                   std::vector<CounterDescription>* counters, std::string* error) {
  LastLibraryError().clear();
  std::unique_ptr<CounterLibrary> library = CounterLibrary::Load(device.verbose, error);
  if (!library) return false;
  const GpaCounterLibFuncTable& lib = library->Table();
  GpaCounterContextHardwareInfo info{};
  info.vendor_id = device.vendor_id;
  info.device_id = device.device_id;
  info.revision_id = device.revision_id;
  const GpaOpenContextFlags flags =
      device.hardware ? kGpaOpenContextEnableHardwareCountersBit : kGpaOpenContextDefaultBit;
  const std::string ids = "vendor " + Hex(device.vendor_id) + ", device " + Hex(device.device_id);
  if (Failed(OpenGpaCliOpenCounterContext(lib.GpaCounterLibOpenCounterContext, device.api, info, flags, 1,
                                          &library->Context()),
             "GpaCounterLibOpenCounterContext (" + ids + ")", error)) {
    return false;
  }
  const GpaCounterContext context = library->Context();
  description->name = ids;
  description->device_id = device.device_id;
  description->revision_id = device.revision_id;
  description->generation = "none";
  GpaUInt32 count = 0;
  if (Failed(lib.GpaCounterLibGetNumCounters(context, &count), "GpaCounterLibGetNumCounters", error)) return false;
  counters->clear();
  for (GpaUInt32 index = 0; index < count; ++index) {
    CounterDescription counter;
    counter.index = index;
    const std::string where = " (counter " + std::to_string(index) + ")";
    const char* text = nullptr;
    if (Failed(lib.GpaCounterLibGetCounterName(context, index, &text), "GpaCounterLibGetCounterName" + where, error)) {
      return false;
    }
    counter.name = text;
    if (Failed(lib.GpaCounterLibGetCounterGroup(context, index, &text), "GpaCounterLibGetCounterGroup" + where,
               error)) {
      return false;
    }
    counter.group = text;
    if (Failed(lib.GpaCounterLibGetCounterDescription(context, index, &text),
               "GpaCounterLibGetCounterDescription" + where, error)) {
      return false;
    }
    counter.description = text;
    GpaDataType type{};
    GpaUsageType usage{};
    GpaUuid uuid{};
    GpaCounterSampleType sample_type{};
    if (Failed(lib.GpaCounterLibGetCounterDataType(context, index, &type), "GpaCounterLibGetCounterDataType" + where,
               error) ||
        Failed(lib.GpaCounterLibGetCounterUsageType(context, index, &usage), "GpaCounterLibGetCounterUsageType" + where,
               error) ||
        Failed(lib.GpaCounterLibGetCounterUuid(context, index, &uuid), "GpaCounterLibGetCounterUuid" + where, error) ||
        Failed(lib.GpaCounterLibGetCounterSampleType(context, index, &sample_type),
               "GpaCounterLibGetCounterSampleType" + where, error)) {
      return false;
    }
    counter.data_type = DataTypeName(type);
    counter.usage = UsageName(usage);
    counter.uuid = FormatUuid(uuid);
    counter.sample_type = "discrete";  // the counter library's contexts are discrete (GPA v3's only sample type)
    if (library->Formula() != nullptr && library->Formula()(context, index, &text) == kGpaStatusOk && text) {
      counter.formula = text;
    }
    counters->push_back(std::move(counter));
  }
  return true;
}

}  // namespace opengpa::cli
