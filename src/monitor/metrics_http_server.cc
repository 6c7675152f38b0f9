#include "monitor/metrics_http_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <exception>
#include <map>
#include <set>
#include <thread>
#include <unordered_map>
#include <utility>

#include "monitor/http_request.h"
#include "platform/logging.h"

namespace opengpa::monitor {

GpaStatus ParseListenAddress(std::string_view text, ListenAddress* address) {
  if (address == nullptr) return LogError(kGpaStatusErrorNullPointer, "metrics server: address output is null");
  ListenAddress parsed;
  std::string_view port_text = text;
  const size_t colon = text.rfind(':');
  if (colon != std::string_view::npos) {
    const std::string_view host = text.substr(0, colon);
    if (!host.empty()) parsed.host = host == "localhost" ? "127.0.0.1" : std::string(host);
    port_text = text.substr(colon + 1);
  }
  in_addr ignored{};
  if (inet_pton(AF_INET, parsed.host.c_str(), &ignored) != 1) {
    return LogError(kGpaStatusErrorInvalidParameter,
                    "metrics server: listen address '{}' has host '{}', which is not an IPv4 address", text,
                    parsed.host);
  }
  unsigned long port = 0;
  bool digits = !port_text.empty() && port_text.size() <= 5;
  for (char c : port_text) {
    if (!std::isdigit(static_cast<unsigned char>(c))) {
      digits = false;
    } else {
      port = port * 10 + static_cast<unsigned long>(c - '0');
    }
  }
  if (!digits || port > 65535) {
    return LogError(kGpaStatusErrorInvalidParameter, "metrics server: listen address '{}' has port '{}', not 0..65535",
                    text, port_text);
  }
  parsed.port = static_cast<uint16_t>(port);
  *address = parsed;
  return kGpaStatusOk;
}

namespace {

using Clock = std::chrono::steady_clock;

// A closing connection is given this long to read the end of its answer and close its side, so that
// bytes it sent after its request do not make the kernel reset the connection under the answer.
constexpr std::chrono::milliseconds kLingerOnClose{500};
// After accept(2) fails for lack of descriptors, the listening socket rests this long.
constexpr std::chrono::milliseconds kAcceptPause{100};

std::chrono::milliseconds Ms(int value) { return std::chrono::milliseconds(value); }

// An atomic counter the loop thread writes and any thread reads.
struct Counter {
  std::atomic<uint64_t> value{0};
  void Add(uint64_t n = 1) { value.fetch_add(n, std::memory_order_relaxed); }
  uint64_t Get() const { return value.load(std::memory_order_relaxed); }
};

}  // namespace

// Everything the server does happens on one thread that waits in epoll_wait for the listening socket, the
// connections and the nearest deadline. A connection is in one phase at a time, each with its deadline:
//   kSilent     accepted, nothing received yet          (accept + first_byte_ms)
//   kReading    part of the request head received      (accept + request_deadline_ms)
//   kAnswering  the answer is being sent                (answer + answer_deadline_ms)
//   kClosing    answer sent, write side shut, waiting for the client to close (kLingerOnClose)
// Silent and reading connections are "unfinished": the ones a cap may close to admit a newer connection.
class MetricsHttpServer::EventLoop {
 public:
  EventLoop(const ServerLimits& limits, BodyProvider provider) : limits_(limits), provider_(std::move(provider)) {}
  ~EventLoop();
  EventLoop(const EventLoop&) = delete;
  EventLoop& operator=(const EventLoop&) = delete;

  // Binds, listens and starts the thread. On failure *error says why (errno text).
  bool Start(const ListenAddress& address, uint16_t* bound_port, std::string* error);
  ServerStats Stats() const;
  uint64_t Answered() const { return answered_.Get(); }

 private:
  enum class Phase { kSilent, kReading, kAnswering, kClosing };
  struct Connection {
    int fd = -1;
    std::string client;  // the peer's address: what the per-client cap counts
    Clock::time_point accepted;
    Clock::time_point deadline;
    Phase phase = Phase::kSilent;
    std::string in;
    std::string out;
    size_t sent = 0;
  };

  void Run();
  void AcceptAll(Clock::time_point now);
  bool EvictOldestUnfinished();
  void Read(Connection& connection, Clock::time_point now);
  void Write(Connection& connection, Clock::time_point now);
  void Answer(Connection& connection, Clock::time_point now);
  void SetPhase(Connection& connection, Phase phase, Clock::time_point deadline);
  // Closes a connection; `why`, when given, is the count it adds to.
  void Close(int fd, Counter* why = nullptr);
  void ExpireDeadlines(Clock::time_point now);
  bool Unfinished(const Connection& connection) const {
    return connection.phase == Phase::kSilent || connection.phase == Phase::kReading;
  }

