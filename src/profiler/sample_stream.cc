#include "profiler/sample_stream.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <string_view>
#include <thread>
#include <utility>

#include "platform/this_process.h"

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
  if (line.contains("nvtx")) sample->nvtx = line["nvtx"].get<std::vector<std::string>>();
  sample->context = line.value("context", 0u);
  if (line.contains("graph")) sample->graph = line["graph"].get<std::uint32_t>();
  if (line.contains("graph_node")) sample->graph_node = line["graph_node"].get<std::uint32_t>();
  const auto& values = line.at("values");
  if (!values.is_array() || values.size() != counter_count) return false;
  for (const auto& value : values) {
    // JSON has no NaN: a value the hardware could not produce is written as null.
    sample->values.push_back(value.is_null() ? std::numeric_limits<double>::quiet_NaN() : value.get<double>());
  }
  return true;
}

bool SameColumns(const std::vector<ProfiledCounter>& a, const std::vector<ProfiledCounter>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [](const ProfiledCounter& x, const ProfiledCounter& y) { return x.name == y.name; });
}

// The run's api, columns, outputs, constants and replay, from a header record.
void DescribeRun(const nlohmann::json& header, const std::vector<ProfiledCounter>& counters, ProfileRun* run) {
  run->api = header.at("api").get<std::string>();
  run->counters = counters;
  run->outputs.clear();
  for (const auto& output : header.value("outputs", nlohmann::json::array())) {
    run->outputs.push_back({output.at("name").get<std::string>(), output.value("usage", ""),
                            output.value("data_type", "float64"), output.at("formula").get<std::string>()});
  }
  run->constants.clear();
  const nlohmann::json constants = header.value("constants", nlohmann::json::object());  // items() needs it alive
  for (const auto& [name, value] : constants.items()) {
    if (value.is_number()) run->constants.emplace_back(name, value.get<double>());
  }
  run->replay = header.value("replay", "");
  run->pass = header.value("pass", 0u);
  run->passes = header.value("passes", 1u);
}

// A queue's GPU, where its record names one.
void ReadGpu(const nlohmann::json& queue, GpuIdentity* gpu) {
  gpu->index = queue.value("gpu", -1);
  gpu->uuid = queue.value("gpu_uuid", "");
  gpu->pci_bus_id = queue.value("pci_bus_id", "");
}

// What a header says of its process.
void ReadProcess(const nlohmann::json& header, ProcessInfo* process) {
  if (header.contains("rank") && header["rank"].is_number_integer()) process->rank = header["rank"].get<std::int64_t>();
  process->host = header.value("host", "");
  process->environment.clear();
  const nlohmann::json environment = header.value("environment", nlohmann::json::object());
  for (const auto& [name, value] : environment.items()) {
    if (value.is_string()) process->environment.emplace_back(name, value.get<std::string>());
  }
}

std::vector<std::string> SplitCommas(const char* text) {
  std::vector<std::string> names;
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

}  // namespace

std::optional<std::int64_t> RankFromEnvironment() {
  for (const char* variable : {"RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK", "SLURM_PROCID"}) {
    const char* text = std::getenv(variable);
    if (text == nullptr || *text == '\0') continue;
    char* end = nullptr;
    errno = 0;
    const long long value = std::strtoll(text, &end, 10);
    if (errno == 0 && *end == '\0' && value >= 0) return value;
  }
  return std::nullopt;
}

std::unique_ptr<SampleStreamWriter> SampleStreamWriter::FromEnvironment() {
  const char* path = std::getenv(kStreamPathVariable);
  if (!path || !*path) return nullptr;
  std::FILE* file = std::fopen(path, "a");
  if (!file) return nullptr;
  return std::make_unique<SampleStreamWriter>(file, CurrentProcessId(), StreamStatusSender::FromEnvironment());
}

SampleStreamWriter::~SampleStreamWriter() { std::fclose(file_); }

std::uint32_t SampleStreamWriter::CurrentProcessId() { return static_cast<std::uint32_t>(getpid()); }

