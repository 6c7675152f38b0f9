#include "profiler/stream_status.h"

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace opengpa::profiling {
namespace {

// An abstract socket address: sun_path starts with NUL, then the name (not NUL-terminated).
socklen_t AbstractAddress(const std::string& name, sockaddr_un* address) {
  *address = {};
  address->sun_family = AF_UNIX;
  const std::size_t length = std::min(name.size(), sizeof address->sun_path - 1);
  std::memcpy(address->sun_path + 1, name.data(), length);
  return static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + length);
}

}  // namespace

StreamStatusSender StreamStatusSender::FromEnvironment() {
  StreamStatusSender sender;
  const char* name = std::getenv(kStatusVariable);
  if (name != nullptr) sender.name_ = name;
  return sender;
}

void StreamStatusSender::Report(std::uint32_t pid, const StreamWriteFailure& failure) const {
  if (name_.empty()) return;
  const int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) return;
  sockaddr_un address;
  const socklen_t length = AbstractAddress(name_, &address);
  char text[64];
  const int size = std::snprintf(text, sizeof text, "%u %d %llu", pid, failure.error_number,
                                 static_cast<unsigned long long>(failure.records_lost));
  if (size > 0) {
    const ssize_t sent =
        sendto(fd, text, static_cast<std::size_t>(size), MSG_NOSIGNAL, reinterpret_cast<sockaddr*>(&address), length);
    (void)sent;  // nobody listening (the CLI is gone): nothing else to tell
  }
  close(fd);
}

StreamStatusReceiver::~StreamStatusReceiver() {
  if (fd_ >= 0) close(fd_);
}

bool StreamStatusReceiver::Open(std::string* error) {
  fd_ = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd_ < 0) {
    *error = std::string("cannot create the sample-stream status socket: ") + std::strerror(errno);
    return false;
  }
  const int on = 1;
  setsockopt(fd_, SOL_SOCKET, SO_PASSCRED, &on, sizeof on);  // the sender's uid, checked in Drain
  // Autobind: binding only the family makes the kernel pick a unique abstract name.
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  if (bind(fd_, reinterpret_cast<sockaddr*>(&address), sizeof(sa_family_t)) != 0) {
    *error = std::string("cannot bind the sample-stream status socket: ") + std::strerror(errno);
    return false;
  }
  socklen_t length = sizeof address;
  if (getsockname(fd_, reinterpret_cast<sockaddr*>(&address), &length) != 0 ||
      length <= static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1) || address.sun_path[0] != '\0') {
    *error = "cannot name the sample-stream status socket";
    return false;
  }
  name_.assign(address.sun_path + 1, length - offsetof(sockaddr_un, sun_path) - 1);
  return true;
}

void StreamStatusReceiver::Drain() {
  if (fd_ < 0) return;
  for (;;) {
    char text[128];
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(ucred))];
    iovec data{text, sizeof text - 1};
    msghdr message{};
    message.msg_iov = &data;
    message.msg_iovlen = 1;
    message.msg_control = control;
    message.msg_controllen = sizeof control;
    const ssize_t received = recvmsg(fd_, &message, MSG_DONTWAIT);
    if (received < 0 && errno == EINTR) continue;
    if (received < 0) return;  // EAGAIN: all read
    const cmsghdr* header = CMSG_FIRSTHDR(&message);
    ucred credentials{};
    if (header == nullptr || header->cmsg_type != SCM_CREDENTIALS) continue;
    std::memcpy(&credentials, CMSG_DATA(header), sizeof credentials);
    if (credentials.uid != getuid() && credentials.uid != geteuid()) continue;  // another user's: ignored
    text[received] = '\0';
    unsigned pid = 0;
    int error_number = 0;
    unsigned long long lost = 0;
    if (std::sscanf(text, "%u %d %llu", &pid, &error_number, &lost) != 3 || error_number <= 0) continue;
    StreamWriteFailure& failure = failures_[pid];
    if (failure.error_number == 0) failure.error_number = error_number;
    if (lost > failure.records_lost) failure.records_lost = lost;
  }
}

}  // namespace opengpa::profiling