  ServerLimits limits_;
  BodyProvider provider_;
  int listen_fd_ = -1;
  int epoll_fd_ = -1;
  int wake_fd_ = -1;
  bool accept_paused_ = false;
  Clock::time_point accept_resumes_;
  std::thread thread_;

  std::unordered_map<int, Connection> connections_;
  std::set<std::pair<Clock::time_point, int>> deadlines_;  // (deadline, fd) of every connection
  // Unfinished connections by client, oldest first: (accepted, fd).
  std::map<std::string, std::set<std::pair<Clock::time_point, int>>> unfinished_;
  std::map<std::string, int> open_by_client_;

  Counter accepted_, answered_, refused_, cut_silent_, cut_unfinished_, cut_not_reading_, evicted_, turned_away_, open_,
      peak_open_;
};

bool MetricsHttpServer::EventLoop::Start(const ListenAddress& address, uint16_t* bound_port, std::string* error) {
  auto fail = [&](const char* what) {
    *error = std::string(what) + ": " + std::strerror(errno);
    return false;
  };
  // Leave descriptors for the rest of the process: at most half the soft limit, less 16, for connections.
  rlimit files{};
  if (getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur != RLIM_INFINITY) {
    const auto fitting = static_cast<long long>(files.rlim_cur) / 2 - 16;
    limits_.max_connections =
        static_cast<int>(std::max<long long>(1, std::min<long long>(limits_.max_connections, fitting)));
  }
  listen_fd_ = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (listen_fd_ < 0) return fail("socket");
  const int on = 1;
  setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);  // a restart need not wait for TIME_WAIT
  sockaddr_in socket_address{};
  socket_address.sin_family = AF_INET;
  socket_address.sin_port = htons(address.port);
  inet_pton(AF_INET, address.host.c_str(), &socket_address.sin_addr);
  if (bind(listen_fd_, reinterpret_cast<sockaddr*>(&socket_address), sizeof socket_address) != 0) return fail("bind");
  if (listen(listen_fd_, limits_.listen_backlog) != 0) return fail("listen");
  socklen_t length = sizeof socket_address;
  if (getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&socket_address), &length) != 0) return fail("getsockname");
  *bound_port = ntohs(socket_address.sin_port);
  epoll_fd_ = epoll_create1(EPOLL_CLOEXEC);
  if (epoll_fd_ < 0) return fail("epoll_create1");
  wake_fd_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (wake_fd_ < 0) return fail("eventfd");
  epoll_event event{};
  event.events = EPOLLIN;
  event.data.fd = listen_fd_;
  if (epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, listen_fd_, &event) != 0) return fail("epoll_ctl");
  event.data.fd = wake_fd_;
  if (epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, wake_fd_, &event) != 0) return fail("epoll_ctl");
  thread_ = std::thread([this] { Run(); });
  return true;
}

MetricsHttpServer::EventLoop::~EventLoop() {
  if (thread_.joinable()) {
    const uint64_t one = 1;
    const ssize_t written = write(wake_fd_, &one, sizeof one);
    (void)written;  // an eventfd write of 1 cannot fail short of overflow
    thread_.join();
  }
  for (const auto& [fd, connection] : connections_) close(fd);
  for (int fd : {listen_fd_, epoll_fd_, wake_fd_}) {
    if (fd >= 0) close(fd);
  }
}

ServerStats MetricsHttpServer::EventLoop::Stats() const {
  ServerStats stats;
  stats.accepted = accepted_.Get();
  stats.answered = answered_.Get();
  stats.refused = refused_.Get();
  stats.cut_silent = cut_silent_.Get();
  stats.cut_unfinished = cut_unfinished_.Get();
  stats.cut_not_reading = cut_not_reading_.Get();
  stats.evicted = evicted_.Get();
  stats.turned_away = turned_away_.Get();
  stats.open = open_.Get();
  stats.peak_open = peak_open_.Get();
  return stats;
}

