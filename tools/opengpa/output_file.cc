#include "output_file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace opengpa::cli {
namespace {

std::string Folder(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

}  // namespace

bool CheckOutputPath(const std::string& option, const std::string& path, bool force, std::string* error) {
  if (path.empty() || path == "-") return true;
  const std::string named = option + " " + path + ": ";
  struct stat file {};
  if (stat(path.c_str(), &file) == 0) {
    if (S_ISDIR(file.st_mode)) {
      *error = named + "is a directory";
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
    return true;
  }
  const std::string folder = Folder(path);
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

OutputFile::OutputFile(const std::string& option, const std::string& path, bool force, std::string* error)
    : option_(option), path_(path) {
  if (path.empty() || path == "-") return;
  if (!CheckOutputPath(option, path, force, error)) {
    failed_ = true;
    return;
  }
  errno = 0;
  file_ = std::make_unique<std::ofstream>(path, std::ios::binary | std::ios::trunc);
  if (!*file_) {
    *error = option + " " + path + ": " + (errno ? std::strerror(errno) : "cannot open");
    failed_ = true;
  }
}

std::ostream* OutputFile::Stream() {
  if (failed_) return nullptr;
  return file_ ? static_cast<std::ostream*>(file_.get()) : &std::cout;
}

bool OutputFile::Finish(std::string* error) {
  if (failed_) return false;
  errno = 0;
  if (!file_) {
    std::cout.flush();
    if (!std::cout) {
      *error = std::string("stdout: ") + (errno ? std::strerror(errno) : "write error");
      return false;
    }
    return true;
  }
  file_->flush();
  const bool flushed = static_cast<bool>(*file_);
  const int flush_errno = errno;
  file_->close();
  if (!flushed || !*file_) {
    const int reason = flush_errno ? flush_errno : errno;
    *error = option_ + " " + path_ + ": " + (reason ? std::strerror(reason) : "write error");
    return false;
  }
  return true;
}

}  // namespace opengpa::cli
