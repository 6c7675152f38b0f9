#include "profiler/report_input.h"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <vector>

namespace opengpa::profiling {
namespace {

using Json = nlohmann::ordered_json;
using Row = std::vector<std::string>;

const char* const kColumns[] = {"member", "name",  "index", "queue", "start_ns", "end_ns",
                                "grid",   "block", "nvtx",  "op",    "module"};

Json EmptyTable(const std::string& path, const char* format) {
  Json table = {{"source", path}, {"format", format}, {"api", ""}, {"device", ""}, {"messages", Json::array()}};
  table["counters"] = Json::array();
  table["columns"] = Json::array();
  for (const char* column : kColumns) table["columns"].push_back(column);
  table["launches"] = Json::array();
  return table;
}

// RFC 4180: cells split at commas, a quoted cell may hold commas, doubled quotes and line breaks; CR LF or LF ends
// a row. False when a quote is left open.
bool ParseCsv(const std::string& text, std::vector<Row>* rows) {
  Row row;
  std::string cell;
  bool quoted = false;
  bool any = false;  // the row has a cell or a comma
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c != '"') {
        cell += c;
      } else if (i + 1 < text.size() && text[i + 1] == '"') {
        cell += '"';
        ++i;
      } else {
        quoted = false;
      }
    } else if (c == '"') {
      quoted = any = true;
    } else if (c == ',') {
      row.push_back(std::move(cell));
      cell.clear();
      any = true;
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      if (any || !cell.empty()) {
        row.push_back(std::move(cell));
        rows->push_back(std::move(row));
      }
      row.clear();
      cell.clear();
      any = false;
    } else {
      cell += c;
      any = true;
    }
  }
  if (quoted) return false;
  if (any || !cell.empty()) {
    row.push_back(std::move(cell));
    rows->push_back(std::move(row));
  }
  return true;
}

// A cell as a number; null when empty; false when it is text.
bool NumberCell(const std::string& cell, Json* value) {
  if (cell.empty()) {
    *value = nullptr;
    return true;
  }
  char* end = nullptr;
  const double number = std::strtod(cell.c_str(), &end);
  if (end == cell.c_str() || *end != '\0') return false;
  *value = std::isfinite(number) ? Json(number) : Json(nullptr);
  return true;
}

std::string Triple(const Json& triple) {
  if (!triple.is_array() || triple.size() != 3) return "";
  std::string text;
  for (const auto& d : triple) text += (text.empty() ? "" : "x") + (d.is_number() ? d.dump() : std::string("?"));
  return text;
}

// A text field of an object; "" where it is absent or not text (a profile written by hand may say "api": 5).
std::string Text(const Json& object, const char* key) {
  const auto found = object.find(key);
  return found != object.end() && found->is_string() ? found->get<std::string>() : "";
}

std::string Member(const Json& rank, const Json& pid) {
  if (rank.is_number_integer()) return "rank " + rank.dump();
  if (pid.is_number_integer()) return "pid " + pid.dump();
  return "";
}

