// The exported OpenGpaMonitor* functions (include/gpu_performance_api/opengpa_monitor.h): argument
// checks, handle bookkeeping and conversion to and from the C++ Monitor. No exception crosses the ABI.
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "gpu_performance_api/opengpa_monitor.h"
#include "monitor/metrics_exposition.h"
#include "monitor/metrics_http_server.h"
#include "monitor/monitor.h"
#include "platform/enum_argument.h"
#include "platform/guarded.h"
#include "platform/logging.h"

namespace opengpa::monitor {
namespace {

struct MonitorEntry {
  std::unique_ptr<Monitor> monitor;
  std::mutex server_mutex;
  std::unique_ptr<MetricsHttpServer> server;
  std::vector<OpenGpaMonitorRecord> callback_records;  // sampler thread only
};

// Handles are ids into this table. A call holds a shared_ptr, so Destroy from another thread cannot
// pull the monitor out from under it.
std::mutex g_table_mutex;
std::map<uintptr_t, std::shared_ptr<MonitorEntry>> g_monitors;
uintptr_t g_next_id = 0x6f6d0001;  // never 0, unlikely to equal a stray pointer

std::shared_ptr<MonitorEntry> Find(OpenGpaMonitor handle, const char* function, GpaStatus* status) {
  std::lock_guard<std::mutex> lock(g_table_mutex);
  const auto found = g_monitors.find(reinterpret_cast<uintptr_t>(handle));
  if (found == g_monitors.end()) {
    *status = LogError(kGpaStatusErrorInvalidParameter, "{}: monitor {} is not a live monitor handle", function,
                       static_cast<const void*>(handle));
    return nullptr;
  }
  *status = kGpaStatusOk;
  return found->second;
}

OpenGpaMonitorRecord ToC(const MonitorRecord& record) {
  return {record.timestamp_ns, record.duration_ns, record.device_index, record.counter_index, record.value};
}

GpaStatus CreateMonitor(const OpenGpaMonitorConfig* config, OpenGpaMonitor* handle) {
  if (handle == nullptr) return LogError(kGpaStatusErrorNullPointer, "OpenGpaMonitorCreate: monitor is null");
  *handle = nullptr;
  if (config == nullptr) return LogError(kGpaStatusErrorNullPointer, "OpenGpaMonitorCreate: config is null");
  if (config->struct_size < sizeof(OpenGpaMonitorConfig)) {
    return LogError(kGpaStatusErrorInvalidParameter,
                    "OpenGpaMonitorCreate: config->struct_size is {}, expected sizeof(OpenGpaMonitorConfig) = {}",
                    config->struct_size, sizeof(OpenGpaMonitorConfig));
  }
  if (config->device_count > 0 && config->device_indices == nullptr) {
    return LogError(kGpaStatusErrorNullPointer,
                    "OpenGpaMonitorCreate: config->device_indices is null but device_count is {}",
                    config->device_count);
  }
  if (config->counter_count > 0 && config->counter_names == nullptr) {
    return LogError(kGpaStatusErrorNullPointer,
                    "OpenGpaMonitorCreate: config->counter_names is null but counter_count is {}",
                    config->counter_count);
  }
  MonitorOptions options;
  options.interval = std::chrono::milliseconds(config->interval_ms == 0 ? 1000 : config->interval_ms);
  for (GpaUInt32 i = 0; i < config->device_count; ++i) options.device_indices.push_back(config->device_indices[i]);
  for (GpaUInt32 i = 0; i < config->counter_count; ++i) {
    if (config->counter_names[i] == nullptr) {
      return LogError(kGpaStatusErrorNullPointer, "OpenGpaMonitorCreate: config->counter_names[{}] is null", i);
    }
    options.counters.emplace_back(config->counter_names[i]);
  }
  if (config->pm_interval_ns != 0) options.pm_interval_ns = config->pm_interval_ns;
  if (config->pm_hardware_buffer_bytes != 0) options.pm_hardware_buffer_bytes = config->pm_hardware_buffer_bytes;
  if (config->record_capacity != 0) options.record_capacity = config->record_capacity;
  if (config->nvml_library != nullptr) options.nvml_library_candidates = {config->nvml_library};
  if (config->cupti_library != nullptr) options.cupti_library_candidates = {config->cupti_library};

  auto entry = std::make_shared<MonitorEntry>();
  if (config->callback != nullptr) {
    // The entry owns the monitor, which owns this function: a raw pointer back cannot dangle.
    MonitorEntry* raw_entry = entry.get();
    const OpenGpaMonitorRecordCallback callback = config->callback;
    void* user_data = config->callback_user_data;
    options.on_records = [raw_entry, callback, user_data](const MonitorRecord* records, size_t count) {
      raw_entry->callback_records.resize(count);
      for (size_t i = 0; i < count; ++i) raw_entry->callback_records[i] = ToC(records[i]);
      callback(raw_entry->callback_records.data(), static_cast<GpaUInt32>(count), user_data);
    };
  }
  if (GpaStatus status = Monitor::Create(options, &entry->monitor); status != kGpaStatusOk) return status;

  std::lock_guard<std::mutex> lock(g_table_mutex);
  const uintptr_t id = g_next_id++;
  g_monitors.emplace(id, std::move(entry));
  // The handle is the table's key in pointer form, never dereferenced (as GPA's ids are).
  *handle = reinterpret_cast<OpenGpaMonitor>(id);  // NOLINT(performance-no-int-to-ptr)
  return kGpaStatusOk;
}

}  // namespace
}  // namespace opengpa::monitor

