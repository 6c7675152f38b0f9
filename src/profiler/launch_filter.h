// Which kernel launches `opengpa profile` profiles (--kernel-name REGEX, --launch-skip N, --launch-count N,
// as ncu's options of the same names): a launch matches when the regular expression is found in its
// (demangled) name; the first `skip` matching launches are left out, then at most `count` are profiled.
// Decided in launch order, one call per launch, so the same program filtered the same way profiles the
// same launches in every run (application replay relies on it).
#ifndef OPENGPA_PROFILER_LAUNCH_FILTER_H_
#define OPENGPA_PROFILER_LAUNCH_FILTER_H_

#include <cstdint>
#include <optional>
#include <regex>
#include <string>

namespace opengpa::profiling {

class LaunchFilter {
 public:
  // False and *error quoting the expression when it does not compile.
  static bool Create(const std::string& kernel_name, std::uint64_t skip, std::uint64_t count, LaunchFilter* out,
                     std::string* error);

  // Whether the next launch, of kernel `name`, is profiled.
  bool Profile(const std::string& name);
  // No later launch will be profiled (--launch-count reached): profiling can stop for good.
  bool Exhausted() const { return count_ != 0 && profiled_ >= count_; }

 private:
  std::optional<std::regex> pattern_;
  std::uint64_t skip_ = 0;
  std::uint64_t count_ = 0;
  std::uint64_t matched_ = 0;
  std::uint64_t profiled_ = 0;
};

}  // namespace opengpa::profiling

#endif  // OPENGPA_PROFILER_LAUNCH_FILTER_H_