void MetricsHttpServer::EventLoop::Run() {
  epoll_event events[64];
  for (;;) {
    int timeout_ms = -1;
    Clock::time_point next = Clock::time_point::max();
    if (!deadlines_.empty()) next = deadlines_.begin()->first;
    if (accept_paused_) next = std::min(next, accept_resumes_);
    if (next != Clock::time_point::max()) {
      const auto wait = std::chrono::ceil<std::chrono::milliseconds>(next - Clock::now()).count();
      timeout_ms = static_cast<int>(std::clamp<long long>(wait, 0, 60000));
    }
    const int ready = epoll_wait(epoll_fd_, events, 64, timeout_ms);
    if (ready < 0 && errno != EINTR) {
      Log(kGpaLoggingError, "metrics server: epoll_wait failed ({}); the endpoint stops", std::strerror(errno));
      return;
    }
    const Clock::time_point now = Clock::now();
    for (int i = 0; i < ready; ++i) {
      const int fd = events[i].data.fd;
      if (fd == wake_fd_) return;
      if (fd == listen_fd_) {
        AcceptAll(now);
        continue;
      }
      auto found = connections_.find(fd);
      if (found == connections_.end()) continue;  // closed by an earlier event of this round
      Connection& connection = found->second;
      if (connection.phase == Phase::kAnswering) {
        if (events[i].events & (EPOLLOUT | EPOLLERR | EPOLLHUP)) Write(connection, now);
      } else {
        Read(connection, now);
      }
    }
    if (accept_paused_ && now >= accept_resumes_) {
      epoll_event event{};
      event.events = EPOLLIN;
      event.data.fd = listen_fd_;
      epoll_ctl(epoll_fd_, EPOLL_CTL_MOD, listen_fd_, &event);
      accept_paused_ = false;
    }
    ExpireDeadlines(now);
  }
}

void MetricsHttpServer::EventLoop::AcceptAll(Clock::time_point now) {
  bool evicted_for_descriptors = false;
  for (;;) {
    sockaddr_in peer{};
    socklen_t length = sizeof peer;
    const int fd = accept4(listen_fd_, reinterpret_cast<sockaddr*>(&peer), &length, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno == EINTR || errno == ECONNABORTED) continue;
      if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
        // Out of descriptors or memory: make room once if an unfinished connection can go, else rest a
        // moment rather than spin on a listening socket that stays readable.
        if (!evicted_for_descriptors && EvictOldestUnfinished()) {
          evicted_for_descriptors = true;
          continue;
        }
        epoll_event event{};
        event.data.fd = listen_fd_;
        epoll_ctl(epoll_fd_, EPOLL_CTL_MOD, listen_fd_, &event);
        accept_paused_ = true;
        accept_resumes_ = now + kAcceptPause;
      }
      return;  // EAGAIN: all accepted
    }
    accepted_.Add();
    char text[INET_ADDRSTRLEN] = "?";
    inet_ntop(AF_INET, &peer.sin_addr, text, sizeof text);
    std::string client = text;
    if (static_cast<int>(connections_.size()) >= limits_.max_connections && !EvictOldestUnfinished()) {
      turned_away_.Add();
      close(fd);
      continue;
    }
    Connection connection;
    connection.fd = fd;
    connection.client = client;
    connection.accepted = now;
    epoll_event event{};
    event.events = EPOLLIN | EPOLLRDHUP;
    event.data.fd = fd;
    if (epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, fd, &event) != 0) {
      close(fd);
      continue;
    }
    unfinished_[client].insert({now, fd});
    ++open_by_client_[client];
    auto& added = connections_[fd] = std::move(connection);
    SetPhase(added, Phase::kSilent, now + Ms(limits_.first_byte_ms));
    open_.Add();
    if (open_.Get() > peak_open_.Get()) peak_open_.value.store(open_.Get(), std::memory_order_relaxed);
  }
}

// Closes the longest-waiting unfinished connection of the client address holding the most open connections
// (among those with an unfinished one). A request arrives within a round trip of its connection, so the
// oldest unfinished connections are the stalled ones, and a flood from one address only closes its own.
bool MetricsHttpServer::EventLoop::EvictOldestUnfinished() {
  const std::set<std::pair<Clock::time_point, int>>* candidates = nullptr;
  int most = 0;
  for (const auto& [client, waiting] : unfinished_) {
    const auto open = open_by_client_.find(client);
    if (!waiting.empty() && open != open_by_client_.end() && open->second > most) {
      most = open->second;
      candidates = &waiting;
    }
  }
  if (candidates == nullptr) return false;
  Close(candidates->begin()->second, &evicted_);
  return true;
}