bool ReadProfileJson(const std::string& path, const Json& document, Json* table, std::string* error) {
  const auto& counters = document.contains("counters") ? document["counters"] : Json();
  const auto& samples = document.contains("samples") ? document["samples"] : Json();
  if (!counters.is_array() || !samples.is_array()) {
    *error = path + R"(: has no "counters" or "samples" array)";
    return false;
  }
  *table = EmptyTable(path, "profile-json");
  (*table)["api"] = Text(document, "api");
  (*table)["device"] = Text(document, "device");
  // The run's messages (warnings, a synthetic profile's note), the first kMessages of them.
  constexpr std::size_t kMessages = 20;
  const auto messages = document.find("messages");
  if (messages != document.end() && messages->is_array()) {
    for (const auto& message : *messages) {
      if (message.is_string() && (*table)["messages"].size() < kMessages) (*table)["messages"].push_back(message);
    }
  }
  std::vector<std::string> names;
  for (const auto& counter : counters) {
    if (!counter.is_object() || !counter.contains("name") || !counter["name"].is_string()) {
      *error = path + ": a counter without a name";
      return false;
    }
    names.push_back(counter["name"].get<std::string>());
    (*table)["counters"].push_back({{"name", names.back()}, {"usage", Text(counter, "usage")}});
  }
  std::map<long long, std::string> queue_names;
  if (document.contains("queues") && document["queues"].is_array()) {
    for (const auto& queue : document["queues"]) {
      if (queue.is_object() && queue.contains("id") && queue["id"].is_number_integer()) {
        queue_names[queue["id"].get<long long>()] = Text(queue, "name");
      }
    }
  }
  auto field = [](const Json& sample, const char* key) { return sample.contains(key) ? sample[key] : Json(); };
  std::size_t number = 0;
  for (const auto& sample : samples) {
    ++number;
    if (!sample.is_object() || !sample.contains("kernel") || !sample["kernel"].is_string()) {
      *error = path + ": sample " + std::to_string(number) + " has no kernel name";
      return false;
    }
    const Json queue = field(sample, "queue");
    std::string queue_name;
    if (queue.is_number_integer()) {
      const auto found = queue_names.find(queue.get<long long>());
      queue_name = found != queue_names.end() ? found->second : "queue " + queue.dump();
    }
    std::string nvtx;
    for (const auto& range : field(sample, "nvtx")) {
      if (range.is_string()) nvtx += (nvtx.empty() ? "" : " > ") + range.get<std::string>();
    }
    const Json start = field(sample, "start_ns");
    const Json end = field(sample, "end_ns");
    const Json index = field(sample, "index");
    Json launch = {Member(field(sample, "rank"), field(sample, "pid")),
                   sample["kernel"],
                   index.is_number() ? index : Json(nullptr),
                   queue_name,
                   start.is_number() ? start : Json(nullptr),
                   end.is_number() ? end : Json(nullptr),
                   Triple(field(sample, "grid")),
                   Triple(field(sample, "block")),
                   nvtx,
                   Text(sample, "op"),
                   Text(sample, "module")};
    const Json values = field(sample, "values");
    for (const std::string& name : names) {
      const bool measured = values.is_object() && values.contains(name) && values[name].is_number();
      launch.push_back(measured ? values[name] : Json(nullptr));
    }
    (*table)["launches"].push_back(std::move(launch));
  }
  return true;
}

int ColumnOf(const Row& header, const std::string& name) {
  for (std::size_t i = 0; i < header.size(); ++i) {
    if (header[i] == name) return static_cast<int>(i);
  }
  return -1;
}

std::string Cell(const Row& row, int column) {
  return column >= 0 && static_cast<std::size_t>(column) < row.size() ? row[static_cast<std::size_t>(column)] : "";
}

// The counters of a CSV row, or false and *error naming the row and column of a cell that is no number.
bool CsvValues(const std::string& path, const std::vector<Row>& rows, std::size_t r,
               const std::vector<std::size_t>& counter_columns, Json* launch, std::string* error) {
  for (std::size_t column : counter_columns) {
    Json value;
    if (!NumberCell(Cell(rows[r], static_cast<int>(column)), &value)) {
      *error = path + ": line " + std::to_string(r + 1) + ", column '" + rows[0][column] + "': '" +
               Cell(rows[r], static_cast<int>(column)) + "' is not a number";
      return false;
    }
    launch->push_back(std::move(value));
  }
  return true;
}

bool ReadProfileCsv(const std::string& path, const std::vector<Row>& rows, Json* table, std::string* error) {
  const Row& header = rows[0];
  *table = EmptyTable(path, "profile-csv");
  const int nvtx = ColumnOf(header, "nvtx");
  std::vector<std::size_t> counter_columns;
  for (std::size_t c = static_cast<std::size_t>(nvtx) + 1; c < header.size(); ++c) {
    counter_columns.push_back(c);
    (*table)["counters"].push_back({{"name", header[c]}, {"usage", ""}});
  }
  const int pid = ColumnOf(header, "pid"), rank = ColumnOf(header, "rank"), kernel = ColumnOf(header, "kernel");
  const int index = ColumnOf(header, "index"), queue = ColumnOf(header, "queue");
  const int start = ColumnOf(header, "start_ns"), end = ColumnOf(header, "end_ns");
  auto triple = [&](const Row& row, const char* prefix) {
    const std::string p = prefix;
    const std::string x = Cell(row, ColumnOf(header, p + "_x"));
    if (x.empty()) return std::string();
    return x + "x" + Cell(row, ColumnOf(header, p + "_y")) + "x" + Cell(row, ColumnOf(header, p + "_z"));
  };
  for (std::size_t r = 1; r < rows.size(); ++r) {
    const Row& row = rows[r];
    const std::string member = !Cell(row, rank).empty()  ? "rank " + Cell(row, rank)
                               : !Cell(row, pid).empty() ? "pid " + Cell(row, pid)
                                                         : "";
    Json index_value, start_value, end_value;
    if (!NumberCell(Cell(row, index), &index_value) || !NumberCell(Cell(row, start), &start_value) ||
        !NumberCell(Cell(row, end), &end_value)) {
      *error = path + ": line " + std::to_string(r + 1) + ": index, start_ns or end_ns is not a number";
      return false;
    }
    Json launch = {member,    Cell(row, kernel),   index_value,          Cell(row, queue), start_value,
                   end_value, triple(row, "grid"), triple(row, "block"), Cell(row, nvtx),  "",
                   ""};
    if (!CsvValues(path, rows, r, counter_columns, &launch, error)) return false;
    (*table)["launches"].push_back(std::move(launch));
  }
  return true;
}