using opengpa::Guarded;
using opengpa::LogError;
using opengpa::monitor::ExpositionFormat;
using opengpa::monitor::Find;
using opengpa::monitor::MonitorEntry;

extern "C" {

GPA_LIB_DECL GpaStatus OpenGpaMonitorRegisterLoggingCallback(GpaLoggingType logging_type,
                                                             GpaLoggingCallbackPtrType callback) {
  // A bit mask, read as the int a C caller passed (platform/enum_argument.h).
  opengpa::SetLoggingCallback(static_cast<unsigned>(opengpa::EnumArgument(logging_type)), callback);
  return kGpaStatusOk;
}

GPA_LIB_DECL GpaStatus OpenGpaMonitorCreate(const OpenGpaMonitorConfig* config, OpenGpaMonitor* monitor) {
  return Guarded("OpenGpaMonitorCreate", [&] { return opengpa::monitor::CreateMonitor(config, monitor); });
}

GPA_LIB_DECL GpaStatus OpenGpaMonitorDestroy(OpenGpaMonitor monitor) {
  return Guarded("OpenGpaMonitorDestroy", [&] {
    std::shared_ptr<MonitorEntry> entry;
    {
      std::lock_guard<std::mutex> lock(opengpa::monitor::g_table_mutex);
      const auto found = opengpa::monitor::g_monitors.find(reinterpret_cast<uintptr_t>(monitor));
      if (found == opengpa::monitor::g_monitors.end()) {
        return LogError(kGpaStatusErrorInvalidParameter,
                        "OpenGpaMonitorDestroy: monitor {} is not a live monitor handle",
                        static_cast<const void*>(monitor));
      }
      entry = std::move(found->second);
      opengpa::monitor::g_monitors.erase(found);
    }
    {
      std::lock_guard<std::mutex> lock(entry->server_mutex);
      entry->server.reset();  // before the monitor its body provider reads
    }
    return kGpaStatusOk;  // the monitor stops when the last reference goes
  });
}

GPA_LIB_DECL GpaStatus OpenGpaMonitorGetCounterCount(OpenGpaMonitor monitor, GpaUInt32* count) {
  return Guarded("OpenGpaMonitorGetCounterCount", [&] {
    if (count == nullptr) return LogError(kGpaStatusErrorNullPointer, "OpenGpaMonitorGetCounterCount: count is null");
    GpaStatus status;
    auto entry = Find(monitor, "OpenGpaMonitorGetCounterCount", &status);
    if (entry == nullptr) return status;
    *count = static_cast<GpaUInt32>(entry->monitor->Counters().size());
    return kGpaStatusOk;
  });
}

GPA_LIB_DECL GpaStatus OpenGpaMonitorGetCounterInfo(OpenGpaMonitor monitor, GpaUInt32 index,
                                                    OpenGpaMonitorCounterInfo* info) {
  return Guarded("OpenGpaMonitorGetCounterInfo", [&] {
    if (info == nullptr) return LogError(kGpaStatusErrorNullPointer, "OpenGpaMonitorGetCounterInfo: info is null");
    GpaStatus status;
    auto entry = Find(monitor, "OpenGpaMonitorGetCounterInfo", &status);
    if (entry == nullptr) return status;
    const auto& counters = entry->monitor->Counters();
    if (index >= counters.size()) {
      return LogError(kGpaStatusErrorIndexOutOfRange, "OpenGpaMonitorGetCounterInfo: index {} >= counter count {}",
                      index, counters.size());
    }
    const auto& counter = counters[index];
    info->name = counter.name.c_str();
    info->description = counter.description.c_str();
    info->unit = counter.unit.c_str();
    info->kind =
        counter.kind == opengpa::monitor::CounterKind::kDelta ? kOpenGpaCounterKindDelta : kOpenGpaCounterKindGauge;
    switch (counter.origin) {
      case opengpa::monitor::CounterOrigin::kNvml: info->origin = kOpenGpaCounterOriginNvml; break;
      case opengpa::monitor::CounterOrigin::kNvmlGpm: info->origin = kOpenGpaCounterOriginNvmlGpm; break;
      case opengpa::monitor::CounterOrigin::kCuptiPmSampling:
        info->origin = kOpenGpaCounterOriginCuptiPmSampling;
        break;
      default: info->origin = kOpenGpaCounterOriginOther; break;
    }
    return kGpaStatusOk;
  });
}

GPA_LIB_DECL GpaStatus OpenGpaMonitorGetDeviceCount(OpenGpaMonitor monitor, GpaUInt32* count) {
  return Guarded("OpenGpaMonitorGetDeviceCount", [&] {
    if (count == nullptr) return LogError(kGpaStatusErrorNullPointer, "OpenGpaMonitorGetDeviceCount: count is null");
    GpaStatus status;
    auto entry = Find(monitor, "OpenGpaMonitorGetDeviceCount", &status);
    if (entry == nullptr) return status;
    *count = static_cast<GpaUInt32>(entry->monitor->Devices().size());
    return kGpaStatusOk;
  });
}

GPA_LIB_DECL GpaStatus OpenGpaMonitorGetDeviceInfo(OpenGpaMonitor monitor, GpaUInt32 index,
                                                   OpenGpaMonitorDeviceInfo* info) {
  return Guarded("OpenGpaMonitorGetDeviceInfo", [&] {
    if (info == nullptr) return LogError(kGpaStatusErrorNullPointer, "OpenGpaMonitorGetDeviceInfo: info is null");
    GpaStatus status;
    auto entry = Find(monitor, "OpenGpaMonitorGetDeviceInfo", &status);
    if (entry == nullptr) return status;
    const auto& devices = entry->monitor->Devices();
    if (index >= devices.size()) {
      return LogError(kGpaStatusErrorIndexOutOfRange, "OpenGpaMonitorGetDeviceInfo: index {} >= device count {}", index,
                      devices.size());
    }
    info->index = devices[index].index;
    info->uuid = devices[index].uuid.c_str();
    info->name = devices[index].name.c_str();
    return kGpaStatusOk;
  });
}

GPA_LIB_DECL GpaStatus OpenGpaMonitorStart(OpenGpaMonitor monitor) {
  return Guarded("OpenGpaMonitorStart", [&] {
    GpaStatus status;
    auto entry = Find(monitor, "OpenGpaMonitorStart", &status);
    return entry == nullptr ? status : entry->monitor->Start();
  });
}

GPA_LIB_DECL GpaStatus OpenGpaMonitorStop(OpenGpaMonitor monitor) {
  return Guarded("OpenGpaMonitorStop", [&] {
    GpaStatus status;
    auto entry = Find(monitor, "OpenGpaMonitorStop", &status);
    return entry == nullptr ? status : entry->monitor->Stop();
  });
}

GPA_LIB_DECL GpaStatus OpenGpaMonitorRead(OpenGpaMonitor monitor, OpenGpaMonitorRecord* records, GpaUInt32 capacity,
                                          GpaUInt32* count) {
  return Guarded("OpenGpaMonitorRead", [&] {
    if (count == nullptr) return LogError(kGpaStatusErrorNullPointer, "OpenGpaMonitorRead: count is null");
    *count = 0;
    if (records == nullptr && capacity > 0) {
      return LogError(kGpaStatusErrorNullPointer, "OpenGpaMonitorRead: records is null but capacity is {}", capacity);
    }
    GpaStatus status;
    auto entry = Find(monitor, "OpenGpaMonitorRead", &status);
    if (entry == nullptr) return status;
    std::vector<opengpa::monitor::MonitorRecord> copied(capacity);
    const size_t read = entry->monitor->Read(copied.data(), copied.size());
    for (size_t i = 0; i < read; ++i) records[i] = opengpa::monitor::ToC(copied[i]);
    *count = static_cast<GpaUInt32>(read);
    return kGpaStatusOk;
  });
}

GPA_LIB_DECL GpaStatus OpenGpaMonitorGetDroppedRecordCount(OpenGpaMonitor monitor, GpaUInt64* count) {
  return Guarded("OpenGpaMonitorGetDroppedRecordCount", [&] {
    if (count == nullptr) {
      return LogError(kGpaStatusErrorNullPointer, "OpenGpaMonitorGetDroppedRecordCount: count is null");
    }
    GpaStatus status;
    auto entry = Find(monitor, "OpenGpaMonitorGetDroppedRecordCount", &status);
    if (entry == nullptr) return status;
    *count = entry->monitor->DroppedRecords();
    return kGpaStatusOk;
  });
}

GPA_LIB_DECL GpaStatus OpenGpaMonitorWriteMetricsText(OpenGpaMonitor monitor, GpaBool openmetrics, char* buffer,
                                                      GpaUInt32* size) {
  return Guarded("OpenGpaMonitorWriteMetricsText", [&] {
    if (size == nullptr) return LogError(kGpaStatusErrorNullPointer, "OpenGpaMonitorWriteMetricsText: size is null");
    GpaStatus status;
    auto entry = Find(monitor, "OpenGpaMonitorWriteMetricsText", &status);
    if (entry == nullptr) return status;
    const std::string text = opengpa::monitor::FormatMetrics(
        entry->monitor->Metrics(), openmetrics ? ExpositionFormat::kOpenMetrics : ExpositionFormat::kPrometheusText);
    const auto needed = static_cast<GpaUInt32>(text.size() + 1);
    const GpaUInt32 available = *size;
    *size = needed;
    if (buffer == nullptr) return kGpaStatusOk;
    if (available < needed) {
      return LogError(kGpaStatusErrorIndexOutOfRange, "OpenGpaMonitorWriteMetricsText: *size {} < {} bytes needed",
                      available, needed);
    }
    std::memcpy(buffer, text.c_str(), needed);
    return kGpaStatusOk;
  });
}

GPA_LIB_DECL GpaStatus OpenGpaMonitorServeMetrics(OpenGpaMonitor monitor, const char* listen_address,
                                                  GpaUInt16* bound_port) {
  return Guarded("OpenGpaMonitorServeMetrics", [&] {
    if (listen_address == nullptr) {
      return LogError(kGpaStatusErrorNullPointer, "OpenGpaMonitorServeMetrics: listen_address is null");
    }
    GpaStatus status;
    auto entry = Find(monitor, "OpenGpaMonitorServeMetrics", &status);
    if (entry == nullptr) return status;
    opengpa::monitor::ListenAddress address;
    if (status = opengpa::monitor::ParseListenAddress(listen_address, &address); status != kGpaStatusOk) return status;
    std::lock_guard<std::mutex> lock(entry->server_mutex);
    if (entry->server != nullptr) {
      return LogError(kGpaStatusErrorAlreadyEnabled, "OpenGpaMonitorServeMetrics: already serving on port {}",
                      entry->server->Port());
    }
    opengpa::monitor::Monitor* raw_monitor = entry->monitor.get();  // outlives the server (Destroy order)
    status = opengpa::monitor::MetricsHttpServer::Start(
        address, [raw_monitor](ExpositionFormat format) { return FormatMetrics(raw_monitor->Metrics(), format); },
        &entry->server);
    if (status == kGpaStatusOk && bound_port != nullptr) *bound_port = entry->server->Port();
    return status;
  });
}

}  // extern "C"
