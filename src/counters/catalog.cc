// Reads a derived-counter catalog (JSON, format in counters/README.md) and checks every field.
#include "counters/catalog.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <unordered_map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace opengpa {
namespace {

using Json = nlohmann::json;

struct NamedValue {
  std::string_view name;
  int value;
};

constexpr std::array<NamedValue, 2> kDataTypes{{
    {"float64", kGpaDataTypeFloat64},
    {"uint64", kGpaDataTypeUint64},
}};

constexpr std::array<NamedValue, 8> kUsageTypes{{
    {"ratio", kGpaUsageTypeRatio},
    {"percentage", kGpaUsageTypePercentage},
    {"cycles", kGpaUsageTypeCycles},
    {"milliseconds", kGpaUsageTypeMilliseconds},
    {"bytes", kGpaUsageTypeBytes},
    {"items", kGpaUsageTypeItems},
    {"kilobytes", kGpaUsageTypeKilobytes},
    {"nanoseconds", kGpaUsageTypeNanoseconds},
}};

template <std::size_t N>
const NamedValue* FindNamed(const std::array<NamedValue, N>& table, std::string_view text) {
  for (const NamedValue& entry : table) {
    if (entry.name == text) return &entry;
  }
  return nullptr;
}

template <std::size_t N>
std::string ListNames(const std::array<NamedValue, N>& table) {
  std::string names;
  for (const NamedValue& entry : table) {
    if (!names.empty()) names += ", ";
    names += entry.name;
  }
  return names;
}

// The same rule formulas use for names, so every counter and constant can be referred to.
bool IsIdentifier(std::string_view text) {
  if (text.empty()) return false;
  const auto start = static_cast<unsigned char>(text[0]);
  if (std::isalpha(start) == 0 && start != '_') return false;
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) == 0 && c != '_' && c != '.') return false;
  }
  return true;
}

// Error messages quote what they found in the catalog, bounded: at most kPreviewDepth levels of nesting
// ("[...]" / "{...}" below) and about kPreviewChars characters ("..." after), so a hostile catalog (a
// megabyte-long name, arrays nested 100,000 deep) neither floods the log nor recurses deeply.
constexpr int kPreviewDepth = 3;
constexpr std::size_t kPreviewChars = 80;

// `text` cut at `limit` bytes (on a UTF-8 character boundary), "..." marking the cut.
std::string Truncated(std::string_view text, std::size_t limit = kPreviewChars) {
  if (text.size() <= limit) return std::string(text);
  std::size_t end = limit;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return std::string(text.substr(0, end)) + "...";
}

void AppendPreview(const Json& value, int depth, std::string* out) {
  if (value.is_string()) {
    *out += Json(Truncated(value.get_ref<const std::string&>())).dump(-1, ' ', false, Json::error_handler_t::replace);
    return;
  }
  if (!value.is_structured()) {
    *out += value.dump();
    return;
  }
  const bool array = value.is_array();
  if (depth >= kPreviewDepth) {
    *out += array ? "[...]" : "{...}";
    return;
  }
  *out += array ? '[' : '{';
  bool first = true;
  for (auto it = value.begin(); it != value.end(); ++it) {
    if (!first) *out += ',';
    first = false;
    if (out->size() >= kPreviewChars) {
      *out += "...";
      break;
    }
    if (!array) {
      *out += Json(Truncated(it.key())).dump(-1, ' ', false, Json::error_handler_t::replace);
      *out += ':';
    }
    AppendPreview(*it, depth + 1, out);
  }
  *out += array ? ']' : '}';
}

// What an error message shows of a JSON value it found.
std::string Preview(const Json& value) {
  std::string text;
  AppendPreview(value, 0, &text);
  return text;
}

bool Fail(std::string* error, std::string message) {
  if (error != nullptr) *error = std::move(message);
  return false;
}

