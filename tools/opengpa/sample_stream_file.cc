#include "sample_stream_file.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

namespace opengpa::cli {
namespace {

constexpr const char kPrefix[] = "opengpa-samples-";
constexpr std::size_t kSuffixLength = 6;  // mkstemp's XXXXXX
constexpr const char kKeptExtension[] = ".jsonl";

std::string TemporaryFolder() {
  const char* tmp = std::getenv("TMPDIR");
  return tmp != nullptr && *tmp != '\0' ? tmp : "/tmp";
}

// Counts the sample records of a stream (lines that start {"type":"sample"), reading it once.
unsigned long long CountSamples(const std::string& path) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) return 0;
  static constexpr char kSample[] = R"({"type":"sample")";
  constexpr std::size_t kLength = sizeof kSample - 1;
  unsigned long long samples = 0;
  std::size_t matched = 0;  // characters of kSample matched at the start of the current line
  bool line_start = true;
  char buffer[1 << 16];
  for (std::size_t got; (got = std::fread(buffer, 1, sizeof buffer, file)) > 0;) {
    for (std::size_t i = 0; i < got; ++i) {
      const char c = buffer[i];
      if (c == '\n') {
        line_start = true;
        matched = 0;
        continue;
      }
      if (line_start) {
        if (c == kSample[matched]) {
          if (++matched == kLength) {
            ++samples;
            line_start = false;
          }
        } else {
          line_start = false;
        }
      }
    }
  }
  std::fclose(file);
  return samples;
}

std::string Size(long long bytes) {
  char text[32];
  if (bytes >= (1 << 20)) {
    std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(bytes) / (1 << 20));
  } else if (bytes >= 1024) {
    std::snprintf(text, sizeof text, "%.1f KiB", static_cast<double>(bytes) / 1024);
  } else {
    std::snprintf(text, sizeof text, "%lld bytes", bytes);
  }
  return text;
}

}  // namespace

std::unique_ptr<SampleStreamFile> SampleStreamFile::Create(std::string* error) {
  std::string pattern = TemporaryFolder() + "/" + kPrefix + "XXXXXX";
  const int fd = mkostemp(pattern.data(), O_CLOEXEC);  // not inherited: the program must not hold the lock
  if (fd < 0) {
    *error =
        "cannot create a temporary sample-stream file in " + TemporaryFolder() + " (TMPDIR): " + std::strerror(errno);
    return nullptr;
  }
  if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    *error = "cannot lock the sample-stream file " + pattern + ": " + std::strerror(errno);
    close(fd);
    unlink(pattern.c_str());
    return nullptr;
  }
  return std::unique_ptr<SampleStreamFile>(new SampleStreamFile(pattern, fd));
}

SampleStreamFile::~SampleStreamFile() {
  if (!kept_) unlink(path_.c_str());
  close(lock_fd_);
}

std::string SampleStreamFile::Keep() {
  if (kept_) return path_;
  const std::string kept = path_ + kKeptExtension;
  if (rename(path_.c_str(), kept.c_str()) == 0) path_ = kept;
  kept_ = true;
  return path_;
}

std::vector<std::string> KeepLeftoverStreams() {
  std::vector<std::string> found;
  const std::string folder = TemporaryFolder();
  DIR* directory = opendir(folder.c_str());
  if (directory == nullptr) return found;
  const std::size_t prefix_length = sizeof kPrefix - 1;
  while (const dirent* entry = readdir(directory)) {
    const std::string name = entry->d_name;
    // Exactly opengpa-samples-XXXXXX: kept streams (.jsonl) were named already.
    if (name.size() != prefix_length + kSuffixLength || name.compare(0, prefix_length, kPrefix) != 0) continue;
    std::string path = folder;
    path.append("/").append(name);
    struct stat file {};
    if (lstat(path.c_str(), &file) != 0 || !S_ISREG(file.st_mode) || file.st_uid != geteuid()) continue;
    // An empty stream holds nothing, and a new one is empty for the instant between its creation and its
    // lock: never taken for a leftover (one a minute old is a dead run's that collected nothing: removed).
    if (file.st_size == 0) {
      const int fd =
          file.st_mtime + 60 < std::time(nullptr) ? open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW) : -1;
      if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0) unlink(path.c_str());
      if (fd >= 0) close(fd);
      continue;
    }
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) continue;
    // The lock is held by the opengpa that made the stream for as long as it lives (even a stopped one);
    // the kernel drops it when that process dies, however it died.
    const bool orphaned = flock(fd, LOCK_EX | LOCK_NB) == 0;
    if (orphaned) {
      const std::string kept = path + kKeptExtension;
      if (rename(path.c_str(), kept.c_str()) == 0) {
        char when[32] = "?";
        std::tm local{};
        if (localtime_r(&file.st_mtime, &local) != nullptr) {
          std::strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", &local);
        }
        found.push_back(kept + " (" + std::to_string(CountSamples(kept)) + " samples, " + Size(file.st_size) +
                        ", last written " + when + ")");
      }
    }
    close(fd);
  }
  closedir(directory);
  return found;
}

}  // namespace opengpa::cli
