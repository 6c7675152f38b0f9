#include "nvidia/counter_handover.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <thread>

#include "platform/file_lock.h"

namespace opengpa::nvidia {
namespace {

// How often a waiting profiler tries the GPU's use lock again.
constexpr std::chrono::milliseconds kRetryPeriod{2};

// The folder, made with mode 1777 when missing (every user's profiler creates its files there; the sticky bit
// keeps one user from removing another's). False when it cannot be used (not a folder, a symbolic link, no room).
bool EnsureFolder(const std::string& folder) {
  if (mkdir(folder.c_str(), 0777) == 0) {
    chmod(folder.c_str(), 01777);  // mkdir's mode went through the umask
  } else if (errno != EEXIST) {
    return false;
  }
  struct stat info {};
  return lstat(folder.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}

// Opens a lock file for flock (read-only suffices), making it when missing. An existing file is opened without
// O_CREAT: with fs.protected_regular, O_CREAT on another user's file in a sticky folder is refused even when the
// file exists. Never follows a symbolic link.
int OpenLockFile(const std::string& path) {
  for (int attempt = 0; attempt < 3; ++attempt) {
    int fd = open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd >= 0 || errno != ENOENT) return fd;
    fd = open(path.c_str(), O_RDONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd >= 0) {
      fchmod(fd, 0644);  // readable by every user whatever this process's umask
      return fd;
    }
    if (errno != EEXIST) return -1;  // another process made it meanwhile: open that one
  }
  return -1;
}

bool UsableGpuName(const std::string& gpu) { return !gpu.empty() && gpu.find('/') == std::string::npos; }

std::chrono::milliseconds WaitFromEnvironment() {
  const char* seconds = std::getenv(kHandoverWaitVariable);
  if (seconds == nullptr) return kDefaultHandoverWait;
  char* end = nullptr;
  const double value = std::strtod(seconds, &end);
  if (end == seconds || *end != '\0' || !(value >= 0) || value > 1e6) return kDefaultHandoverWait;
  return std::chrono::milliseconds(static_cast<long long>(value * 1000));
}

}  // namespace

std::string HandoverFolder() {
  const char* folder = std::getenv(kHandoverFolderVariable);
  if (folder == nullptr) return kDefaultHandoverFolder;
  const std::string value = folder;
  return value == "off" ? std::string() : value;
}

std::unique_ptr<CounterClaim> CounterClaim::Acquire(const std::string& folder, const std::string& gpu,
                                                    std::chrono::milliseconds wait, std::string* note,
                                                    std::chrono::milliseconds* waited) {
  const auto begin = std::chrono::steady_clock::now();
  if (waited != nullptr) *waited = std::chrono::milliseconds(0);
  if (folder.empty()) return std::unique_ptr<CounterClaim>(new CounterClaim(-1, -1));
  const auto fail = [&](const char* what) {
    if (note != nullptr) {
      *note = std::string("cannot use the hand-over folder ") + folder + " (" + what + ": " + std::strerror(errno) +
              "): a monitor sampling GPU " + gpu + " is not asked to let go";
    }
    return std::unique_ptr<CounterClaim>(new CounterClaim(-1, -1));
  };
  if (!UsableGpuName(gpu)) {
    errno = EINVAL;
    return fail("GPU name");
  }
  if (!EnsureFolder(folder)) return fail("folder");
  const int want_fd = OpenLockFile(folder + "/" + gpu + ".want");
  if (want_fd < 0) return fail(".want file");
  // The monitor's look at .want holds it for an instant: wait that out rather than block.
  const auto deadline = begin + wait;
  while (FlockRetryingOnSignals(want_fd, LOCK_SH | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK || std::chrono::steady_clock::now() >= deadline) {
      close(want_fd);
      return fail(".want lock");
    }
    std::this_thread::sleep_for(kRetryPeriod);
  }
  const int use_fd = OpenLockFile(folder + "/" + gpu + ".use");
  if (use_fd < 0) {
    close(want_fd);
    return fail(".use file");
  }
  bool holds = false;
  for (;;) {
    if (FlockRetryingOnSignals(use_fd, LOCK_SH | LOCK_NB) == 0) {
      holds = true;
      break;
    }
    if (errno != EWOULDBLOCK || std::chrono::steady_clock::now() >= deadline) break;
    std::this_thread::sleep_for(kRetryPeriod);
  }
  const auto spent = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - begin);
  if (waited != nullptr) *waited = spent;
  if (!holds) {
    if (note != nullptr) {
      *note = "a monitor sampling GPU " + gpu + " did not let go of its counters within " +
              std::to_string(spent.count()) + " ms (" + kHandoverWaitVariable + "); profiling goes on";
    }
    close(use_fd);
    return std::unique_ptr<CounterClaim>(new CounterClaim(want_fd, -1));  // still wanted: the monitor lets go later
  }
  return std::unique_ptr<CounterClaim>(new CounterClaim(want_fd, use_fd));
}

CounterClaim::~CounterClaim() {
  if (use_fd_ >= 0) close(use_fd_);
  if (want_fd_ >= 0) close(want_fd_);
}

std::shared_ptr<CounterClaim> ClaimGpuCounters(const std::string& gpu, std::string* note) {
  static std::mutex mutex;
  static std::map<std::string, std::weak_ptr<CounterClaim>> claims;
  std::lock_guard<std::mutex> lock(mutex);
  if (std::shared_ptr<CounterClaim> held = claims[gpu].lock()) return held;
  std::shared_ptr<CounterClaim> claim = CounterClaim::Acquire(HandoverFolder(), gpu, WaitFromEnvironment(), note);
  claims[gpu] = claim;
  return claim;
}

MonitorHold::MonitorHold(std::string folder, std::string gpu) : folder_(std::move(folder)), gpu_(std::move(gpu)) {}

MonitorHold::~MonitorHold() {
  if (use_fd_ >= 0) close(use_fd_);
  if (want_fd_ >= 0) close(want_fd_);
}

bool MonitorHold::Open() {
  if (want_fd_ >= 0 && use_fd_ >= 0) return true;
  if (unusable_ || folder_.empty() || !UsableGpuName(gpu_) || !EnsureFolder(folder_)) {
    unusable_ = true;
    return false;
  }
  want_fd_ = OpenLockFile(folder_ + "/" + gpu_ + ".want");
  use_fd_ = OpenLockFile(folder_ + "/" + gpu_ + ".use");
  if (want_fd_ < 0 || use_fd_ < 0) {
    unusable_ = true;
    return false;
  }
  return true;
}

bool MonitorHold::ProfilerWants() {
  if (!Open()) return false;
  if (FlockRetryingOnSignals(want_fd_, LOCK_EX | LOCK_NB) != 0) return errno == EWOULDBLOCK;
  FlockRetryingOnSignals(want_fd_, LOCK_UN);
  return false;
}

bool MonitorHold::TryTake() {
  if (held_) return true;
  if (!Open()) {
    held_ = true;  // nothing to coordinate with
    return true;
  }
  if (ProfilerWants()) return false;
  if (FlockRetryingOnSignals(use_fd_, LOCK_EX | LOCK_NB) != 0) return false;
  held_ = true;
  return true;
}

void MonitorHold::Release() {
  if (held_ && use_fd_ >= 0) FlockRetryingOnSignals(use_fd_, LOCK_UN);
  held_ = false;
}

}  // namespace opengpa::nvidia
