// How the NvPmApi face reports a refusal: the NVPMRESULT is returned, remembered for GetExtendedError, and
// a message naming the function and the reason is kept (OpenGpaNvPmGetLastMessage) and, with
// OPENGPA_NVPMAPI_LOG=1 in the environment, written to stderr. PerfKit has no logging callback, so the
// message is the only place a caller learns *why*.
#ifndef OPENGPA_ENTRY_NVPMAPI_NVPM_LOG_H_
#define OPENGPA_ENTRY_NVPMAPI_NVPM_LOG_H_

#include <fmt/format.h>

#include <string>
#include <string_view>
#include <utility>

#include "nvpmapi/NvPmApi.h"

namespace opengpa::nvpm {

void RecordMessage(NVPMRESULT result, std::string_view message);
NVPMRESULT LastResult();
std::string LastMessage();

// `return Fail(NVPM_ERROR_INVALID_PARAMETER, "AddCounterByName: name is NULL");`
template <typename... Args>
NVPMRESULT Fail(NVPMRESULT result, fmt::format_string<Args...> format, Args&&... args) {
  RecordMessage(result, fmt::format(format, std::forward<Args>(args)...));
  return result;
}

}  // namespace opengpa::nvpm

#endif  // OPENGPA_ENTRY_NVPMAPI_NVPM_LOG_H_
