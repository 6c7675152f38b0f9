#include "profiler/profile_comparison.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

namespace opengpa::profiling {
namespace {

constexpr double kNoValue = std::numeric_limits<double>::quiet_NaN();

std::string NvtxPath(const nlohmann::json& ranges) {
  std::string path;
  if (!ranges.is_array()) return path;
  for (const auto& range : ranges) {
    if (range.is_string()) path += (path.empty() ? "" : " > ") + range.get<std::string>();
  }
  return path;
}

// A text field; `otherwise` where it is absent or not text (nlohmann's value() throws on a number).
std::string TextOr(const nlohmann::json& object, const char* key, const char* otherwise) {
  const auto found = object.find(key);
  return found != object.end() && found->is_string() ? found->get<std::string>() : otherwise;
}

std::string MemberOf(const nlohmann::json& sample) {
  const auto rank = sample.find("rank");
  if (rank != sample.end() && rank->is_number_integer()) return "rank " + std::to_string(rank->get<long long>());
  const auto pid = sample.find("pid");
  return "pid " + std::to_string(pid != sample.end() && pid->is_number_integer() ? pid->get<long long>() : 0);
}

// Per counter of `columns`, over `launches`: amounts summed; ratios averaged, weighted by the time counter where
// there is one (a launch without a time weighs 1).
std::vector<double> Aggregate(const std::vector<const ComparedProfile::Launch*>& launches,
                              const std::vector<int>& columns, const std::vector<bool>& ratio, int time_column) {
  std::vector<double> totals(columns.size(), 0.0), weights(columns.size(), 0.0);
  std::vector<bool> any(columns.size(), false);
  for (const ComparedProfile::Launch* launch : launches) {
    const double time = time_column >= 0 ? launch->values[static_cast<std::size_t>(time_column)] : kNoValue;
    const double weight = std::isfinite(time) && time > 0 ? time : 1.0;
    for (std::size_t c = 0; c < columns.size(); ++c) {
      const double value = launch->values[static_cast<std::size_t>(columns[c])];
      if (!std::isfinite(value)) continue;
      any[c] = true;
      totals[c] += ratio[c] ? value * weight : value;
      weights[c] += weight;
    }
  }
  for (std::size_t c = 0; c < columns.size(); ++c) {
    if (!any[c]) {
      totals[c] = kNoValue;
    } else if (ratio[c]) {
      totals[c] = weights[c] > 0 ? totals[c] / weights[c] : 0.0;
    }
  }
  return totals;
}

double Median(std::vector<double> values) {
  if (values.empty()) return kNoValue;
  std::sort(values.begin(), values.end());
  const std::size_t middle = values.size() / 2;
  return values.size() % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2.0;
}

// The columns of `names` in `counters` (every name must be there), with whether each is a ratio.
bool Columns(const ComparedProfile& profile, const std::vector<std::string>& names, std::vector<int>* columns,
             std::vector<bool>* ratio, std::string* error) {
  columns->clear();
  ratio->clear();
  for (const std::string& name : names) {
    const auto found = std::find_if(profile.counters.begin(), profile.counters.end(),
                                    [&](const ProfiledCounter& counter) { return counter.name == name; });
    if (found == profile.counters.end()) {
      *error = profile.source + " has no counter '" + name + "'";
      return false;
    }
    columns->push_back(static_cast<int>(found - profile.counters.begin()));
    ratio->push_back(IsRatioUsage(found->usage));
  }
  return true;
}

const std::string& GroupOf(const ComparedProfile::Launch& launch, GroupBy by) {
  static const std::string kOutside = "(outside NVTX ranges)";
  if (by == GroupBy::kKernel) return launch.kernel;
  return launch.nvtx.empty() ? kOutside : launch.nvtx;
}

// Group -> member -> launches, groups in first-seen order.
struct Grouped {
  std::vector<std::string> order;
  std::map<std::string, std::map<std::string, std::vector<const ComparedProfile::Launch*>>> launches;
};

void AddLaunches(const ComparedProfile& profile, GroupBy by, const std::string& member_prefix, Grouped* grouped) {
  for (const ComparedProfile::Launch& launch : profile.launches) {
    const std::string& group = GroupOf(launch, by);
    auto [entry, inserted] = grouped->launches.try_emplace(group);
    if (inserted) grouped->order.push_back(group);
    entry->second[member_prefix + launch.member].push_back(&launch);
  }
}

}  // namespace

bool IsRatioUsage(const std::string& usage) {
  return usage == "percentage" || usage == "percent" || usage == "%" || usage == "ratio" || usage == "pct";
}

int TimeCounter(const std::vector<ProfiledCounter>& counters) {
  for (std::size_t i = 0; i < counters.size(); ++i) {
    const ProfiledCounter& counter = counters[i];
    const bool nanoseconds = counter.usage == "nanoseconds" || counter.usage == "nsecond" || counter.usage == "ns";
    const bool timelike =
        counter.name.find("time") != std::string::npos || counter.name.find("Time") != std::string::npos;
    if (nanoseconds && timelike) return static_cast<int>(i);
  }
  return -1;
}

bool ReadProfileForComparison(const std::string& path, ComparedProfile* out, std::string* error) {
  std::ifstream file(path);
  if (!file) {
    *error = path + ": cannot be opened";
    return false;
  }
  const nlohmann::json json = nlohmann::json::parse(file, nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded() || !json.is_object()) {
    *error = path + ": not JSON (an `opengpa profile` .json is)";
    return false;
  }
  const auto schema = json.find("schema");
  if (schema == json.end() || !schema->is_string() || schema->get<std::string>().rfind("opengpa-profile/", 0) != 0) {
    *error = path + ": not an opengpa profile (its \"schema\" is not opengpa-profile/...)";
    return false;
  }
  *out = ComparedProfile{};
  out->source = path;
  const auto counters = json.find("counters");
  const auto samples = json.find("samples");
  if (counters == json.end() || !counters->is_array() || samples == json.end() || !samples->is_array()) {
    *error = path + R"(: has no "counters" or "samples" array)";
    return false;
  }
  for (const auto& counter : *counters) {
    if (!counter.is_object() || !counter.contains("name") || !counter["name"].is_string()) {
      *error = path + ": a counter without a name";
      return false;
    }
    out->counters.push_back(
        {counter["name"].get<std::string>(), TextOr(counter, "usage", ""), TextOr(counter, "data_type", "float64")});
  }
  for (const auto& sample : *samples) {
    if (!sample.is_object() || !sample.contains("kernel") || !sample["kernel"].is_string()) {
      *error = path + ": a sample without a kernel name";
      return false;
    }
    ComparedProfile::Launch launch;
    launch.member = MemberOf(sample);
    launch.kernel = sample["kernel"].get<std::string>();
    launch.nvtx = sample.contains("nvtx") ? NvtxPath(sample["nvtx"]) : "";
    const auto values = sample.find("values");
    for (const ProfiledCounter& counter : out->counters) {
      double value = kNoValue;
      if (values != sample.end() && values->is_object()) {
        const auto found = values->find(counter.name);
        if (found != values->end() && found->is_number()) value = found->get<double>();
      }
      launch.values.push_back(value);
    }
    out->launches.push_back(std::move(launch));
  }
  return true;
}

bool CompareMembers(const std::vector<ComparedProfile>& profiles, GroupBy by, std::vector<std::string> counters,
                    std::vector<GroupAcrossMembers>* out, std::string* error) {
  out->clear();
  if (profiles.empty()) {
    *error = "no profile to compare";
    return false;
  }
  if (counters.empty()) {
    const int time = TimeCounter(profiles.front().counters);
    if (time < 0 && profiles.front().counters.empty()) {
      *error = profiles.front().source + " has no counters";
      return false;
    }
    counters.push_back(profiles.front().counters[static_cast<std::size_t>(std::max(time, 0))].name);
  }
  // Members are ranks or processes; two files naming the same one (two runs' rank 0) are told apart by file.
  std::set<std::string> seen;
  bool clash = false;
  for (const ComparedProfile& profile : profiles) {
    std::set<std::string> mine;
    for (const auto& launch : profile.launches) mine.insert(launch.member);
    for (const std::string& member : mine) clash = clash || !seen.insert(member).second;
  }
  Grouped grouped;
  std::map<std::string, std::pair<std::vector<int>, std::vector<bool>>> columns_of;  // by source
  std::map<std::string, int> time_of;
  for (const ComparedProfile& profile : profiles) {
    auto& [columns, ratio] = columns_of[profile.source];
    if (!Columns(profile, counters, &columns, &ratio, error)) return false;
    time_of[profile.source] = TimeCounter(profile.counters);
    AddLaunches(profile, by, clash ? profile.source + " " : std::string(), &grouped);
  }
  // Which profile each launch came from, for its columns.
  std::map<const ComparedProfile::Launch*, const ComparedProfile*> owner;
  for (const ComparedProfile& profile : profiles) {
    for (const auto& launch : profile.launches) owner[&launch] = &profile;
  }
  for (const std::string& group : grouped.order) {
    GroupAcrossMembers result;
    result.group = group;
    std::vector<std::vector<double>> per_member;  // [member][counter]
    std::vector<double> launches;
    for (const auto& [member, member_launches] : grouped.launches[group]) {
      const ComparedProfile& profile = *owner[member_launches.front()];
      const auto& [columns, ratio] = columns_of[profile.source];
      result.members.push_back(member);
      per_member.push_back(Aggregate(member_launches, columns, ratio, time_of[profile.source]));
      launches.push_back(static_cast<double>(member_launches.size()));
    }
    result.launches_median = Median(launches);
    for (std::size_t c = 0; c < counters.size(); ++c) {
      MemberSpread spread;
      spread.counter = counters[c];
      std::vector<double> values;
      values.reserve(per_member.size());
      for (const auto& row : per_member) values.push_back(row[c]);
      spread.median = Median(values);
      const auto [low, high] = std::minmax_element(values.begin(), values.end());
      spread.min = *low;
      spread.max = *high;
      spread.min_member = result.members[static_cast<std::size_t>(low - values.begin())];
      spread.max_member = result.members[static_cast<std::size_t>(high - values.begin())];
      if (c == 0) {
        std::size_t farthest = 0;
        for (std::size_t m = 1; m < values.size(); ++m) {
          const double distance = std::fabs(values[m] - spread.median);
          const double best = std::fabs(values[farthest] - spread.median);
          // Equally far (two members): the larger value, the slower rank when the counter is a time.
          if (distance > best || (distance == best && values[m] > values[farthest])) farthest = m;
        }
        result.outlier = result.members[farthest];
        result.outlier_ratio = spread.median != 0 ? values[farthest] / spread.median : 0.0;
      }
      result.spreads.push_back(std::move(spread));
    }
    out->push_back(std::move(result));
  }
  std::stable_sort(out->begin(), out->end(), [](const GroupAcrossMembers& a, const GroupAcrossMembers& b) {
    return a.spreads.front().median > b.spreads.front().median;
  });
  return true;
}

bool DiffRuns(const ComparedProfile& before, const ComparedProfile& after, GroupBy by,
              std::vector<std::string> counters, double threshold_percent, RunDiff* out, std::string* error) {
  *out = RunDiff{};
  if (counters.empty()) {
    for (const ProfiledCounter& counter : before.counters) {
      const bool shared = std::any_of(after.counters.begin(), after.counters.end(),
                                      [&](const ProfiledCounter& other) { return other.name == counter.name; });
      if (shared) counters.push_back(counter.name);
    }
    if (counters.empty()) {
      *error = before.source + " and " + after.source + " have no counter in common";
      return false;
    }
  }
  std::vector<int> before_columns, after_columns;
  std::vector<bool> before_ratio, after_ratio;
  if (!Columns(before, counters, &before_columns, &before_ratio, error) ||
      !Columns(after, counters, &after_columns, &after_ratio, error)) {
    return false;
  }
  // Each run as one member: its launches of a group, whatever process ran them.
  auto by_group = [by](const ComparedProfile& profile) {
    std::vector<std::string> order;
    std::map<std::string, std::vector<const ComparedProfile::Launch*>> groups;
    for (const auto& launch : profile.launches) {
      auto [entry, inserted] = groups.try_emplace(GroupOf(launch, by));
      if (inserted) order.push_back(entry->first);
      entry->second.push_back(&launch);
    }
    return std::make_pair(order, groups);
  };
  const auto [before_order, before_groups] = by_group(before);
  const auto [after_order, after_groups] = by_group(after);
  std::vector<CounterChange> moved, rest;
  for (const std::string& group : before_order) {
    const auto other = after_groups.find(group);
    if (other == after_groups.end()) {
      out->only_before.push_back(group);
      continue;
    }
    const std::vector<double> a =
        Aggregate(before_groups.at(group), before_columns, before_ratio, TimeCounter(before.counters));
    const std::vector<double> b = Aggregate(other->second, after_columns, after_ratio, TimeCounter(after.counters));
    for (std::size_t c = 0; c < counters.size(); ++c) {
      CounterChange change{group, counters[c], a[c], b[c], 0.0, false};
      if (a[c] != 0) {
        change.change_percent = (b[c] - a[c]) / std::fabs(a[c]) * 100.0;
      } else if (b[c] != 0) {
        change.change_percent = std::numeric_limits<double>::infinity();
      }
      change.moved =
          std::isfinite(a[c]) && std::isfinite(b[c]) && std::fabs(change.change_percent) >= threshold_percent;
      (change.moved ? moved : rest).push_back(std::move(change));
    }
  }
  for (const std::string& group : after_order) {
    if (before_groups.count(group) == 0) out->only_after.push_back(group);
  }
  std::stable_sort(moved.begin(), moved.end(), [](const CounterChange& x, const CounterChange& y) {
    return std::fabs(x.change_percent) > std::fabs(y.change_percent);
  });
  out->changes = std::move(moved);
  out->changes.insert(out->changes.end(), rest.begin(), rest.end());
  return true;
}

}  // namespace opengpa::profiling