void SampleStreamWriter::WriteRecord(nlohmann::ordered_json record) {
  nlohmann::ordered_json line = {{"type", record["type"]}, {"pid", pid_}};
  for (auto& [key, value] : record.items()) {
    if (key != "type") line[key] = std::move(value);
  }
  // Kernel names and NVTX messages come from the program; replace invalid UTF-8 rather than fail the dump.
  const std::string text = line.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + '\n';
  std::lock_guard<std::mutex> lock(mutex_);
  if (failure_.error_number != 0) {  // stopped at the first failure: counted, reported with the end record
    ++failure_.records_lost;
    if (line["type"] == "end") status_.Report(pid_, failure_);
    return;
  }
  // One write() to a file opened for appending: other processes' lines land before or after it, never inside.
  std::fflush(file_);
  const int fd = fileno(file_);
  for (std::size_t written = 0; written < text.size();) {
    const ssize_t n = write(fd, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {  // the disk is full, a quota, the file gone: stop, and tell the CLI why
      failure_.error_number = n < 0 ? errno : EIO;
      failure_.records_lost = 1;
      status_.Report(pid_, failure_);
      return;
    }
    written += static_cast<std::size_t>(n);
  }
}

void SampleStreamWriter::DescribeProcess(nlohmann::ordered_json* header) const {
  if (const std::string host = HostName(); !host.empty()) (*header)["host"] = host;
  if (const auto rank = RankFromEnvironment()) (*header)["rank"] = *rank;
  const std::vector<std::string> names = SplitCommas(std::getenv(kNameVariablesVariable));
  if (names.empty()) return;
  nlohmann::ordered_json environment = nlohmann::ordered_json::object();
  for (const std::string& name : names) {
    if (const char* value = std::getenv(name.c_str())) environment[name] = std::string(value);
  }
  (*header)["environment"] = std::move(environment);
}

void SampleStreamWriter::WriteHeader(const std::string& api, const std::vector<ProfiledCounter>& counters) {
  nlohmann::ordered_json json = {{"type", "header"}, {"api", api}, {"counters", nlohmann::ordered_json::array()}};
  for (const auto& counter : counters) {
    json["counters"].push_back({{"name", counter.name}, {"usage", counter.usage}, {"data_type", counter.data_type}});
  }
  DescribeProcess(&json);
  WriteRecord(std::move(json));
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
  DescribeProcess(&json);
  WriteRecord(std::move(json));
}

void SampleStreamWriter::WriteQueue(const Queue& queue) {
  nlohmann::ordered_json json = {{"type", "queue"}, {"id", queue.id}, {"name", queue.name}, {"device", queue.device}};
  if (queue.gpu.index >= 0) json["gpu"] = queue.gpu.index;
  if (!queue.gpu.uuid.empty()) json["gpu_uuid"] = queue.gpu.uuid;
  if (!queue.gpu.pci_bus_id.empty()) json["pci_bus_id"] = queue.gpu.pci_bus_id;
  WriteRecord(std::move(json));
}

void SampleStreamWriter::WriteSample(const Sample& sample) {
  nlohmann::ordered_json json = {
      {"type", "sample"},      {"index", sample.index},       {"name", sample.name},
      {"queue", sample.queue}, {"grid", Triple(sample.grid)}, {"block", Triple(sample.block)}};
  if (sample.start_ns) json["start_ns"] = *sample.start_ns;
  if (sample.end_ns) json["end_ns"] = *sample.end_ns;
  nlohmann::ordered_json values = nlohmann::ordered_json::array();
  for (double value : sample.values) {
    values.push_back(std::isfinite(value) ? nlohmann::ordered_json(value) : nlohmann::ordered_json());
  }
  json["values"] = std::move(values);
  if (!sample.nvtx.empty()) json["nvtx"] = sample.nvtx;
  if (sample.context != 0) json["context"] = sample.context;
  if (sample.graph) json["graph"] = *sample.graph;
  if (sample.graph_node) json["graph_node"] = *sample.graph_node;
  WriteRecord(std::move(json));
}

void SampleStreamWriter::WriteWork(const OtherWork& work) {
  WriteRecord({{"type", "work"},
               {"queue", work.queue},
               {"kind", work.kind},
               {"start_ns", work.start_ns},
               {"end_ns", work.end_ns}});
}

void SampleStreamWriter::WriteMessage(const std::string& text) { WriteRecord({{"type", "message"}, {"text", text}}); }

void SampleStreamWriter::WriteUnprofiled(const std::string& reason) {
  WriteRecord({{"type", "unprofiled"}, {"reason", reason}});
}

void SampleStreamWriter::WriteEnd(std::uint64_t samples) { WriteRecord({{"type", "end"}, {"samples", samples}}); }

std::vector<std::string> CountersFromEnvironment() { return SplitCommas(std::getenv(kCountersVariable)); }

namespace {

// Parses lines[first...] (up to a chunk) into *parsed, on several threads; a line that is not JSON becomes a
// discarded value, as nlohmann::json::parse without exceptions gives it.
void ParseLines(const std::vector<std::string_view>& lines, std::size_t first, std::vector<nlohmann::json>* parsed) {
  constexpr std::size_t kChunk = 8192;  // lines held parsed at once: a bounded memory cost for any run's size
  const std::size_t count = std::min(kChunk, lines.size() - first);
  parsed->assign(count, nlohmann::json());
  const std::size_t threads =
      std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, std::max<std::size_t>(1, count / 512));
  const std::size_t per_thread = (count + threads - 1) / threads;
  auto parse = [&lines, first, parsed](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      (*parsed)[i] = nlohmann::json::parse(lines[first + i].begin(), lines[first + i].end(), nullptr, false);
    }
  };
  std::vector<std::thread> workers;
  for (std::size_t t = 1; t < threads; ++t) {
    workers.emplace_back(parse, std::min(count, t * per_thread), std::min(count, (t + 1) * per_thread));
  }
  parse(0, std::min(count, per_thread));
  for (std::thread& worker : workers) worker.join();
}

}  // namespace

