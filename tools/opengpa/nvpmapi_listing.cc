#include "nvpmapi_listing.h"

#include <memory>
#include <vector>

#include "api_context.h"
#include "client/gpa_library_search.h"
#include "library_path.h"
#include "nvpmapi/NvPmApi-OpenGPA.h"
#include "nvpmapi/NvPmApi.h"
#include "platform/dynamic_library.h"

namespace opengpa::cli {

namespace {

// The id of the NvPmApi table (NvPmApi.h's ETID_NvPmApi, defined here without NVPM_INITGUID's global).
constexpr NVPM_UUID kNvPmApiTableId = {0x243e8da1, 0x4bf8, 0x44b9, {0x98, 0xc4, 0xf9, 0x84, 0xd0, 0x6b, 0xdf, 0x46}};

const char* TypeName(NVPMUINT64 type) {
  static const char* const names[] = {"gpu", "ogl", "d3d", "simexp", "user", "aggregate"};
  return type < 6 ? names[type] : "?";
}

struct Library {
  std::unique_ptr<DynamicLibrary> handle;
  const NvPmApi* api = nullptr;
  ~Library() {
    if (api != nullptr) api->Shutdown();  // before `handle` closes the library
  }
};

std::string Text(NVPMCounterID id, NVPMRESULT (*get)(NVPMCounterID, char*, NVPMUINT*)) {
  NVPMUINT length = 0;
  if (get(id, nullptr, &length) != NVPM_OK || length == 0) return {};
  std::string text(length, '\0');
  if (get(id, text.data(), &length) != NVPM_OK) return {};
  text.resize(length - 1);
  return text;
}

}  // namespace

bool ListThroughNvPmApi(const ContextOptions& options, bool names_only, TextTable* table, std::string* title,
                        std::string* error) {
  ContextRequest request;
  request.api = options.api == kGpaApiLast ? client::kApiCuda : options.api;
  request.device = options.device;
  request.chip = options.chip;
  if (options.api == kGpaApiLast && options.chip.empty()) {
    *error = "choose an API with --api cuda|vk|gl|cl (or a chip with --chip)";
    return false;
  }
  std::optional<std::string> nvpm_path = FindOpenGpaLibrary("libNvPmApi.Core.so", error);
  if (!nvpm_path) return false;
  std::optional<std::string> gpa_path = FindOpenGpaLibrary(client::GpaLibraryFileName(request.api), error);
  if (!gpa_path) return false;

  Library library;
  std::string why;
  library.handle = DynamicLibrary::Open({*nvpm_path}, &why);
  if (library.handle == nullptr) {
    *error = "cannot load " + *nvpm_path + ": " + why;
    return false;
  }
  auto get_table = library.handle->Get<NVPMGetExportTable_Pfn>("NVPMGetExportTable");
  auto create =
      library.handle->Get<OpenGpaNvPmCreateContextFromGpaLibrary_Pfn>("OpenGpaNvPmCreateContextFromGpaLibrary");
  auto message = library.handle->Get<OpenGpaNvPmGetLastMessage_Pfn>("OpenGpaNvPmGetLastMessage");
  void* exported = nullptr;
  if (get_table == nullptr || create == nullptr || get_table(&kNvPmApiTableId, &exported) != NVPM_OK) {
    *error = *nvpm_path + " has no NvPmApi table or no OpenGpaNvPmCreateContextFromGpaLibrary";
    return false;
  }
  const auto* api = static_cast<const NvPmApi*>(exported);
  if (api->Init() != NVPM_OK) {
    *error = "NvPmApi's Init failed";
    return false;
  }
  library.api = api;
  std::unique_ptr<ApiContext> api_context = CreateApiContext(request, error);
  if (!api_context) return false;
  NVPMContext context = 0;
  NVPMRESULT created = create(gpa_path->c_str(), api_context->OpenContextArgument(), &context);
  if (created != NVPM_OK) {
    char text[1024] = {};
    NVPMUINT length = sizeof text;
    if (message != nullptr) message(text, &length);
    *error = "NvPmApi refused the context (result " + std::to_string(created) + "): " + text;
    return false;
  }
  std::vector<std::pair<NVPMCounterID, std::string>> counters;
  api->EnumCountersByContextUserData(
      context,
      [](NVPMCounterID id, const char* name, void* user) {
        static_cast<std::vector<std::pair<NVPMCounterID, std::string>>*>(user)->emplace_back(id, name);
        return static_cast<int>(NVPM_OK);
      },
      &counters);
  table->header = names_only ? std::vector<std::string>{"NAME"}
                             : std::vector<std::string>{"NAME", "ID", "TYPE", "HINT", "DATATYPE", "DESCRIPTION"};
  for (const auto& [id, name] : counters) {
    if (names_only) {
      table->rows.push_back({name});
      continue;
    }
    NVPMUINT64 type = 0, hint = 0, value_type = 0;
    api->GetCounterAttribute(id, NVPMA_COUNTER_TYPE, &type);
    api->GetCounterAttribute(id, NVPMA_COUNTER_DISPLAY_HINT, &hint);
    api->GetCounterAttribute(id, NVPMA_COUNTER_VALUE_TYPE, &value_type);
    table->rows.push_back({name, std::to_string(id), TypeName(type), hint == NVPM_CD_RATIO ? "ratio" : "raw",
                           value_type == NVPM_VALUE_TYPE_FLOAT64 ? "FLOAT64" : "UINT64",
                           Text(id, api->GetCounterDescription)});
  }
  *title = std::to_string(counters.size()) + " NvPmApi counters of " + api_context->Description();
  api->DestroyContext(context);
  return true;
}

}  // namespace opengpa::cli
