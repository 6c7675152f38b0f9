// The v4 function table: GpaGetFuncTable (version_entry.cc) hands a caller whose major_version is 4 to
// FillFunctionTable. Entries whose v4 signature and behaviour are v3's are the exported v3 functions; the others
// are opengpa::gpa4's (unqualified lookup here finds those first).
#include <cstring>

#include "entry/gpa4/core_bridge.h"
#include "entry/gpa4/gpa4_entry_points.h"
#include "entry/gpa4/v3_entry_points.h"
#include "platform/logging.h"

namespace opengpa::gpa4 {

GpaStatus FillFunctionTable(void* table) {
  GpaFunctionTable ours;
#define GPA_FUNCTION_PREFIX(func) ours.func = func;
#include "gpu_performance_api/gpu_perf_api_functions.h"
#undef GPA_FUNCTION_PREFIX

  // The caller's table is only known to hold its two versions; its minor_version is the size it has.
  GpaUInt32 header[2];
  std::memcpy(header, table, sizeof header);
  const GpaUInt32 caller_size = header[1];
  constexpr GpaUInt32 kHeaderSize = offsetof(GpaFunctionTable, GpaGetFuncTable);
  header[0] = ours.major_version;
  header[1] = ours.minor_version;
  if (caller_size > sizeof(GpaFunctionTable) || caller_size < kHeaderSize) {
    std::memcpy(table, header, sizeof header);
    return LogError(kGpaStatusErrorLibLoadMinorVersionMismatch,
                    "GpaGetFuncTable: minor_version (the caller's v4 table size) {} is not between {} and this "
                    "library's v4 table size {}",
                    caller_size, kHeaderSize, sizeof(GpaFunctionTable));
  }
  // A smaller v4 table (an earlier GPA 4 release) gets the entries that fit.
  const std::size_t fitting = (caller_size - kHeaderSize) / sizeof(void*) * sizeof(void*);
  std::memcpy(static_cast<char*>(table) + kHeaderSize, reinterpret_cast<const char*>(&ours) + kHeaderSize, fitting);
  std::memcpy(table, header, sizeof header);
  return kGpaStatusOk;
}

}  // namespace opengpa::gpa4
