// The v4 counter-library table: GpaCounterLibGetFuncTable (counter_library_entry.cc) hands it a caller that
// stated major version 4, or 3 with a table larger than v3's (GPA 4.3's own headers). Entries whose GPA 4
// signature and behaviour are v3's are the exported v3 functions; the others are this folder's.
#include <cstddef>
#include <cstring>

#include "counter_library/gpa4/gpa4_entry_points.h"
#include "counter_library/gpa4/v3_entry_points.h"
#include "counter_library/gpa4_bridge.h"
#include "platform/logging.h"

namespace opengpa::counter_library::gpa4 {

static_assert(kNoBlock == kGpaHwBlockCount, "the bridge's GPA 4 block count is the v4 header's");
static_assert(sizeof(GpaCounterLibFuncTable) == 160, "GPA 4.3's counter-library table has 19 entries");
// v3.17's seventeen entries keep their slots; GPA 4.3 appends its two.
static_assert(offsetof(GpaCounterLibFuncTable, GpaCounterLibGetCountersByPass) == 8 + 16 * sizeof(void*),
              "v3's last slot");
static_assert(offsetof(GpaCounterLibFuncTable, GpaCounterLibGetSupportedSampleTypes) == 8 + 17 * sizeof(void*),
              "slot 17");
static_assert(offsetof(GpaCounterLibFuncTable, GpaCounterlibComputeDerivedSpmCounterResults) == 8 + 18 * sizeof(void*),
              "slot 18");

GpaStatus FillFunctionTable(void* table) {
  GpaCounterLibFuncTable ours;
  ours.GpaCounterLibGetVersion = ::GpaCounterLibGetVersion;
  ours.GpaCounterLibGetFuncTable = ::GpaCounterLibGetFuncTable;
  ours.GpaCounterLibOpenCounterContext = OpenCounterContextV4;
  ours.GpaCounterLibCloseCounterContext = ::GpaCounterLibCloseCounterContext;
  ours.GpaCounterLibGetNumCounters = ::GpaCounterLibGetNumCounters;
  ours.GpaCounterLibGetCounterName = ::GpaCounterLibGetCounterName;
  ours.GpaCounterLibGetCounterIndex = ::GpaCounterLibGetCounterIndex;
  ours.GpaCounterLibGetCounterGroup = ::GpaCounterLibGetCounterGroup;
  ours.GpaCounterLibGetCounterDescription = ::GpaCounterLibGetCounterDescription;
  ours.GpaCounterLibGetCounterDataType = ::GpaCounterLibGetCounterDataType;
  ours.GpaCounterLibGetCounterUsageType = ::GpaCounterLibGetCounterUsageType;
  ours.GpaCounterLibGetCounterUuid = GetCounterUuid;
  ours.GpaCounterLibGetCounterSampleType = GetCounterSampleType;
  ours.GpaCounterLibGetCounterInfo = ::GpaCounterLibGetCounterInfo;
  ours.GpaCounterLibComputeDerivedCounterResult = ComputeDerivedCounterResultV4;
  ours.GpaCounterLibGetPassCount = ::GpaCounterLibGetPassCount;
  ours.GpaCounterLibGetCountersByPass = ::GpaCounterLibGetCountersByPass;
  ours.GpaCounterLibGetSupportedSampleTypes = GetSupportedSampleTypes;
  ours.GpaCounterlibComputeDerivedSpmCounterResults = ComputeDerivedSpmCounterResults;

  // The caller's table is only known to hold its two versions; its minor version is the size it has.
  GpaUInt32 header[2];
  std::memcpy(header, table, sizeof header);
  constexpr GpaUInt32 kHeaderSize = offsetof(GpaCounterLibFuncTable, GpaCounterLibGetVersion);
  const GpaUInt32 caller_size = header[1];
  header[1] = static_cast<GpaUInt32>(sizeof(GpaCounterLibFuncTable));
  if (caller_size > sizeof(GpaCounterLibFuncTable) || caller_size < kHeaderSize) {
    std::memcpy(table, header, sizeof header);
    return LogError(kGpaStatusErrorLibLoadMinorVersionMismatch,
                    "GpaCounterLibGetFuncTable: gpa_counter_lib_minor_version (the caller's v4 table size) {} is not "
                    "between {} and this library's v4 table size {}",
                    caller_size, kHeaderSize, sizeof(GpaCounterLibFuncTable));
  }
  // A smaller v4 table (major version 4 stated by an older caller) gets the entries that fit whole.
  const std::size_t fitting = (caller_size - kHeaderSize) / sizeof(void*) * sizeof(void*);
  std::memcpy(static_cast<char*>(table) + kHeaderSize, reinterpret_cast<const char*>(&ours) + kHeaderSize, fitting);
  // As GPA documents: after the call the versions are the library's (the major one the caller stated is kept).
  std::memcpy(table, header, sizeof header);
  return kGpaStatusOk;
}

}  // namespace opengpa::counter_library::gpa4
