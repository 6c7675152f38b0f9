#include "sample_stream.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>

namespace opengpa::profiling {
namespace {

nlohmann::ordered_json Triple(const std::array<std::uint64_t, 3>& values) { return {values[0], values[1], values[2]}; }

bool ReadTriple(const nlohmann::json& json, std::array<std::uint64_t, 3>* out) {
  if (!json.is_array() || json.size() != 3) return false;
  for (std::size_t i = 0; i < 3; ++i) {
    if (!json[i].is_number_unsigned()) return false;
    (*out)[i] = json[i].get<std::uint64_t>();
  }
  return true;
}

bool ParseSample(const nlohmann::json& line, std::size_t counter_count, Sample* sample) {
  sample->index = line.at("index").get<std::uint64_t>();
  sample->name = line.at("name").get<std::string>();
  sample->queue = line.value("queue", 0u);
  if (line.contains("grid") && !ReadTriple(line["grid"], &sample->grid)) return false;
  if (line.contains("block") && !ReadTriple(line["block"], &sample->block)) return false;
  if (line.contains("start_ns")) sample->start_ns = line["start_ns"].get<std::uint64_t>();
  if (line.contains("end_ns")) sample->end_ns = line["end_ns"].get<std::uint64_t>();
  const auto& values = line.at("values");
  if (!values.is_array() || values.size() != counter_count) return false;
  for (const auto& value : values) {
    // JSON has no NaN: a value the hardware could not produce is written as null.
    sample->values.push_back(value.is_null() ? std::numeric_limits<double>::quiet_NaN() : value.get<double>());
  }
  return true;
}

}  // namespace

std::unique_ptr<SampleStreamWriter> SampleStreamWriter::FromEnvironment() {
  const char* path = std::getenv(kStreamPathVariable);
  if (!path || !*path) return nullptr;
  std::FILE* file = std::fopen(path, "a");
  if (!file) return nullptr;
  return std::make_unique<SampleStreamWriter>(file);
}

SampleStreamWriter::~SampleStreamWriter() { std::fclose(file_); }

void SampleStreamWriter::WriteLine(const std::string& line) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::fwrite(line.data(), 1, line.size(), file_);
  std::fputc('\n', file_);
  std::fflush(file_);
}

void SampleStreamWriter::WriteHeader(const std::string& api, const std::vector<ProfiledCounter>& counters) {
  nlohmann::ordered_json json = {{"type", "header"}, {"api", api}, {"counters", nlohmann::ordered_json::array()}};
  for (const auto& counter : counters) {
    json["counters"].push_back({{"name", counter.name}, {"usage", counter.usage}, {"data_type", counter.data_type}});
  }
  WriteLine(json.dump());
}

void SampleStreamWriter::WriteHeader(const ProfileRun& description) {
  nlohmann::ordered_json json = {
      {"type", "header"}, {"api", description.api}, {"counters", nlohmann::ordered_json::array()}};
  for (const auto& counter : description.counters) {
    json["counters"].push_back({{"name", counter.name}, {"usage", counter.usage}, {"data_type", counter.data_type}});
  }
  if (!description.outputs.empty()) {
    json["outputs"] = nlohmann::ordered_json::array();
    for (const auto& output : description.outputs) {
      json["outputs"].push_back({{"name", output.name},
                                 {"usage", output.usage},
                                 {"data_type", output.data_type},
                                 {"formula", output.formula}});
    }
    json["constants"] = nlohmann::ordered_json::object();
    // A constant the device could not report (NaN) is left out: JSON has no NaN, and a formula naming it
    // then fails to evaluate rather than reading a made-up number.
    for (const auto& [name, value] : description.constants) {
      if (std::isfinite(value)) json["constants"][name] = value;
    }
  }
  if (!description.replay.empty()) {
    json["replay"] = description.replay;
    json["pass"] = description.pass;
    json["passes"] = description.passes;
  }
  WriteLine(json.dump());
}

void SampleStreamWriter::WriteQueue(const Queue& queue) {
  WriteLine(nlohmann::ordered_json{{"type", "queue"}, {"id", queue.id}, {"name", queue.name}, {"device", queue.device}}.dump());
}

void SampleStreamWriter::WriteSample(const Sample& sample) {
  nlohmann::ordered_json json = {{"type", "sample"},         {"index", sample.index},        {"name", sample.name},
                         {"queue", sample.queue},    {"grid", Triple(sample.grid)},  {"block", Triple(sample.block)}};
  if (sample.start_ns) json["start_ns"] = *sample.start_ns;
  if (sample.end_ns) json["end_ns"] = *sample.end_ns;
  nlohmann::ordered_json values = nlohmann::ordered_json::array();
  for (double value : sample.values) values.push_back(std::isfinite(value) ? nlohmann::ordered_json(value) : nlohmann::ordered_json());
  json["values"] = std::move(values);
  // Kernel names come from the program; replace invalid UTF-8 rather than fail the dump.
  WriteLine(json.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace));
}

