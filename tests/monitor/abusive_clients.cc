#include "abusive_clients.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <string_view>

namespace opengpa::monitor::testing {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::string_view kRequestStart = "GET /metrics HTTP/1.1\r\nX-Slow: ";

}  // namespace

AbusiveClients::AbusiveClients(uint16_t port, const Counts& counts) : port_(port), counts_(counts) {
  clients_.resize(static_cast<size_t>(counts.silent + counts.trickling));
  for (int i = 0; i < counts.trickling; ++i) clients_[static_cast<size_t>(counts.silent + i)].trickling = true;
  thread_ = std::thread([this] { Run(); });
}

AbusiveClients::~AbusiveClients() {
  stop_ = true;
  thread_.join();
  for (Client& client : clients_) {
    if (client.fd >= 0) close(client.fd);
  }
}

bool AbusiveClients::WaitUntilAllConnected(std::chrono::milliseconds timeout) const {
  const auto end = Clock::now() + timeout;
  while (connected_once_.load() < static_cast<int>(clients_.size())) {
    if (Clock::now() > end) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return true;
}

// A non-blocking connect: a server whose listen queue is full must not stall the other clients.
bool AbusiveClients::Reconnect(Client* client) {
  if (reconnects_ >= counts_.max_reconnects) return false;
  ++reconnects_;
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port_);
  inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
  if (connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 && errno != EINPROGRESS) {
    close(fd);
    return false;
  }
  client->fd = fd;
  client->next_byte = Clock::now();
  // A trickling client starts its request at once, then adds a byte per interval.
  if (client->trickling) {
    const ssize_t sent = send(fd, kRequestStart.data(), kRequestStart.size(), MSG_NOSIGNAL);
    (void)sent;  // EAGAIN while connecting: the next bytes still trickle, the request is malformed either way
    client->next_byte += counts_.trickle_interval;
  }
  ++open_;
  return true;
}

void AbusiveClients::Run() {
  bool first_round = true;
  std::vector<pollfd> polled;
  std::vector<size_t> which;
  while (!stop_) {
    for (Client& client : clients_) {
      if (client.fd < 0 && Reconnect(&client) && first_round) ++connected_once_;
    }
    first_round = false;
    polled.clear();
    which.clear();
    auto wake = Clock::now() + std::chrono::milliseconds(20);
    for (size_t i = 0; i < clients_.size(); ++i) {
      if (clients_[i].fd < 0) continue;
      polled.push_back({clients_[i].fd, POLLIN, 0});
      which.push_back(i);
      if (clients_[i].trickling) wake = std::min(wake, clients_[i].next_byte);
    }
    const auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(wake - Clock::now()).count();
    poll(polled.data(), polled.size(), static_cast<int>(std::max<long long>(0, wait)));
    const auto now = Clock::now();
    for (size_t p = 0; p < polled.size(); ++p) {
      Client& client = clients_[which[p]];
      bool closed = false;
      if (polled[p].revents & (POLLIN | POLLHUP | POLLERR)) {
        char buffer[512];
        const ssize_t received = recv(client.fd, buffer, sizeof buffer, MSG_DONTWAIT);
        closed = received == 0 || (received < 0 && errno != EAGAIN && errno != EWOULDBLOCK);
      }
      if (!closed && client.trickling && now >= client.next_byte) {
        const ssize_t sent = send(client.fd, "a", 1, MSG_NOSIGNAL | MSG_DONTWAIT);
        closed = sent < 0 && errno != EAGAIN && errno != EWOULDBLOCK;
        client.next_byte = now + counts_.trickle_interval;
      }
      if (closed) {
        close(client.fd);
        client.fd = -1;
        --open_;
        ++closed_by_server_;
      }
    }
  }
}

}  // namespace opengpa::monitor::testing
