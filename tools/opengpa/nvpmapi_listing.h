// `opengpa list --nvpmapi`: the counters as libNvPmApi.Core.so offers them to PerfKit clients, in the columns of
// PerfKit's NvPmApiQuery (docs/nvpmapi.md, "NvPmApiQuery"). The CLI makes the API context as for any listing
// (--api gl|cuda|vk|cl, --device, --chip) and hands it to NvPmApi through OpenGpaNvPmCreateContextFromGpaLibrary.
#ifndef OPENGPA_TOOLS_OPENGPA_NVPMAPI_LISTING_H_
#define OPENGPA_TOOLS_OPENGPA_NVPMAPI_LISTING_H_

#include <ostream>
#include <string>

#include "opened_context.h"
#include "platform/text_table.h"

namespace opengpa::cli {

// NAME, ID, TYPE, HINT, DATATYPE, DESCRIPTION per counter (NAME alone with names_only); false and *error
// when the libraries do not load or NvPmApi refuses the context.
bool ListThroughNvPmApi(const ContextOptions& options, bool names_only, TextTable* table, std::string* title,
                        std::string* error);

}  // namespace opengpa::cli

#endif  // OPENGPA_TOOLS_OPENGPA_NVPMAPI_LISTING_H_
