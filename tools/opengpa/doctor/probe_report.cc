#include "probe_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace opengpa::doctor {
namespace {

std::string Number(double value) {
  char text[64];
  std::snprintf(text, sizeof text, value == std::floor(value) && std::fabs(value) < 1e15 ? "%.0f" : "%.6g", value);
  return text;
}

nlohmann::json ToleranceJson(const Tolerance& tolerance) {
  nlohmann::json json = {{"text", tolerance.Text()}};
  switch (tolerance.kind) {
    case Tolerance::Kind::kExact: json["kind"] = "exact"; break;
    case Tolerance::Kind::kRelative:
      json["kind"] = "relative";
      json["fraction"] = tolerance.fraction;
      break;
    case Tolerance::Kind::kPositiveAtMost: json["kind"] = "positive_at_most"; break;
    case Tolerance::Kind::kAtLeast: json["kind"] = "at_least"; break;
  }
  return json;
}

}  // namespace

bool Tolerance::Holds(double measured, double truth) const {
  if (!std::isfinite(measured)) return false;  // NaN or infinity never matches a truth
  switch (kind) {
    case Kind::kExact: return measured == truth;
    case Kind::kRelative: return std::fabs(measured - truth) <= fraction * std::fabs(truth);
    case Kind::kPositiveAtMost: return measured > 0 && measured <= truth;
    case Kind::kAtLeast: return measured >= truth;
  }
  return false;
}

std::string Tolerance::Text() const {
  switch (kind) {
    case Kind::kExact: return "exact";
    case Kind::kRelative: return "within " + Number(fraction * 100) + "%";
    case Kind::kPositiveAtMost: return "0 < measured <= truth";
    case Kind::kAtLeast: return "measured >= truth";
  }
  return "?";
}

void ProbeReport::SetGpaLibrary(std::string path, std::vector<std::string> tried, std::string version) {
  gpa_path_ = std::move(path);
  gpa_tried_ = std::move(tried);
  gpa_version_ = std::move(version);
}

bool ProbeReport::Compare(Check check) {
  check.passed = check.tolerance.Holds(check.measured, check.truth);
  checks_.push_back(std::move(check));
  return checks_.back().passed;
}

void ProbeReport::ExplainFailedChecks(const std::string& zero_fix) {
  std::vector<const Check*> failed;
  bool any_counter_nonzero = false;
  for (const Check& check : checks_) {
    if (!check.passed) failed.push_back(&check);
    if (!check.counter.empty() && check.measured != 0) any_counter_nonzero = true;
  }
  if (failed.empty()) return;
  const bool workload_ran =
      std::all_of(checks_.begin(), checks_.end(), [](const Check& c) { return !c.counter.empty() || c.passed; });
  if (!any_counter_nonzero && workload_ran) {
    std::string names;
    for (const Check& check : checks_) {
      if (!check.counter.empty()) names += (names.empty() ? "" : ", ") + check.counter;
    }
    AddCause(
        {"counters_read_zero", "every counter read 0 (" + names + ") although the workload ran as designed", zero_fix});
    return;
  }
  for (const Check* check : failed) {
    if (check->counter.empty()) {
      AddCause({"workload_wrong",
                check->name + ": the workload itself measured " + Number(check->measured) + " where " +
                    Number(check->truth) + " was expected (" + check->truth_source + ")",
                "the driver did not run the work as submitted; the counters cannot be judged on it. Update or "
                "reinstall the driver, and rerun `opengpa doctor -v` to see its messages"});
      continue;
    }
    const bool not_finite = !std::isfinite(check->measured);
    AddCause({not_finite ? "counter_not_finite" : "counter_differs_from_truth",
              check->counter + " of " + check->name + " read " + Number(check->measured) + ", truth " +
                  Number(check->truth) + " (" + check->truth_source + "), tolerance " + check->tolerance.Text(),
              "do not rely on " + check->counter +
                  " on this driver; docs/doctor.md lists what each counter counts on which driver. Report it with "
                  "the output of `opengpa doctor --format json`"});
  }
}

std::string ProbeReport::Status() const {
  if (IsAbsent()) return "absent";
  const bool any_failed_check = std::any_of(checks_.begin(), checks_.end(), [](const Check& c) { return !c.passed; });
  if (any_failed_check) return "fail";
  if (checks_.empty()) return "unusable";
  // Checks that held and a cause after them: part of the API works (NVML's counters where PM sampling is refused).
  return causes_.empty() ? "pass" : "fail";
}

nlohmann::json ProbeReport::ToJson(double seconds) const {
  nlohmann::json json;
  json["api"] = api_;
  json["status"] = Status();
  if (IsAbsent()) json["reason"] = absent_reason_;
  nlohmann::json library = {{"tried", gpa_tried_}};
  if (!gpa_path_.empty()) library["path"] = gpa_path_;
  if (!gpa_version_.empty()) library["version"] = gpa_version_;
  json["gpa_library"] = library;
  json["driver"] = driver_;
  json["checks"] = nlohmann::json::array();
  for (const Check& check : checks_) {
    json["checks"].push_back(
        {{"name", check.name},
         {"counter", check.counter},
         {"unit", check.unit},
         {"measured", std::isfinite(check.measured) ? nlohmann::json(check.measured) : nlohmann::json(nullptr)},
         {"truth", check.truth},
         {"truth_source", check.truth_source},
         {"tolerance", ToleranceJson(check.tolerance)},
         {"verdict", check.passed ? "pass" : "fail"}});
  }
  json["causes"] = nlohmann::json::array();
  for (const Cause& cause : causes_) {
    json["causes"].push_back({{"id", cause.id}, {"message", cause.message}, {"fix", cause.fix}});
  }
  json["seconds"] = seconds;
  return json;
}

}  // namespace opengpa::doctor
