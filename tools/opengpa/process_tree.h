// The processes a profiled program leaves behind. `opengpa profile` makes itself a subreaper
// (PR_SET_CHILD_SUBREAPER) before it starts the program, so that a process whose parent ended (`app &` in a shell
// that exits, a child a program starts and does not wait for) becomes opengpa's child rather than init's: opengpa
// can then see it, wait for it (it may not have begun to write its samples when the program ended, measured on the
// H200: an orphaned CUDA child's launches were all missing, tests/device/processes) and reap it.
#ifndef OPENGPA_TOOLS_OPENGPA_PROCESS_TREE_H_
#define OPENGPA_TOOLS_OPENGPA_PROCESS_TREE_H_

#include <cstdint>
#include <vector>

namespace opengpa::cli {

// Makes this process the subreaper of its descendants; false where the kernel refuses (orphans then go to init,
// and only those that write samples are waited for).
bool BecomeSubreaper();

// Whether process `pid` runs (a zombie does not: it has written all it ever will).
bool ProcessRuns(std::uint32_t pid);

// The running (not zombie) descendants of `root`, found through /proc's parent links; `except` itself is left out,
// its descendants are not. Sorted by pid.
std::vector<std::uint32_t> RunningDescendants(std::uint32_t root, std::uint32_t except = 0);

// Reaps every child of this process that has ended (orphans it adopted as their subreaper), without waiting.
// Only once the process RunProgram waits for has been reaped: it would take that one's status.
void ReapEndedChildren();

}  // namespace opengpa::cli

#endif  // OPENGPA_TOOLS_OPENGPA_PROCESS_TREE_H_
