#include "profiler/collective_kernels.h"

#include <algorithm>

namespace opengpa::profiling {
namespace {

const std::regex& NcclPattern() {
  static const std::regex pattern(kNcclKernelPattern);
  return pattern;
}

std::string Joined(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

}  // namespace

bool CollectiveKernels::Create(const std::string& extra, CollectiveKernels* out, std::string* error) {
  out->extra_.reset();
  if (extra.empty()) return true;
  try {
    out->extra_.emplace(extra);
  } catch (const std::regex_error& problem) {
    *error = "--collective-kernel '" + extra + "' is not a regular expression: " + problem.what();
    return false;
  }
  return true;
}

bool CollectiveKernels::Matches(const std::string& name) const {
  if (std::regex_search(name, NcclPattern())) return true;
  return extra_ && std::regex_search(name, *extra_);
}

bool CollectivesNeedOwnPass(ReplayMode mode) { return mode == ReplayMode::kKernel; }

std::size_t CollectivePassGroup(const std::vector<std::vector<std::string>>& groups, const std::string& duration) {
  for (std::size_t g = 0; g < groups.size(); ++g) {
    if (std::find(groups[g].begin(), groups[g].end(), duration) != groups[g].end()) return g;
  }
  return 0;
}

std::string CollectivePassNote(const std::string& kernel, const std::vector<std::string>& measured,
                               const std::vector<std::string>& left_empty) {
  std::string note = "collective kernel " + kernel +
                     " (and every later collective launch of this context) was measured in one pass of its own "
                     "without replay: kernel replay would run it again without its peers, which would wait for it "
                     "forever (docs/cli.md, Collectives); measured " +
                     Joined(measured);
  if (!left_empty.empty()) note += "; left empty (they need other passes): " + Joined(left_empty);
  return note;
}

}  // namespace opengpa::profiling
