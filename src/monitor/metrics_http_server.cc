#include "monitor/metrics_http_server.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "platform/logging.h"

namespace opengpa::monitor {

UniqueFd::~UniqueFd() {
  if (fd_ >= 0) close(fd_);
}

UniqueFd& UniqueFd::operator=(UniqueFd&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) close(fd_);
    fd_ = other.Release();
  }
  return *this;
}

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
                    "metrics server: listen address '{}' has host '{}', which is not an IPv4 address", text, parsed.host);
  }
  unsigned long port = 0;
  bool digits = !port_text.empty() && port_text.size() <= 5;
  for (char c : port_text) {
    if (!std::isdigit(static_cast<unsigned char>(c))) digits = false;
    else port = port * 10 + static_cast<unsigned long>(c - '0');
  }
  if (!digits || port > 65535) {
    return LogError(kGpaStatusErrorInvalidParameter, "metrics server: listen address '{}' has port '{}', not 0..65535",
                    text, port_text);
  }
  parsed.port = static_cast<uint16_t>(port);
  *address = parsed;
  return kGpaStatusOk;
}

GpaStatus MetricsHttpServer::Start(const ListenAddress& address, BodyProvider provider,
                                   std::unique_ptr<MetricsHttpServer>* server) {
  if (server == nullptr) return LogError(kGpaStatusErrorNullPointer, "metrics server: output pointer is null");
  server->reset();
  if (!provider) return LogError(kGpaStatusErrorNullPointer, "metrics server: no body provider");
  sockaddr_in socket_address{};
  socket_address.sin_family = AF_INET;
  socket_address.sin_port = htons(address.port);
  if (inet_pton(AF_INET, address.host.c_str(), &socket_address.sin_addr) != 1) {
    return LogError(kGpaStatusErrorInvalidParameter, "metrics server: host '{}' is not an IPv4 address", address.host);
  }
  UniqueFd listener(socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (listener.Get() < 0) {
    return LogError(kGpaStatusErrorFailed, "metrics server: socket() failed: {}", std::strerror(errno));
  }
  const int one = 1;
  setsockopt(listener.Get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
  if (bind(listener.Get(), reinterpret_cast<const sockaddr*>(&socket_address), sizeof(socket_address)) != 0) {
    return LogError(kGpaStatusErrorFailed, "metrics server: cannot bind {}:{}: {}", address.host, address.port,
                    std::strerror(errno));
  }
  if (listen(listener.Get(), 16) != 0) {
    return LogError(kGpaStatusErrorFailed, "metrics server: listen() failed: {}", std::strerror(errno));
  }
  socklen_t length = sizeof(socket_address);
  getsockname(listener.Get(), reinterpret_cast<sockaddr*>(&socket_address), &length);
  ListenAddress bound{address.host, ntohs(socket_address.sin_port)};

  int pipe_fds[2] = {-1, -1};
  if (pipe2(pipe_fds, O_CLOEXEC | O_NONBLOCK) != 0) {
    return LogError(kGpaStatusErrorFailed, "metrics server: pipe2() failed: {}", std::strerror(errno));
  }
  if (bound.host != "127.0.0.1") {
    Log(kGpaLoggingMessage, "metrics server: listening on {}:{}, reachable from other machines", bound.host, bound.port);
  }
  *server = std::make_unique<MetricsHttpServer>(std::move(listener), UniqueFd(pipe_fds[0]), UniqueFd(pipe_fds[1]),
                                                bound, std::move(provider));
  return kGpaStatusOk;
}

MetricsHttpServer::MetricsHttpServer(UniqueFd listener, UniqueFd wake_read, UniqueFd wake_write, ListenAddress bound,
                                     BodyProvider provider)
    : listener_(std::move(listener)),
      wake_read_(std::move(wake_read)),
      wake_write_(std::move(wake_write)),
      bound_(std::move(bound)),
      provider_(std::move(provider)) {
  thread_ = std::thread([this] { Serve(); });
}

MetricsHttpServer::~MetricsHttpServer() {
  const char byte = 1;
  while (write(wake_write_.Get(), &byte, 1) < 0 && errno == EINTR) {
  }
  thread_.join();
}

void MetricsHttpServer::Serve() {
  while (true) {
    pollfd fds[2] = {{listener_.Get(), POLLIN, 0}, {wake_read_.Get(), POLLIN, 0}};
    const int ready = poll(fds, 2, -1);
    if (ready < 0) {
      if (errno == EINTR) continue;
      Log(kGpaLoggingError, "metrics server: poll() failed: {}; no longer serving", std::strerror(errno));
      return;
    }
    if (fds[1].revents != 0) return;  // Stop
    if ((fds[0].revents & POLLIN) == 0) continue;
    UniqueFd client(accept4(listener_.Get(), nullptr, nullptr, SOCK_CLOEXEC));
    if (client.Get() < 0) continue;  // the peer gave up already, or a transient error
    Answer(client.Get());
  }
}

namespace {

bool SendAll(int fd, std::string_view data) {
  while (!data.empty()) {
    const ssize_t sent = send(fd, data.data(), data.size(), MSG_NOSIGNAL);
    if (sent < 0 && errno == EINTR) continue;
    if (sent <= 0) return false;
    data.remove_prefix(static_cast<size_t>(sent));
  }
  return true;
}

void SendResponse(int fd, std::string_view status, std::string_view content_type, std::string_view body,
                  bool include_body, std::string_view extra_headers = {}) {
  std::string response = fmt::format(
      "HTTP/1.1 {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nConnection: close\r\n{}\r\n", status, content_type,
      body.size(), extra_headers);
  if (include_body) response += body;
  SendAll(fd, response);
}

std::string Lowercase(std::string_view text) {
  std::string lower(text);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower;
}

// The value of header `name` (lower case) in the header block, or empty.
std::string HeaderValue(std::string_view headers, std::string_view name) {
  size_t line_start = 0;
  while (line_start < headers.size()) {
    size_t line_end = headers.find('\n', line_start);
    if (line_end == std::string_view::npos) line_end = headers.size();
    std::string_view line = headers.substr(line_start, line_end - line_start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const size_t colon = line.find(':');
    if (colon != std::string_view::npos && Lowercase(line.substr(0, colon)) == name) {
      std::string_view value = line.substr(colon + 1);
      while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
      return std::string(value);
    }
    line_start = line_end + 1;
  }
  return {};
}

}  // namespace

void MetricsHttpServer::Answer(int client) {
  // A stalled client must not stop the next scrape for long.
  timeval timeout{2, 0};
  setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
  setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof(timeout));

  constexpr size_t kMaximumRequest = 8192;
  std::string request;
  char buffer[2048];
  size_t header_end = std::string::npos;
  while (request.size() < kMaximumRequest) {
    const ssize_t received = recv(client, buffer, sizeof(buffer), 0);
    if (received < 0 && errno == EINTR) continue;
    if (received <= 0) break;
    request.append(buffer, static_cast<size_t>(received));
    header_end = request.find("\r\n\r\n");
    if (header_end == std::string::npos) header_end = request.find("\n\n");
    if (header_end != std::string::npos) break;
  }
  constexpr std::string_view kText = "text/plain; charset=utf-8";
  if (header_end == std::string::npos) {
    if (!request.empty()) SendResponse(client, "400 Bad Request", kText, "incomplete or oversized request\n", true);
    return;
  }
  const size_t line_end = request.find('\n');
  std::string_view request_line(request.data(), line_end);
  if (!request_line.empty() && request_line.back() == '\r') request_line.remove_suffix(1);
  const size_t first_space = request_line.find(' ');
  const size_t second_space =
      first_space == std::string_view::npos ? std::string_view::npos : request_line.find(' ', first_space + 1);
  if (second_space == std::string_view::npos || request_line.substr(second_space + 1).rfind("HTTP/1.", 0) != 0) {
    SendResponse(client, "400 Bad Request", kText, "malformed request line\n", true);
    return;
  }
  const std::string_view method = request_line.substr(0, first_space);
  std::string_view target = request_line.substr(first_space + 1, second_space - first_space - 1);
  if (const size_t query = target.find('?'); query != std::string_view::npos) target = target.substr(0, query);

  const bool head = method == "HEAD";
  if (method != "GET" && !head) {
    SendResponse(client, "405 Method Not Allowed", kText, "only GET and HEAD\n", true, "Allow: GET, HEAD\r\n");
    return;
  }
  if (target != "/metrics") {
    SendResponse(client, "404 Not Found", kText, "metrics are at /metrics\n", !head);
    return;
  }
  const std::string accept = HeaderValue(std::string_view(request).substr(line_end + 1), "accept");
  const ExpositionFormat format = NegotiateFormat(accept);
  const std::string body = provider_(format);
  SendResponse(client, "200 OK", ContentType(format), body, !head);
  answered_.fetch_add(1);
}

}  // namespace opengpa::monitor
