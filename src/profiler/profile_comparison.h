// Comparing profiles (`opengpa compare`, issue 29): the ranks or processes of one job side by side, and two runs of
// a program. Both read `opengpa profile`'s JSON (docs/schema/profile.schema.json) and group launches by kernel name
// or by NVTX path.
//
// Across members (ranks, else processes): per group and member, each counter over the member's launches of the
// group: amounts (time, bytes, instructions, ...) summed, ratios and percentages averaged weighted by the launches'
// time where the profile has a time counter; then min, median and max over the members, and the outlier: the member
// farthest from the median of the time counter (or of the first counter shown), the larger of two equally far.
//
// Two runs: per group and counter, both runs' values as above and the change in percent; the counters that moved
// (|change| at or above a threshold) first, the largest moves first; groups found in one run only are named.
#ifndef OPENGPA_PROFILER_PROFILE_COMPARISON_H_
#define OPENGPA_PROFILER_PROFILE_COMPARISON_H_

#include <cstddef>
#include <string>
#include <vector>

#include "profiler/profile_run.h"

namespace opengpa::profiling {

// What comparison needs of one profile JSON.
struct ComparedProfile {
  std::string source;  // the file it was read from
  std::vector<ProfiledCounter> counters;
  struct Launch {
    std::string member;  // "rank 3", or "pid 1234" where the process has no rank
    std::string kernel;
    std::string nvtx;            // the NVTX path, outermost first, " > " between ranges; "" outside any range
    std::vector<double> values;  // per counter; NaN where the profile has no value
  };
  std::vector<Launch> launches;
};

// False and *error (naming the file and what is wrong) when `path` is not a readable profile JSON.
bool ReadProfileForComparison(const std::string& path, ComparedProfile* out, std::string* error);

enum class GroupBy { kKernel, kNvtx };

// Whether a counter of this usage is a ratio (averaged), not an amount (summed).
bool IsRatioUsage(const std::string& usage);
// The index of the profile's time counter (nanoseconds, named like a time), or -1.
int TimeCounter(const std::vector<ProfiledCounter>& counters);

struct MemberSpread {
  std::string counter;
  double min = 0, median = 0, max = 0;
  std::string min_member, max_member;
};

struct GroupAcrossMembers {
  std::string group;
  std::vector<std::string> members;   // those that ran the group
  double launches_median = 0;         // launches of the group per member
  std::vector<MemberSpread> spreads;  // per counter asked for
  std::string outlier;                // the member farthest from the median of the first spread
  double outlier_ratio = 1.0;         // its value over the median (0 when the median is 0)
};

// `counters`: names of the profiles' counters to compare (empty: the time counter, else the first). Every profile
// must have them. Groups in order of their median first counter, largest first. False and *error otherwise.
bool CompareMembers(const std::vector<ComparedProfile>& profiles, GroupBy by, std::vector<std::string> counters,
                    std::vector<GroupAcrossMembers>* out, std::string* error);

struct CounterChange {
  std::string group;
  std::string counter;
  double before = 0, after = 0;
  double change_percent = 0;  // (after - before) / before x 100; +inf where only `after` is non-zero
  bool moved = false;         // |change_percent| >= the threshold
};

struct RunDiff {
  std::vector<CounterChange> changes;  // moved first, largest |change| first; then the rest in group order
  std::vector<std::string> only_before, only_after;  // groups one run has and the other lacks
};

// Both profiles must have `counters` (empty: every counter both have).
bool DiffRuns(const ComparedProfile& before, const ComparedProfile& after, GroupBy by,
              std::vector<std::string> counters, double threshold_percent, RunDiff* out, std::string* error);

}  // namespace opengpa::profiling

#endif  // OPENGPA_PROFILER_PROFILE_COMPARISON_H_
