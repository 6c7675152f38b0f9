// GpaGetVersion, GpaGetFuncTable, GpaRegisterLoggingCallback, GpaGetStatusAsStr.
#include <cstring>

#include "core/backend.h"
#include "core/version.h"
#include "entry/entry_support.h"
#include "entry/gpa4/core_bridge.h"
#include "platform/type_strings.h"

using namespace opengpa;
using namespace opengpa::entry;

GpaStatus GpaGetVersion(GpaUInt32* major_version, GpaUInt32* minor_version, GpaUInt32* build_version,
                        GpaUInt32* update_version) {
  return Guarded("GpaGetVersion", [&] {
    if (major_version == nullptr) return NullArgument("GpaGetVersion", "major_version");
    if (minor_version == nullptr) return NullArgument("GpaGetVersion", "minor_version");
    if (build_version == nullptr) return NullArgument("GpaGetVersion", "build_version");
    if (update_version == nullptr) return NullArgument("GpaGetVersion", "update_version");
    *major_version = OPENGPA_VERSION_MAJOR;
    *minor_version = OPENGPA_VERSION_MINOR;
    *build_version = OPENGPA_VERSION_BUILD;
    *update_version = OPENGPA_VERSION_UPDATE;
    return kGpaStatusOk;
  });
}

GpaStatus GpaGetFuncTable(void* gpa_func_table) {
  return Guarded("GpaGetFuncTable", [&] {
    if (gpa_func_table == nullptr) return NullArgument("GpaGetFuncTable", "gpa_func_table");
    GpaFunctionTable ours{};
    ours.major_version = GPA_FUNCTION_TABLE_MAJOR_VERSION_NUMBER;
    ours.minor_version = GPA_FUNCTION_TABLE_MINOR_VERSION_NUMBER;
#define GPA_FUNCTION_PREFIX(func) ours.func = func;
#include "gpu_performance_api/gpu_perf_api_functions.h"
#undef GPA_FUNCTION_PREFIX

    // The header is two GpaUInt32s; the caller's table is only known to be that large.
    GpaUInt32 header[2];
    std::memcpy(header, gpa_func_table, sizeof header);
    const GpaUInt32 caller_major = header[0];
    const GpaUInt32 caller_size = header[1];
    // GPA 4's table, from the same library, except for OpenCL, which GPA 4 dropped.
    constexpr GpaUInt32 kGpa4Major = 4;
    if (caller_major == kGpa4Major && ActiveBackend().Api() != kGpaApiOpencl) {
      return gpa4::FillFunctionTable(gpa_func_table);
    }
    if (caller_major != GPA_FUNCTION_TABLE_MAJOR_VERSION_NUMBER) {
      // Both versions tell the client what this library is, as GPA does.
      header[0] = GPA_FUNCTION_TABLE_MAJOR_VERSION_NUMBER;
      header[1] = GPA_FUNCTION_TABLE_MINOR_VERSION_NUMBER;
      std::memcpy(gpa_func_table, header, sizeof header);
      return LogError(kGpaStatusErrorLibLoadMajorVersionMismatch,
                      "GpaGetFuncTable: major_version {} is not one this library serves ({}{})", caller_major,
                      GPA_FUNCTION_TABLE_MAJOR_VERSION_NUMBER,
                      ActiveBackend().Api() == kGpaApiOpencl ? "; GPA 4 has no OpenCL" : " or 4");
    }
    constexpr GpaUInt32 kHeaderSize = offsetof(GpaFunctionTable, GpaGetFuncTable);  // the first entry point
    if (caller_size > sizeof(GpaFunctionTable) || caller_size < kHeaderSize) {
      header[1] = GPA_FUNCTION_TABLE_MINOR_VERSION_NUMBER;
      std::memcpy(gpa_func_table, header, sizeof header);
      return LogError(kGpaStatusErrorLibLoadMinorVersionMismatch,
                      "GpaGetFuncTable: minor_version (the caller's table size) {} is not between {} and this "
                      "library's table size {}",
                      caller_size, kHeaderSize, sizeof(GpaFunctionTable));
    }
    // An older client's table is a prefix of ours: fill the whole entries that fit.
    const std::size_t fitting = (caller_size - kHeaderSize) / sizeof(void*) * sizeof(void*);
    std::memcpy(static_cast<char*>(gpa_func_table) + kHeaderSize, reinterpret_cast<const char*>(&ours) + kHeaderSize,
                fitting);
    header[0] = ours.major_version;
    header[1] = ours.minor_version;
    std::memcpy(gpa_func_table, header, sizeof header);
    return kGpaStatusOk;
  });
}

GpaStatus GpaRegisterLoggingCallback(GpaLoggingType logging_type, GpaLoggingCallbackPtrType callback_func_ptr) {
  return Guarded("GpaRegisterLoggingCallback", [&] {
    // A bit mask: any int is a valid combination to a C caller; bits GPA does not define select nothing.
    const auto types = static_cast<unsigned>(EnumArgument(logging_type));
    if (callback_func_ptr == nullptr && types != kGpaLoggingNone) {
      return NullArgument("GpaRegisterLoggingCallback", "callback_func_ptr");
    }
    SetLoggingCallback(types, callback_func_ptr);
    return kGpaStatusOk;
  });
}

const char* GpaGetStatusAsStr(GpaStatus status) { return StatusAsString(EnumArgument(status)); }