// Reads counters[index].field as a non-empty string.
bool ReadString(const Json& entry, std::string_view where, const char* field, std::string* out, std::string* error) {
  const auto it = entry.find(field);
  if (it == entry.end()) return Fail(error, fmt::format("{}: missing field \"{}\"", where, field));
  if (!it->is_string()) {
    return Fail(error, fmt::format("{}: field \"{}\" must be a string, found {}", where, field, Preview(*it)));
  }
  *out = it->get<std::string>();
  if (out->empty()) return Fail(error, fmt::format("{}: field \"{}\" is empty", where, field));
  return true;
}

bool ParseConstants(const Json& constants, Catalog* out, std::string* error) {
  if (!constants.is_object()) {
    return Fail(error, fmt::format("\"constants\" must be an object of name: number, found {}", Preview(constants)));
  }
  for (const auto& [name, value] : constants.items()) {
    if (!IsIdentifier(name)) {
      return Fail(error,
                  fmt::format("constants: \"{}\" is not a valid name ([A-Za-z_][A-Za-z0-9_.]*)", Truncated(name)));
    }
    if (!value.is_number()) {
      return Fail(error, fmt::format("constants: \"{}\" must be a number, found {}", Truncated(name), Preview(value)));
    }
    out->constants.emplace_back(name, value.get<double>());
  }
  return true;
}

bool ParseCounter(const Json& entry, std::size_t index, CounterDefinition* out, std::string* error) {
  std::string where = fmt::format("counters[{}]", index);
  if (!entry.is_object()) return Fail(error, fmt::format("{}: must be an object, found {}", where, Preview(entry)));
  static constexpr std::array<std::string_view, 7> kFields{"name",  "group",   "description", "type",
                                                           "usage", "formula", "comment"};
  for (const auto& item : entry.items()) {
    if (std::find(kFields.begin(), kFields.end(), item.key()) == kFields.end()) {
      return Fail(error, fmt::format("{}: unknown field \"{}\"", where, Truncated(item.key())));
    }
  }
  if (!ReadString(entry, where, "name", &out->name, error)) return false;
  if (!IsIdentifier(out->name)) {
    return Fail(error, fmt::format(R"({}: field "name": "{}" is not a valid name ([A-Za-z_][A-Za-z0-9_.]*))", where,
                                   Truncated(out->name)));
  }
  where = fmt::format("counters[{}] (\"{}\")", index, Truncated(out->name));
  std::string type;
  std::string usage;
  if (!ReadString(entry, where, "group", &out->group, error) ||
      !ReadString(entry, where, "description", &out->description, error) ||
      !ReadString(entry, where, "type", &type, error) || !ReadString(entry, where, "usage", &usage, error) ||
      !ReadString(entry, where, "formula", &out->formula, error)) {
    return false;
  }
  if (!ParseDataType(type, &out->data_type)) {
    return Fail(error, fmt::format(R"({}: field "type": unknown type "{}" (expected one of {}))", where,
                                   Truncated(type), ListNames(kDataTypes)));
  }
  if (!ParseUsageType(usage, &out->usage)) {
    return Fail(error, fmt::format(R"({}: field "usage": unknown usage "{}" (expected one of {}))", where,
                                   Truncated(usage), ListNames(kUsageTypes)));
  }
  return true;
}

// One entry of "hardware_counters": like a counter without a formula, plus the vendor's name for it.
bool ParseHardwareCounter(const Json& entry, std::size_t index, HardwareCounterDefinition* out, std::string* error) {
  std::string where = fmt::format("hardware_counters[{}]", index);
  if (!entry.is_object()) return Fail(error, fmt::format("{}: must be an object, found {}", where, Preview(entry)));
  static constexpr std::array<std::string_view, 7> kFields{"name",  "group",         "description", "type",
                                                           "usage", "hardware_name", "comment"};
  for (const auto& item : entry.items()) {
    if (std::find(kFields.begin(), kFields.end(), item.key()) == kFields.end()) {
      return Fail(error, fmt::format("{}: unknown field \"{}\"", where, Truncated(item.key())));
    }
  }
  if (!ReadString(entry, where, "name", &out->name, error)) return false;
  if (!IsIdentifier(out->name)) {
    return Fail(error, fmt::format(R"({}: field "name": "{}" is not a valid name ([A-Za-z_][A-Za-z0-9_.]*))", where,
                                   Truncated(out->name)));
  }
  where = fmt::format("hardware_counters[{}] (\"{}\")", index, Truncated(out->name));
  std::string type;
  std::string usage;
  if (!ReadString(entry, where, "group", &out->group, error) ||
      !ReadString(entry, where, "description", &out->description, error) ||
      !ReadString(entry, where, "type", &type, error) || !ReadString(entry, where, "usage", &usage, error)) {
    return false;
  }
  if (entry.contains("hardware_name") && !ReadString(entry, where, "hardware_name", &out->hardware_name, error)) {
    return false;
  }
  if (!ParseDataType(type, &out->data_type)) {
    return Fail(error, fmt::format(R"({}: field "type": unknown type "{}" (expected one of {}))", where,
                                   Truncated(type), ListNames(kDataTypes)));
  }
  if (!ParseUsageType(usage, &out->usage)) {
    return Fail(error, fmt::format(R"({}: field "usage": unknown usage "{}" (expected one of {}))", where,
                                   Truncated(usage), ListNames(kUsageTypes)));
  }
  return true;
}