bool ReadSampleStream(const std::string& path, ProfileRun* run, bool* ended, std::string* error) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    *error = "the profiled program wrote no sample stream (" + path + ")";
    return false;
  }
  std::string text;  // read whole, in one call (a character at a time took a tenth of a large stream's reading)
  file.seekg(0, std::ios::end);
  text.resize(static_cast<std::size_t>(std::max<std::streamoff>(0, file.tellg())));
  file.seekg(0, std::ios::beg);
  file.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(std::max<std::streamsize>(0, file.gcount())));
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  for (std::size_t newline; (newline = text.find('\n', start)) != std::string::npos; start = newline + 1) {
    lines.push_back(std::string_view(text).substr(start, newline - start));
  }
  // Whatever follows the last newline was being written when the program died: ignored.
  // The records are read in order (a header before its samples), but parsing the text, most of the reading's time
  // (0.21 s of 17,883 GPT-2 launches here), is each line's own: it is done a chunk of lines ahead on several
  // threads, so that a large run's stream is not read on one core while the user waits.
  std::vector<nlohmann::json> parsed;
  std::size_t parsed_from = 0;
  run->samples.reserve(run->samples.size() + lines.size());  // most lines are samples

  // What the reader knows of each process that wrote (by pid; 0 for records that name none).
  struct Process {
    std::size_t order = 0;  // when it first wrote
    bool have_header = false;
    bool ended = false;
    std::vector<ProfiledCounter> counters;
    std::map<std::uint32_t, std::uint32_t> queue_ids;  // its queue ids -> the run's
    std::size_t info = static_cast<std::size_t>(-1);   // its entry in run->processes
  };
  std::map<std::uint32_t, Process> processes;
  // Each process's last header, kept beside Process rather than in it: nlohmann::json's destructor may throw
  // (it allocates to take nested values apart), which Process's implicit noexcept destructor must not.
  std::map<std::uint32_t, nlohmann::json> headers;
  std::set<std::uint32_t> used_queue_ids;
  bool have_header = false;
  bool any_samples = false;
  for (std::size_t number = 0; number < lines.size(); ++number) {
    const std::string where = path + " line " + std::to_string(number + 1);
    if (number == parsed_from + parsed.size()) {
      parsed_from = number;
      ParseLines(lines, number, &parsed);
    }
    nlohmann::json json = std::move(parsed[number - parsed_from]);
    if (json.is_discarded() || !json.is_object() || !json.contains("type")) {
      *error = where + " is not a sample-stream record";
      return false;
    }
    try {
      const std::string type = json["type"].get<std::string>();
      const std::uint32_t pid = json.value("pid", 0u);
      auto [found, first_record] = processes.try_emplace(pid);
      Process& process = found->second;
      if (first_record) process.order = processes.size() - 1;
      if (type == "header") {
        // Every process the program starts writes its own header. The first describes the run until a process
        // writes a sample: the run's columns are then that process's, and every other process that writes
        // samples must have the same (a process that profiled nothing may describe its counters otherwise).
        process.counters.clear();
        for (const auto& counter : json.at("counters")) {
          process.counters.push_back({counter.at("name").get<std::string>(), counter.value("usage", ""),
                                      counter.value("data_type", "float64")});
        }
        process.have_header = true;
        headers[pid] = json;
        if (process.info == static_cast<std::size_t>(-1)) {
          process.info = run->processes.size();
          run->processes.push_back({});
        }
        run->processes[process.info].pid = pid;
        ReadProcess(json, &run->processes[process.info]);
        if (!have_header) DescribeRun(json, process.counters, run);
        have_header = true;
      } else if (type == "queue") {
        const std::uint32_t own_id = json.at("id").get<std::uint32_t>();
        if (process.queue_ids.count(own_id) != 0) continue;  // named again by a profiler set up afresh: the same queue
        // A queue id another process already used gets the next free one, so each row names its own queue.
        std::uint32_t id = own_id;
        while (used_queue_ids.count(id) != 0) ++id;
        used_queue_ids.insert(id);
        process.queue_ids[own_id] = id;
        std::string name = json.at("name").get<std::string>();
        if (process.order > 0) name += " (pid " + std::to_string(pid) + ")";
        Queue queue{id, std::move(name), json.value("device", ""), {}};
        ReadGpu(json, &queue.gpu);
        if (run->device.empty()) run->device = queue.device;
        run->queues.push_back(std::move(queue));
      } else if (type == "sample") {
        Sample sample;
        if (!process.have_header || !ParseSample(json, process.counters.size(), &sample)) {
          *error = where + ": malformed sample (or a sample before its process's header)";
          return false;
        }
        if (!any_samples) {
          DescribeRun(headers.at(pid), process.counters, run);
        } else if (!SameColumns(process.counters, run->counters)) {
          *error = where + ": process " + std::to_string(pid) + " measured other counters than the processes before it";
          return false;
        }
        any_samples = true;
        sample.pid = pid;
        auto queue = process.queue_ids.find(sample.queue);
        if (queue != process.queue_ids.end()) sample.queue = queue->second;
        run->samples.push_back(std::move(sample));
      } else if (type == "work") {
        OtherWork work;
        work.pid = pid;
        work.queue = json.value("queue", 0u);
        auto queue = process.queue_ids.find(work.queue);
        if (queue != process.queue_ids.end()) work.queue = queue->second;
        work.kind = json.value("kind", "");
        work.start_ns = json.at("start_ns").get<std::uint64_t>();
        work.end_ns = json.at("end_ns").get<std::uint64_t>();
        run->other_work.push_back(std::move(work));
      } else if (type == "message") {
        // Each message names its process: several processes of one program write to one stream.
        const std::string text = json.at("text").get<std::string>();
        run->messages.push_back(pid != 0 ? "pid " + std::to_string(pid) + ": " + text : text);
      } else if (type == "unprofiled") {
        run->unprofiled.push_back({pid, json.at("reason").get<std::string>()});
      } else if (type == "end") {
        process.ended = true;
      } else {
        *error = where;
        error->append(": unknown record type \"").append(type).append("\"");
        return false;
      }
    } catch (const nlohmann::json::exception& e) {
      *error = where + ": " + e.what();
      return false;
    }
  }
  *ended = !processes.empty();
  for (const auto& [pid, process] : processes) *ended = *ended && process.ended;
  std::stable_sort(run->samples.begin(), run->samples.end(), [&processes](const Sample& a, const Sample& b) {
    const std::size_t order_a = processes.at(a.pid).order;
    const std::size_t order_b = processes.at(b.pid).order;
    return order_a != order_b ? order_a < order_b : a.index < b.index;
  });
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
    if (partial_line_.compare(start, 16, R"({"type":"sample")") == 0) ++samples_;
    NoteWriter(std::string_view(partial_line_).substr(start, newline - start));
  }
  partial_line_.erase(0, start);
  return samples_;
}

void SampleStreamProgress::NoteWriter(std::string_view line) {
  // Every record starts {"type":"<type>","pid":<pid> (SampleStreamWriter::WriteRecord): look no further, so a
  // kernel name cannot be taken for the field.
  constexpr std::string_view kPid = "\"pid\":";
  const std::size_t at = line.substr(0, 40).find(kPid);
  if (at == std::string_view::npos) return;
  std::uint32_t pid = 0;
  const char* first = line.data() + at + kPid.size();
  if (std::from_chars(first, line.data() + line.size(), pid).ec != std::errc()) return;
  writers_.insert(pid);
  constexpr std::string_view kEnd = R"({"type":"end")";
  if (line.substr(0, kEnd.size()) == kEnd) ended_.insert(pid);
}

std::vector<std::uint32_t> SampleStreamProgress::Unfinished() const {
  std::vector<std::uint32_t> unfinished;
  for (std::uint32_t pid : writers_) {
    if (ended_.count(pid) == 0) unfinished.push_back(pid);
  }
  return unfinished;
}

}  // namespace opengpa::profiling