void SampleStreamWriter::WriteMessage(const std::string& text) {
  WriteLine(nlohmann::ordered_json{{"type", "message"}, {"text", text}}.dump(-1, ' ', false,
                                                                      nlohmann::ordered_json::error_handler_t::replace));
}

void SampleStreamWriter::WriteEnd(std::uint64_t samples) {
  WriteLine(nlohmann::ordered_json{{"type", "end"}, {"samples", samples}}.dump());
}

std::vector<std::string> CountersFromEnvironment() {
  std::vector<std::string> names;
  const char* text = std::getenv(kCountersVariable);
  if (!text) return names;
  std::string all(text);
  std::size_t start = 0;
  while (start <= all.size()) {
    const std::size_t comma = std::min(all.find(',', start), all.size());
    std::string name = all.substr(start, comma - start);
    if (!name.empty()) names.push_back(name);
    start = comma + 1;
  }
  return names;
}

bool ReadSampleStream(const std::string& path, ProfileRun* run, bool* ended, std::string* error) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    *error = "the profiled program wrote no sample stream (" + path + ")";
    return false;
  }
  const std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  std::vector<std::string> lines;
  std::size_t start = 0;
  for (std::size_t newline; (newline = text.find('\n', start)) != std::string::npos; start = newline + 1) {
    lines.push_back(text.substr(start, newline - start));
  }
  // Whatever follows the last newline was being written when the program died: ignored.

  *ended = false;
  bool have_header = false;
  for (std::size_t number = 0; number < lines.size(); ++number) {
    const std::string where = path + " line " + std::to_string(number + 1);
    nlohmann::json json = nlohmann::json::parse(lines[number], nullptr, false);
    if (json.is_discarded() || !json.is_object() || !json.contains("type")) {
      *error = where + " is not a sample-stream record";
      return false;
    }
    try {
      const std::string type = json["type"].get<std::string>();
      if (type == "header") {
        // A program that starts several processes (or re-initialises) writes one header each; they must agree.
        std::vector<ProfiledCounter> counters;
        for (const auto& counter : json.at("counters")) {
          counters.push_back({counter.at("name").get<std::string>(), counter.value("usage", ""),
                              counter.value("data_type", "float64")});
        }
        if (have_header && counters.size() != run->counters.size()) {
          *error = where + ": a second header with different counters";
          return false;
        }
        run->api = json.at("api").get<std::string>();
        run->counters = std::move(counters);
        run->outputs.clear();
        for (const auto& output : json.value("outputs", nlohmann::json::array())) {
          run->outputs.push_back({output.at("name").get<std::string>(), output.value("usage", ""),
                                  output.value("data_type", "float64"), output.at("formula").get<std::string>()});
        }
        run->constants.clear();
        const nlohmann::json constants = json.value("constants", nlohmann::json::object());  // items() needs it alive
        for (const auto& [name, value] : constants.items()) {
          if (value.is_number()) run->constants.emplace_back(name, value.get<double>());
        }
        run->replay = json.value("replay", "");
        run->pass = json.value("pass", 0u);
        run->passes = json.value("passes", 1u);
        have_header = true;
      } else if (type == "queue") {
        Queue queue{json.at("id").get<std::uint32_t>(), json.at("name").get<std::string>(), json.value("device", "")};
        if (run->device.empty()) run->device = queue.device;
        run->queues.push_back(std::move(queue));
      } else if (type == "sample") {
        Sample sample;
        if (!have_header || !ParseSample(json, run->counters.size(), &sample)) {
          *error = where + ": malformed sample (or a sample before the header)";
          return false;
        }
        run->samples.push_back(std::move(sample));
      } else if (type == "message") {
        run->messages.push_back(json.at("text").get<std::string>());
      } else if (type == "end") {
        *ended = true;
      } else {
        *error = where + ": unknown record type \"" + type + "\"";
        return false;
      }
    } catch (const nlohmann::json::exception& e) {
      *error = where + ": " + e.what();
      return false;
    }
  }
  std::stable_sort(run->samples.begin(), run->samples.end(),
                   [](const Sample& a, const Sample& b) { return a.index < b.index; });
  return true;
}

std::uint64_t SampleStreamProgress::Poll() {
  std::ifstream file(path_, std::ios::binary);
  if (!file) return samples_;
  file.seekg(static_cast<std::streamoff>(offset_));
  std::string chunk((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  offset_ += chunk.size();
  partial_line_ += chunk;
  std::size_t start = 0;
  for (std::size_t newline; (newline = partial_line_.find('\n', start)) != std::string::npos; start = newline + 1) {
    if (partial_line_.compare(start, 16, "{\"type\":\"sample\"") == 0) ++samples_;
  }
  partial_line_.erase(0, start);
  return samples_;
}

}  // namespace opengpa::profiling
