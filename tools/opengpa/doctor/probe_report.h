// What one doctor probe (opengpa-doctor-<api>) found for its API, printed as one JSON object on stdout for
// `opengpa doctor` to gather (docs/doctor.md, docs/schema/doctor.schema.json): the GPA library and driver it
// found, each counter it compared with the truth of a workload of known size, and every cause of failure with
// its fix. The probe decides its own status from those: a cause makes the backend unusable (or absent), a
// check outside its tolerance makes it fail.
#ifndef OPENGPA_TOOLS_OPENGPA_DOCTOR_PROBE_REPORT_H_
#define OPENGPA_TOOLS_OPENGPA_DOCTOR_PROBE_REPORT_H_

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace opengpa::doctor {

// How close a measured value must be to its truth.
struct Tolerance {
  enum class Kind {
    kExact,           // measured == truth
    kRelative,        // |measured - truth| <= fraction * truth
    kPositiveAtMost,  // 0 < measured <= truth (a time bounded by the host's wall time around the work)
    kAtLeast,         // measured >= truth (a time that must cover the driver's own time of the same work)
  };
  Kind kind = Kind::kExact;
  double fraction = 0.0;  // kRelative only

  static Tolerance Exact() { return {}; }
  static Tolerance Relative(double fraction) { return {Kind::kRelative, fraction}; }
  static Tolerance PositiveAtMost() { return {Kind::kPositiveAtMost, 0.0}; }
  static Tolerance AtLeast() { return {Kind::kAtLeast, 0.0}; }
  bool Holds(double measured, double truth) const;
  std::string Text() const;  // "exact", "within 2%", "0 < measured <= truth", "measured >= truth"
};

struct Check {
  std::string name;     // what was run: "dispatch 16x8x1 of 64 threads"
  std::string counter;  // the GPA counter read ("" for a check of the workload itself)
  std::string unit;     // items, nanoseconds, kilobytes
  double measured = 0.0;
  double truth = 0.0;
  Tolerance tolerance;
  std::string truth_source;  // why the truth is what it is: "x * y * z * local size"
  bool passed = false;
};

// Why a backend is unusable or a check failed, and what to do about it.
struct Cause {
  std::string id;       // stable: gpa_library_not_found, context_not_opened, profiling_not_permitted, ...
  std::string message;  // what happened, with the paths, statuses and values involved
  std::string fix;      // what the user can do
};

class ProbeReport {
 public:
  explicit ProbeReport(std::string api) : api_(std::move(api)) {}

  // The API or its driver is not on this machine: not a failure.
  void MarkAbsent(std::string reason) { absent_reason_ = std::move(reason); }
  bool IsAbsent() const { return !absent_reason_.empty(); }

  void SetGpaLibrary(std::string path, std::vector<std::string> tried, std::string version);
  void SetGpaLibraryTried(std::vector<std::string> tried) { gpa_tried_ = std::move(tried); }
  void SetDriver(nlohmann::json driver) { driver_ = std::move(driver); }
  nlohmann::json& Driver() { return driver_; }

  // Compares and records; returns whether it held.
  bool Compare(Check check);
  void AddCause(Cause cause) { causes_.push_back(std::move(cause)); }
  // Adds a cause for each failed check: counters that all read 0 where work was done, or a value that differs.
  void ExplainFailedChecks(const std::string& zero_fix);

  const std::vector<Check>& Checks() const { return checks_; }
  const std::vector<Cause>& Causes() const { return causes_; }
  // "absent", "unusable" (a cause and no check ran), "fail" (a check or a cause after checks), "pass".
  std::string Status() const;
  nlohmann::json ToJson(double seconds) const;

 private:
  std::string api_;
  std::string absent_reason_;
  std::string gpa_path_;
  std::vector<std::string> gpa_tried_;
  std::string gpa_version_;
  nlohmann::json driver_ = nlohmann::json::object();
  std::vector<Check> checks_;
  std::vector<Cause> causes_;
};

}  // namespace opengpa::doctor

#endif  // OPENGPA_TOOLS_OPENGPA_DOCTOR_PROBE_REPORT_H_
