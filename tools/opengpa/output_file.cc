#include "output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <streambuf>

#include "name_matching.h"

namespace opengpa::cli {
namespace {

std::string Folder(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

// Where the file really goes: a symbolic link's target (so --force replaces the file it names, not the link).
std::string WriteTarget(const std::string& path) {
  struct stat link {};
  if (lstat(path.c_str(), &link) != 0 || !S_ISLNK(link.st_mode)) return path;
  char resolved[PATH_MAX];
  return realpath(path.c_str(), resolved) != nullptr ? std::string(resolved) : path;
}

bool IsNullDevice(const struct stat& file) {
  struct stat null_device {};
  return S_ISCHR(file.st_mode) && stat("/dev/null", &null_device) == 0 && S_ISCHR(null_device.st_mode) &&
         file.st_rdev == null_device.st_rdev;
}

std::string Base(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

bool CheckOutputPath(const std::string& option, const std::string& path, bool force, std::string* error) {
  if (path.empty() || path == "-") return true;
  const std::string named = option + " " + Quoted(path, 200) + ": ";
  struct stat file {};
  if (stat(path.c_str(), &file) == 0) {
    if (S_ISDIR(file.st_mode)) {
      *error = named + "is a directory";
      return false;
    }
    // A disk, a terminal, /dev/full: never an output (a root user's `-o /dev/sda` would overwrite a disk).
    // /dev/null, which discards, is the one device taken; leave -o out to print on the terminal.
    if ((S_ISCHR(file.st_mode) || S_ISBLK(file.st_mode)) && !IsNullDevice(file)) {
      *error = named + "is a device, not a file (leave -o out to print on the terminal)";
      return false;
    }
    if (S_ISREG(file.st_mode) && !force) {
      *error = named + "the file exists (use -f/--force to overwrite it)";
      return false;
    }
    if (access(path.c_str(), W_OK) != 0) {
      *error = named + std::strerror(errno);
      return false;
    }
    if (!S_ISREG(file.st_mode)) return true;  // a device or FIFO: written in place
    // A regular file is replaced by renaming a new one over it: its folder must take a new file.
  }
  const std::string folder = Folder(WriteTarget(path));
  if (char resolved[PATH_MAX]; realpath(folder.c_str(), resolved) != nullptr && std::string(resolved) == "/dev") {
    *error = named + "/dev holds device files, not outputs";
    return false;
  }
  struct stat directory {};
  if (stat(folder.c_str(), &directory) != 0) {
    *error = named + "folder " + folder + ": " + std::strerror(errno);
    return false;
  }
  if (!S_ISDIR(directory.st_mode)) {
    *error = named + folder + " is not a directory";
    return false;
  }
  if (access(folder.c_str(), W_OK | X_OK) != 0) {
    *error = named + "folder " + folder + ": " + std::strerror(errno);
    return false;
  }
  return true;
}

// A stream buffer over a file descriptor that keeps the first write error (errno), so the message can say
// what the system said rather than "write error".
class OutputFile::FdBuffer : public std::streambuf {
 public:
  explicit FdBuffer(int fd) : fd_(fd) { setp(buffer_.data(), buffer_.data() + buffer_.size()); }
  ~FdBuffer() override {
    if (fd_ >= 0) close(fd_);
  }
  FdBuffer(const FdBuffer&) = delete;
  FdBuffer& operator=(const FdBuffer&) = delete;

  int Error() const { return error_; }
  // Writes what is buffered, then syncs and closes; the first errno of any step, or 0.
  int Close(bool sync_to_disk) {
    Drain();
    if (error_ == 0 && sync_to_disk && fsync(fd_) != 0 && errno != EINVAL) error_ = errno;  // EINVAL: not syncable
    if (close(fd_) != 0 && error_ == 0) error_ = errno;
    fd_ = -1;
    return error_;
  }

 protected:
  int_type overflow(int_type c) override {
    if (!Drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  int sync() override { return Drain() ? 0 : -1; }

 private:
  bool Drain() {
    for (char* next = pbase(); next < pptr();) {
      if (error_ != 0) break;
      const ssize_t written = write(fd_, next, static_cast<size_t>(pptr() - next));
      if (written < 0 && errno == EINTR) continue;
      if (written <= 0) {
        error_ = written < 0 ? errno : EIO;
        break;
      }
      next += written;
    }
    setp(buffer_.data(), buffer_.data() + buffer_.size());
    return error_ == 0;
  }

  int fd_;
  int error_ = 0;
  std::array<char, 1 << 16> buffer_;
};

OutputFile::OutputFile(const std::string& option, const std::string& path, bool force, std::string* error)
    : option_(option), path_(path) {
  if (path.empty() || path == "-") return;
  failed_ = true;
  if (!CheckOutputPath(option, path, force, error)) return;
  final_path_ = WriteTarget(path);
  struct stat existing {};
  const bool exists = stat(final_path_.c_str(), &existing) == 0;
  int fd = -1;
  if (exists && !S_ISREG(existing.st_mode)) {
    fd = open(final_path_.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);  // /dev/null, /dev/full, a FIFO: in place
  } else {
    std::string pattern = Folder(final_path_) + "/." + Base(final_path_) + ".opengpa-XXXXXX";
    fd = mkostemp(pattern.data(), O_CLOEXEC);
    if (fd >= 0) {
      temporary_ = pattern;
      replacing_ = exists;
      // The permissions a new file gets (0666 less the umask), or those of the file it replaces.
      mode_t mode = 0;
      if (exists) {
        mode = existing.st_mode & 07777;
      } else {
        const mode_t mask = umask(0);
        umask(mask);
        mode = 0666 & ~mask;
      }
      fchmod(fd, mode);
    }
  }
  if (fd < 0) {
    *error = option + " " + path + ": " + std::strerror(errno);
    return;
  }
  buffer_ = std::make_unique<FdBuffer>(fd);
  stream_ = std::make_unique<std::ostream>(buffer_.get());
  failed_ = false;
}

OutputFile::~OutputFile() {
  stream_.reset();
  buffer_.reset();
  if (!temporary_.empty()) unlink(temporary_.c_str());
}

std::ostream* OutputFile::Stream() {
  if (failed_) return nullptr;
  return stream_ ? stream_.get() : &std::cout;
}

bool OutputFile::Finish(std::string* error) {
  if (failed_) return false;
  errno = 0;
  if (!buffer_) {
    std::cout.flush();
    if (!std::cout) {
      *error = std::string("stdout: ") + (errno ? std::strerror(errno) : "write error");
      return false;
    }
    return true;
  }
  stream_->flush();
  int reason = buffer_->Close(!temporary_.empty());
  if (reason == 0 && !temporary_.empty() && rename(temporary_.c_str(), final_path_.c_str()) != 0) reason = errno;
  failed_ = true;  // finished either way: no second Finish
  if (reason != 0) {
    *error = option_ + " " + path_ + ": " + std::strerror(reason);
    if (!temporary_.empty()) *error += replacing_ ? " (the existing file is unchanged)" : " (no file was left there)";
    return false;  // the destructor removes the temporary file
  }
  temporary_.clear();
  return true;
}

}  // namespace opengpa::cli