bool ReadSampleCsv(const std::string& path, const std::vector<Row>& rows, Json* table, std::string* error) {
  const Row& header = rows[0];
  *table = EmptyTable(path, "sample-csv");
  const int id = ColumnOf(header, "SampleId");
  int label = ColumnOf(header, "Sample");
  if (label < 0) label = ColumnOf(header, "Label");
  const int device = ColumnOf(header, "Device");
  std::vector<std::size_t> counter_columns;
  for (std::size_t c = 0; c < header.size(); ++c) {
    if (static_cast<int>(c) == id || static_cast<int>(c) == label || static_cast<int>(c) == device) continue;
    counter_columns.push_back(c);
    (*table)["counters"].push_back({{"name", header[c]}, {"usage", ""}});
  }
  for (std::size_t r = 1; r < rows.size(); ++r) {
    const Row& row = rows[r];
    Json id_value;
    if (!NumberCell(Cell(row, id), &id_value)) {
      *error = path + ": line " + std::to_string(r + 1) + ": SampleId '" + Cell(row, id) + "' is not a number";
      return false;
    }
    if (device >= 0 && (*table)["device"] == "") (*table)["device"] = Cell(row, device);
    std::string name = Cell(row, label);
    if (name.empty()) name = "sample " + Cell(row, id);
    Json launch = {"", name, id_value, "", nullptr, nullptr, "", "", "", "", ""};
    if (!CsvValues(path, rows, r, counter_columns, &launch, error)) return false;
    (*table)["launches"].push_back(std::move(launch));
  }
  return true;
}

}  // namespace

bool ReadReportInput(const std::string& path, Json* table, std::string* error) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    *error = path + ": cannot be opened";
    return false;
  }
  std::stringstream text;
  text << file.rdbuf();
  const std::string content = text.str();
  const std::size_t first = content.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && content[first] == '{') {
    const Json document = Json::parse(content, nullptr, /*allow_exceptions=*/false);
    if (document.is_discarded() || !document.is_object()) {
      *error = path + ": not valid JSON";
      return false;
    }
    const std::string schema = Text(document, "schema");
    if (schema.rfind("opengpa-profile/", 0) != 0) {
      *error = path + ": not an opengpa profile (its \"schema\" is not opengpa-profile/...)";
      return false;
    }
    return ReadProfileJson(path, document, table, error);
  }
  std::vector<Row> rows;
  if (!ParseCsv(content, &rows)) {
    *error = path + ": a quoted CSV cell is never closed";
    return false;
  }
  if (rows.empty()) {
    *error = path + ": empty (a profile's .json or .csv, or a GPA sample CSV, was expected)";
    return false;
  }
  const Row& header = rows[0];
  if (ColumnOf(header, "kernel") >= 0 && ColumnOf(header, "nvtx") >= 0) return ReadProfileCsv(path, rows, table, error);
  if (ColumnOf(header, "SampleId") >= 0) return ReadSampleCsv(path, rows, table, error);
  *error = path +
           ": neither a profile (.json, or .csv with kernel and nvtx columns) nor a GPA sample CSV (a "
           "SampleId column)";
  return false;
}

}  // namespace opengpa::profiling