bool ParseHardwareCounters(const Json& list, Catalog* out, std::string* error) {
  if (!list.is_array()) {
    return Fail(error, fmt::format("catalog: \"hardware_counters\" must be an array, found {}", list.type_name()));
  }
  out->hardware_counters.resize(list.size());
  std::unordered_map<std::string, std::size_t> first_index;  // a formula name must mean one input
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (!ParseHardwareCounter(list[i], i, &out->hardware_counters[i], error)) return false;
    const auto [it, inserted] = first_index.emplace(out->hardware_counters[i].name, i);
    if (!inserted) {
      return Fail(error, fmt::format("hardware_counters[{}]: \"{}\" is already hardware_counters[{}]", i,
                                     Truncated(it->first), it->second));
    }
  }
  return true;
}

}  // namespace

bool ParseDataType(std::string_view text, GpaDataType* out) {
  const NamedValue* found = FindNamed(kDataTypes, text);
  if (found == nullptr) return false;
  if (out != nullptr) *out = static_cast<GpaDataType>(found->value);
  return true;
}

bool ParseUsageType(std::string_view text, GpaUsageType* out) {
  const NamedValue* found = FindNamed(kUsageTypes, text);
  if (found == nullptr) return false;
  if (out != nullptr) *out = static_cast<GpaUsageType>(found->value);
  return true;
}

bool ParseCatalog(std::string_view json_text, Catalog* out, std::string* error) {
  if (out == nullptr) return Fail(error, "ParseCatalog: output is null");
  Json root;
  try {
    root = Json::parse(json_text.begin(), json_text.end());
  } catch (const Json::exception& e) {
    return Fail(error, fmt::format("catalog is not valid JSON: {}", Truncated(e.what(), 4 * kPreviewChars)));
  }
  if (!root.is_object()) {
    return Fail(error, R"(catalog must be a JSON object with "counters" (and optional "constants"))");
  }
  for (const auto& item : root.items()) {
    if (item.key() != "constants" && item.key() != "counters" && item.key() != "comment" &&
        item.key() != "hardware_counters") {
      return Fail(error, fmt::format("catalog: unknown top-level field \"{}\"", Truncated(item.key())));
    }
  }
  Catalog catalog;
  if (const auto constants = root.find("constants"); constants != root.end()) {
    if (!ParseConstants(*constants, &catalog, error)) return false;
  }
  if (const auto hardware = root.find("hardware_counters"); hardware != root.end()) {
    if (!ParseHardwareCounters(*hardware, &catalog, error)) return false;
  }
  const auto counters = root.find("counters");
  if (counters == root.end()) return Fail(error, "catalog: missing field \"counters\"");
  if (!counters->is_array()) {
    return Fail(error, fmt::format("catalog: \"counters\" must be an array, found {}", counters->type_name()));
  }
  catalog.counters.resize(counters->size());
  for (std::size_t i = 0; i < counters->size(); ++i) {
    if (!ParseCounter((*counters)[i], i, &catalog.counters[i], error)) return false;
  }
  *out = std::move(catalog);
  return true;
}

}  // namespace opengpa