void MetricsHttpServer::EventLoop::SetPhase(Connection& connection, Phase phase, Clock::time_point deadline) {
  if (Unfinished(connection) && !(phase == Phase::kSilent || phase == Phase::kReading)) {
    auto found = unfinished_.find(connection.client);
    if (found != unfinished_.end()) {
      found->second.erase({connection.accepted, connection.fd});
      if (found->second.empty()) unfinished_.erase(found);
    }
  }
  deadlines_.erase({connection.deadline, connection.fd});
  connection.phase = phase;
  connection.deadline = deadline;
  deadlines_.insert({deadline, connection.fd});
}

void MetricsHttpServer::EventLoop::Close(int fd, Counter* why) {
  auto found = connections_.find(fd);
  if (found == connections_.end()) return;
  // The counts first, then the close(2): a client that sees its connection end sees them updated.
  if (why != nullptr) why->Add();
  open_.value.fetch_sub(1, std::memory_order_relaxed);
  Connection& connection = found->second;
  deadlines_.erase({connection.deadline, fd});
  if (Unfinished(connection)) {
    auto waiting = unfinished_.find(connection.client);
    if (waiting != unfinished_.end()) {
      waiting->second.erase({connection.accepted, fd});
      if (waiting->second.empty()) unfinished_.erase(waiting);
    }
  }
  auto count = open_by_client_.find(connection.client);
  if (count != open_by_client_.end() && --count->second <= 0) open_by_client_.erase(count);
  epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, fd, nullptr);
  close(fd);
  connections_.erase(found);
}

void MetricsHttpServer::EventLoop::ExpireDeadlines(Clock::time_point now) {
  while (!deadlines_.empty() && deadlines_.begin()->first <= now) {
    const int fd = deadlines_.begin()->second;
    Counter* why = nullptr;
    switch (connections_.at(fd).phase) {
      case Phase::kSilent: why = &cut_silent_; break;
      case Phase::kReading: why = &cut_unfinished_; break;
      case Phase::kAnswering: why = &cut_not_reading_; break;
      case Phase::kClosing: break;  // answered; the client just did not close first
    }
    Close(fd, why);
  }
}

void MetricsHttpServer::EventLoop::Read(Connection& connection, Clock::time_point now) {
  char buffer[4096];
  const size_t limit = static_cast<size_t>(limits_.max_request_bytes) + 1;  // one byte more tells it was exceeded
  bool end_of_input = false;
  for (;;) {
    const bool discarding = connection.phase == Phase::kClosing;
    const size_t want =
        discarding ? sizeof buffer : std::min(sizeof buffer, limit - std::min(limit, connection.in.size()));
    if (want == 0) break;
    const ssize_t received = recv(connection.fd, buffer, want, MSG_DONTWAIT);
    if (received == 0) {
      end_of_input = true;
      break;
    }
    if (received < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) break;
      Close(connection.fd);
      return;
    }
    if (discarding) continue;
    if (connection.phase == Phase::kSilent) {
      SetPhase(connection, Phase::kReading, connection.accepted + Ms(limits_.request_deadline_ms));
    }
    connection.in.append(buffer, static_cast<size_t>(received));
  }
  const int fd = connection.fd;
  // A client may close its side right after its request (shutdown(SHUT_WR)): it is still answered.
  if (connection.phase == Phase::kReading) Answer(connection, now);
  if (!end_of_input) return;
  auto still = connections_.find(fd);
  if (still != connections_.end() && still->second.phase != Phase::kAnswering) Close(fd);
}

// Answers the request once its head is whole (or can never be): the connection then only sends.
void MetricsHttpServer::EventLoop::Answer(Connection& connection, Clock::time_point now) {
  constexpr std::string_view kText = "text/plain; charset=utf-8";
  HttpRequestHead head;
  const HeadParse parse = ParseRequestHead(connection.in, static_cast<size_t>(limits_.max_request_bytes), &head);
  if (parse == HeadParse::kIncomplete) return;
  std::string answer;
  bool served = false;
  switch (parse) {
    case HeadParse::kMalformed:
    case HeadParse::kTooLarge: answer = HttpAnswer(400, 0, kText, "malformed or oversized request\n", true); break;
    case HeadParse::kVersionUnsupported:
      answer = HttpAnswer(505, 1, kText, "HTTP/1.0 and HTTP/1.1 only\n", true);
      break;
    case HeadParse::kIncomplete:
    case HeadParse::kComplete: {
      const bool include_body = head.method != "HEAD";
      const std::string_view path = std::string_view(head.target).substr(0, head.target.find('?'));
      if (head.method != "GET" && head.method != "HEAD") {
        answer = HttpAnswer(405, head.minor_version, kText, "only GET and HEAD\n", true, "GET, HEAD");
      } else if (path != "/metrics") {
        answer = HttpAnswer(404, head.minor_version, kText, "metrics are at /metrics\n", include_body);
      } else {
        const ExpositionFormat format = NegotiateFormat(head.accept);
        try {
          answer = HttpAnswer(200, head.minor_version, ContentType(format), provider_(format), include_body);
          served = true;
        } catch (const std::exception& e) {
          Log(kGpaLoggingError, "metrics server: cannot format the metrics: {}", e.what());
          answer = HttpAnswer(500, head.minor_version, kText, "cannot format the metrics\n", include_body);
        }
      }
      break;
    }
  }
  (served ? answered_ : refused_).Add();
  connection.in.clear();
  connection.in.shrink_to_fit();
  connection.out = std::move(answer);
  connection.sent = 0;
  SetPhase(connection, Phase::kAnswering, now + Ms(limits_.answer_deadline_ms));
  epoll_event event{};
  event.events = EPOLLOUT;
  event.data.fd = connection.fd;
  epoll_ctl(epoll_fd_, EPOLL_CTL_MOD, connection.fd, &event);
  Write(connection, now);
}

