#include "process_tree.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <map>
#include <string>

namespace opengpa::cli {
namespace {

struct ProcessEntry {
  std::uint32_t parent = 0;
  bool runs = false;
};

// /proc/PID/stat's state and parent, which follow the command name (which may hold ')' and spaces). Read with
// read(2): a process that ends while it is read fails the read with ESRCH, which std::ifstream turns into an
// exception (seen in CI: "basic_filebuf::underflow error reading the file: No such process").
bool ReadProcessEntry(std::uint32_t pid, ProcessEntry* entry) {
  const std::string path = "/proc/" + std::to_string(pid) + "/stat";
  const int file = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (file < 0) return false;
  char buffer[1024];
  ssize_t got = 0;
  do {
    got = read(file, buffer, sizeof buffer);
  } while (got < 0 && errno == EINTR);
  close(file);
  if (got <= 0) return false;
  const std::string text(buffer, static_cast<std::size_t>(got));
  const std::size_t name_end = text.rfind(')');
  if (name_end == std::string::npos || name_end + 4 >= text.size()) return false;
  const char state = text[name_end + 2];
  entry->runs = state != 'Z' && state != 'X';
  entry->parent = static_cast<std::uint32_t>(std::strtoul(text.c_str() + name_end + 4, nullptr, 10));
  return true;
}

// Every process /proc shows, with its parent.
std::map<std::uint32_t, ProcessEntry> AllProcesses() {
  std::map<std::uint32_t, ProcessEntry> processes;
  DIR* proc = opendir("/proc");
  if (proc == nullptr) return processes;
  while (const dirent* item = readdir(proc)) {
    char* end = nullptr;
    const unsigned long pid = std::strtoul(item->d_name, &end, 10);
    if (end == item->d_name || *end != '\0' || pid == 0) continue;
    ProcessEntry entry;
    if (ReadProcessEntry(static_cast<std::uint32_t>(pid), &entry)) processes[static_cast<std::uint32_t>(pid)] = entry;
  }
  closedir(proc);
  return processes;
}

}  // namespace

bool BecomeSubreaper() { return prctl(PR_SET_CHILD_SUBREAPER, 1) == 0; }

bool ProcessRuns(std::uint32_t pid) {
  ProcessEntry entry;
  return ReadProcessEntry(pid, &entry) && entry.runs;
}

std::vector<std::uint32_t> RunningDescendants(std::uint32_t root, std::uint32_t except) {
  const std::map<std::uint32_t, ProcessEntry> processes = AllProcesses();
  std::vector<std::uint32_t> found;
  for (const auto& [pid, entry] : processes) {
    if (!entry.runs || pid == except || pid == root) continue;
    // Up the parent links to root; a chain that leaves /proc's view, reaches init or loops (pids reused while
    // /proc was read) is not root's.
    std::uint32_t parent = entry.parent;
    for (std::size_t steps = 0; parent > 1 && parent != root && steps < processes.size(); ++steps) {
      const auto up = processes.find(parent);
      if (up == processes.end()) break;
      parent = up->second.parent;
    }
    if (parent == root) found.push_back(pid);
  }
  return found;  // in pid order: the map's
}

void ReapEndedChildren() {
  for (;;) {
    const pid_t reaped = waitpid(-1, nullptr, WNOHANG);
    if (reaped > 0 || (reaped < 0 && errno == EINTR)) continue;
    return;  // 0: the children left still run; -1 (ECHILD): none left
  }
}

}  // namespace opengpa::cli
