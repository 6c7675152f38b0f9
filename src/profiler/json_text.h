// JSON text written straight to a buffer, for outputs too large to build as a document first: the Chrome trace of
// a run of tens of thousands of launches has hundreds of thousands of events, and building them as nlohmann
// objects took 1.3 s of the 1.4 s it cost (17,883 GPT-2 launches; dumping the built document took 0.09 s).
#ifndef OPENGPA_PROFILER_JSON_TEXT_H_
#define OPENGPA_PROFILER_JSON_TEXT_H_

#include <string>
#include <string_view>

namespace opengpa::profiling {

// Appends `text` as a JSON string, quotes included: '"', '\\' and control characters escaped, and every byte that
// is not part of well-formed UTF-8 replaced by U+FFFD (a kernel name is whatever bytes the program gave it), as
// nlohmann's error_handler_t::replace does.
void AppendJsonString(std::string* out, std::string_view text);

// Appends `value` as a JSON number in the fewest digits that read back as the same double; null when it is NaN or
// infinite (JSON has no such numbers).
void AppendJsonNumber(std::string* out, double value);

}  // namespace opengpa::profiling

#endif  // OPENGPA_PROFILER_JSON_TEXT_H_
