#include "profiler/replay_choice.h"

namespace opengpa::inject_cuda {
namespace {

using profiling::ReplayMode;

std::string PassesText(std::size_t passes) { return std::to_string(passes) + (passes == 1 ? " pass" : " passes"); }

// "sm__throughput.avg.pct_of_peak_sustained_elapsed (8 passes), lts__t_sector_hit_rate.pct (2 passes)"
std::string Listed(const std::vector<SelfMultiPassMetric>& alone) {
  std::string text;
  for (const SelfMultiPassMetric& metric : alone) {
    if (!text.empty()) text += ", ";
    text += metric.name + " (" + PassesText(metric.passes) + ")";
  }
  return text;
}

}  // namespace

std::string KernelReplayNote(std::size_t passes) {
  if (passes <= 1) return "";
  return "kernel replay of " + PassesText(passes) +
         ": CUPTI restores device memory before every pass after the first and nothing flushes the L2 in between, "
         "so DRAM bytes (writes most), L2 hit rates and times differ from one pass's (docs/cli.md, Replay modes)";
}

ReplayChoice ChooseReplay(ReplayMode asked, std::size_t passes, const std::vector<SelfMultiPassMetric>& alone,
                          const std::string& chip) {
  ReplayChoice choice;
  switch (asked) {
    case ReplayMode::kNone:
      choice.mode = ReplayMode::kNone;
      if (passes > 1) {
        choice.refusal = "--replay-mode none collects one-pass sets, and these counters need " + PassesText(passes) +
                         " on " + chip + ": use --replay-mode application or kernel (or auto)";
      }
      return choice;
    case ReplayMode::kApplication:
      choice.mode = ReplayMode::kApplication;
      if (!alone.empty()) {
        choice.refusal =
            "application replay runs the program once per pass and collects whole metrics in each run, "
            "but on " +
            chip + " " + Listed(alone) + (alone.size() == 1 ? " needs" : " need") +
            " several passes alone (--replay-mode kernel collects it, with kernel replay's values)";
      }
      return choice;
    case ReplayMode::kKernel:
      choice.mode = ReplayMode::kKernel;
      choice.note = KernelReplayNote(passes);
      return choice;
    case ReplayMode::kAuto: break;
  }
  if (passes <= 1) {
    choice.mode = ReplayMode::kNone;
  } else if (alone.empty()) {
    choice.mode = ReplayMode::kApplication;
  } else {
    choice.mode = ReplayMode::kKernel;
    choice.refusal = "auto collects one-pass values and cannot for this set: on " + chip + " " + Listed(alone) +
                     (alone.size() == 1 ? " needs" : " need") +
                     " several passes alone, which application replay cannot split across runs, and CUPTI's kernel "
                     "replay would restore device memory between the passes (DRAM writes, L2 hit rates and times "
                     "then differ from one pass's). Leave " +
                     (alone.size() == 1 ? "it" : "them") +
                     " out, or ask for --replay-mode kernel to accept kernel replay's values";
  }
  return choice;
}

}  // namespace opengpa::inject_cuda
