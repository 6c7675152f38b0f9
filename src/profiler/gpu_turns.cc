#include "profiler/gpu_turns.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <thread>

#include "platform/file_lock.h"
#include "profiler/sample_stream.h"

namespace opengpa::profiling {
namespace {

int OpenLockFile(const std::string& path) { return open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600); }

// The holder writes its pid (and its rank in the job, when it has one) into the lock file, so that a waiter that
// gives up can name it: "4321 (rank 1)".
void WriteHolder(int fd) {
  std::string holder = std::to_string(getpid());
  if (const auto rank = RankFromEnvironment()) holder += " (rank " + std::to_string(*rank) + ")";
  if (ftruncate(fd, 0) == 0) {
    const ssize_t written = pwrite(fd, holder.data(), holder.size(), 0);
    static_cast<void>(written);
  }
}

std::string ReadHolder(int fd) {
  char text[32] = {};
  const ssize_t got = pread(fd, text, sizeof text - 1, 0);
  return got > 0 ? std::string(text, static_cast<std::size_t>(got)) : std::string("?");
}

}  // namespace

GpuTurns::~GpuTurns() {
  for (auto& [gpu, held] : held_) close(held.lock_fd);
}

std::unique_ptr<GpuTurns> GpuTurns::FromEnvironment() {
  const char* folder = std::getenv(kTurnsFolderVariable);
  std::chrono::milliseconds wait = kDefaultTurnWait;
  if (const char* seconds = std::getenv(kTurnWaitVariable)) {
    char* end = nullptr;
    const double value = std::strtod(seconds, &end);
    if (end != seconds && *end == '\0' && value >= 0 && value < 1e6) {
      wait = std::chrono::milliseconds(static_cast<std::int64_t>(value * 1000));
    }
  }
  // "off": `opengpa profile` was asked to take no turns (to measure them, or to show what happens without them).
  const bool off = folder == nullptr || std::string(folder) == "off";
  return std::make_unique<GpuTurns>(off ? "" : folder, wait);
}

std::string GpuTurns::PathOf(const std::string& gpu, const char* suffix) const {
  std::string name = gpu;
  for (char& c : name) {
    if (c == '/') c = '_';
  }
  return folder_ + "/gpu-" + name + suffix;
}

bool GpuTurns::Acquire(const std::string& gpu, std::string* error, bool wait) {
  std::chrono::steady_clock::time_point yield_until;
  std::string given_up;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (folder_.empty()) return true;
    auto found = held_.find(gpu);
    if (found != held_.end()) {
      ++found->second.count;
      return true;
    }
    if (auto gave_up = given_up_.find(gpu); gave_up != given_up_.end()) given_up = gave_up->second;
    auto yielding = yield_until_.find(gpu);
    if (yielding != yield_until_.end()) {
      yield_until = yielding->second;
      yield_until_.erase(yielding);
    }
  }
  const std::string path = PathOf(gpu, ".lock");
  const int fd = OpenLockFile(path);
  if (fd < 0) return true;  // the folder is gone (the CLI ended): uncoordinated, as without turns; CUPTI decides
  const auto start = std::chrono::steady_clock::now();
  // Just after handing the GPU over, the waiter goes first: this process waits as one, trying only after the grace.
  const bool yielding = start < yield_until;
  if (!wait || !given_up.empty()) {
    // One try, no waiting: a collective launch, or a GPU this process already waited for in vain.
    if (FlockRetryingOnSignals(fd, LOCK_EX | LOCK_NB) != 0) {
      *error = !given_up.empty() ? given_up + "; this process no longer waits for it"
                                 : "GPU " + gpu + " is held by process " + ReadHolder(fd) +
                                       ", and a collective launch does not wait for a GPU's turn (its peers may be "
                                       "what the holder waits for)";
      close(fd);
      return false;
    }
  } else if (yielding || FlockRetryingOnSignals(fd, LOCK_EX | LOCK_NB) != 0) {
    // Another process holds the GPU: say so on the waiting file (its holder hands the turn over), then wait.
    const int waiting = OpenLockFile(PathOf(gpu, ".waiting"));
    if (waiting >= 0) FlockRetryingOnSignals(waiting, LOCK_SH);
    bool got = false;
    for (;;) {
      const auto now = std::chrono::steady_clock::now();
      if (now >= yield_until && (got = FlockRetryingOnSignals(fd, LOCK_EX | LOCK_NB) == 0)) break;
      if (now - start >= wait_) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    if (waiting >= 0) close(waiting);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      ++waits_;
      waited_ms_ += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    }
    if (!got) {
      const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      *error = "GPU " + gpu + " stayed busy: process " + ReadHolder(fd) + " held its profiler for the " +
               std::to_string(std::lround(waited)) + " s this process waited (--turn-timeout, " + kTurnWaitVariable +
               ")";
      close(fd);
      std::lock_guard<std::mutex> lock(mutex_);
      given_up_[gpu] = *error;
      return false;
    }
  }
  WriteHolder(fd);
  std::lock_guard<std::mutex> lock(mutex_);
  held_[gpu] = Held{fd, 1, std::chrono::steady_clock::now()};
  return true;
}

void GpuTurns::Release(const std::string& gpu) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto found = held_.find(gpu);
  if (found == held_.end() || --found->second.count > 0) return;
  FlockRetryingOnSignals(found->second.lock_fd, LOCK_UN);
  close(found->second.lock_fd);
  held_.erase(found);
}

void GpuTurns::Yield(const std::string& gpu) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!folder_.empty()) yield_until_[gpu] = std::chrono::steady_clock::now() + kYieldGrace;
}

std::vector<std::string> GpuTurns::Wanted() {
  std::vector<std::string> wanted;
  std::lock_guard<std::mutex> lock(mutex_);
  const auto now = std::chrono::steady_clock::now();
  for (const auto& [gpu, held] : held_) {
    if (now - held.since < kMinimumHold) continue;
    const int waiting = open(PathOf(gpu, ".waiting").c_str(), O_RDWR | O_CLOEXEC);
    if (waiting < 0) continue;  // nobody ever waited for it
    if (FlockRetryingOnSignals(waiting, LOCK_EX | LOCK_NB) == 0) {
      FlockRetryingOnSignals(waiting, LOCK_UN);
    } else if (errno == EWOULDBLOCK) {
      wanted.push_back(gpu);
    }
    close(waiting);
  }
  return wanted;
}

bool GpuTurns::HoldsAny() {
  std::lock_guard<std::mutex> lock(mutex_);
  return !held_.empty();
}

}  // namespace opengpa::profiling
