#include "client/loaded_gpa_library.h"

namespace opengpa::client {
namespace {

constexpr char kGetFuncTable[] = "GpaGetFuncTable";  // the one symbol GPA's loaders look up

}  // namespace

std::unique_ptr<LoadedGpaLibrary> LoadedGpaLibrary::Load(const std::vector<std::string>& paths, std::string* error) {
  std::string attempts;
  for (const std::string& path : paths) {
    std::string reason;
    std::unique_ptr<DynamicLibrary> library = DynamicLibrary::Open({path}, &reason);
    if (library == nullptr) {
      attempts += "\n  " + reason;
      continue;
    }
    auto get_table = library->Get<GpaGetFuncTablePtrType>(kGetFuncTable);
    if (get_table == nullptr) {
      attempts += "\n  " + path + ": does not export " + kGetFuncTable;
      continue;
    }
    // The version this client was compiled against: the library refuses a table layout it cannot fill.
    GpaFunctionTable table{};
    table.major_version = GPA_FUNCTION_TABLE_MAJOR_VERSION_NUMBER;
    table.minor_version = GPA_FUNCTION_TABLE_MINOR_VERSION_NUMBER;
    if (const GpaStatus status = get_table(&table); status != kGpaStatusOk) {
      attempts += "\n  " + path + ": " + kGetFuncTable + " returned " + std::to_string(static_cast<int>(status));
      continue;
    }
    return std::make_unique<LoadedGpaLibrary>(PrivateKey{}, std::move(library), table);
  }
  if (paths.empty()) attempts = "\n  no path to try";
  *error = attempts;
  return nullptr;
}

LoadedGpaLibrary::LoadedGpaLibrary(PrivateKey, std::unique_ptr<DynamicLibrary> library, const GpaFunctionTable& table)
    : library_(std::move(library)), table_(table) {
  library_->Resolve("OpenGpaGetCounterFormula", &extensions_.get_counter_formula);
  library_->Resolve("OpenGpaGetCounterHardwareUnit", &extensions_.get_counter_hardware_unit);
}

}  // namespace opengpa::client