void MetricsHttpServer::EventLoop::Write(Connection& connection, Clock::time_point now) {
  while (connection.sent < connection.out.size()) {
    const ssize_t sent = send(connection.fd, connection.out.data() + connection.sent,
                              connection.out.size() - connection.sent, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (sent < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) return;  // EPOLLOUT says when there is room
      Close(connection.fd);
      return;
    }
    connection.sent += static_cast<size_t>(sent);
  }
  // All sent: close our side and wait briefly for the client to close its own (see kLingerOnClose).
  connection.out.clear();
  connection.out.shrink_to_fit();
  shutdown(connection.fd, SHUT_WR);
  SetPhase(connection, Phase::kClosing, now + kLingerOnClose);
  epoll_event event{};
  event.events = EPOLLIN | EPOLLRDHUP;
  event.data.fd = connection.fd;
  epoll_ctl(epoll_fd_, EPOLL_CTL_MOD, connection.fd, &event);
}

MetricsHttpServer::MetricsHttpServer(std::unique_ptr<EventLoop> loop) : loop_(std::move(loop)) {}

MetricsHttpServer::~MetricsHttpServer() = default;

uint64_t MetricsHttpServer::AnsweredRequests() const { return loop_->Answered(); }

ServerStats MetricsHttpServer::Stats() const { return loop_->Stats(); }

GpaStatus MetricsHttpServer::Start(const ListenAddress& address, BodyProvider provider,
                                   std::unique_ptr<MetricsHttpServer>* server) {
  return Start(address, ServerLimits{}, std::move(provider), server);
}

GpaStatus MetricsHttpServer::Start(const ListenAddress& address, const ServerLimits& limits, BodyProvider provider,
                                   std::unique_ptr<MetricsHttpServer>* server) {
  if (server == nullptr) return LogError(kGpaStatusErrorNullPointer, "metrics server: output pointer is null");
  server->reset();
  if (!provider) return LogError(kGpaStatusErrorNullPointer, "metrics server: no body provider");
  in_addr ignored{};
  if (inet_pton(AF_INET, address.host.c_str(), &ignored) != 1) {
    return LogError(kGpaStatusErrorInvalidParameter, "metrics server: host '{}' is not an IPv4 address", address.host);
  }
  if (limits.max_connections < 1 || limits.first_byte_ms < 1 || limits.request_deadline_ms < 1 ||
      limits.answer_deadline_ms < 1 || limits.max_request_bytes < 64 || limits.listen_backlog < 1) {
    return LogError(kGpaStatusErrorInvalidParameter,
                    "metrics server: every limit must be at least 1 (max_request_bytes at least 64)");
  }
  auto loop = std::make_unique<EventLoop>(limits, std::move(provider));
  uint16_t port = 0;
  std::string error;
  if (!loop->Start(address, &port, &error)) {
    return LogError(kGpaStatusErrorFailed, "metrics server: cannot serve on {}:{}: {}", address.host, address.port,
                    error);
  }
  std::unique_ptr<MetricsHttpServer> started(new MetricsHttpServer(std::move(loop)));
  started->bound_ = {address.host, port};
  if (address.host != "127.0.0.1") {
    Log(kGpaLoggingMessage, "metrics server: listening on {}:{}, reachable from other machines", address.host, port);
  }
  *server = std::move(started);
  return kGpaStatusOk;
}

}  // namespace opengpa::monitor
