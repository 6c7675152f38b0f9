#include "monitor/metrics_http_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "abusive_clients.h"
#include "exposition_parser.h"
#include "log_capture.h"

namespace opengpa::monitor {
namespace {

// A socket closed when the object goes.
class UniqueFd {
 public:
  explicit UniqueFd(int fd) : fd_(fd) {}
  ~UniqueFd() {
    if (fd_ >= 0) close(fd_);
  }
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  int Get() const { return fd_; }

 private:
  int fd_;
};

// Sends `request` to 127.0.0.1:port and returns everything the server answers (it closes after one).
// Bounded: a 3-second socket timeout, so a broken server fails the test instead of hanging it.
std::string Exchange(uint16_t port, const std::string& request, bool* connected = nullptr) {
  UniqueFd fd(socket(AF_INET, SOCK_STREAM, 0));
  timeval timeout{3, 0};
  setsockopt(fd.Get(), SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
  const bool ok = connect(fd.Get(), reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0;
  if (connected != nullptr) *connected = ok;
  if (!ok) return {};
  send(fd.Get(), request.data(), request.size(), MSG_NOSIGNAL);
  std::string response;
  char buffer[4096];
  for (int reads = 0; reads < 10000; ++reads) {
    const ssize_t received = recv(fd.Get(), buffer, sizeof(buffer), 0);
    if (received <= 0) break;
    response.append(buffer, static_cast<size_t>(received));
  }
  return response;
}

// A connected socket to 127.0.0.1:port with 3-second timeouts, or -1.
int Connect(uint16_t port) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  timeval timeout{3, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof(timeout));
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
  if (connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

std::string Body(const std::string& response) {
  const size_t end = response.find("\r\n\r\n");
  return end == std::string::npos ? std::string() : response.substr(end + 4);
}

std::string StatusLine(const std::string& response) { return response.substr(0, response.find("\r\n")); }

// The body the tests serve: one gauge on one GPU; counts how often it was asked for.
class ServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ListenAddress address;
    ASSERT_EQ(ParseListenAddress("127.0.0.1:0", &address), kGpaStatusOk);
    view_.counters = {{"power_watts", "Power draw", "W", CounterKind::kGauge, CounterOrigin::kTest}};
    view_.devices = {{0, "GPU-test", "Test GPU"}};
    view_.values = {{true, 42.5, 0.0, 1, 1}};
    ASSERT_EQ(MetricsHttpServer::Start(
                  address,
                  [this](ExpositionFormat format) {
                    ++bodies_served_;
                    return FormatMetrics(view_, format);
                  },
                  &server_),
              kGpaStatusOk);
    ASSERT_NE(server_->Port(), 0);
  }

  MetricsView view_;
  std::atomic<int> bodies_served_{0};
  std::unique_ptr<MetricsHttpServer> server_;
};

TEST_F(ServerTest, ServesOpenMetricsWhenTheAcceptHeaderAsksForIt) {
  const std::string response =
      Exchange(server_->Port(),
               "GET /metrics HTTP/1.1\r\nHost: x\r\nAccept: application/openmetrics-text;version=1.0.0\r\n\r\n");
  EXPECT_EQ(StatusLine(response), "HTTP/1.1 200 OK");
  EXPECT_NE(response.find("Content-Type: application/openmetrics-text; version=1.0.0; charset=utf-8\r\n"),
            std::string::npos);
  const std::string body = Body(response);
  EXPECT_NE(response.find("Content-Length: " + std::to_string(body.size()) + "\r\n"), std::string::npos);
  testing::ParsedExposition parsed;
  std::string error;
  ASSERT_TRUE(testing::ParseOpenMetrics(body, &parsed, &error)) << error << "\n" << body;
  ASSERT_NE(parsed.Find("opengpa_power_watts"), nullptr);
  EXPECT_DOUBLE_EQ(parsed.Find("opengpa_power_watts")->samples.at(0).value, 42.5);
  EXPECT_EQ(server_->AnsweredRequests(), 1u);
}

TEST_F(ServerTest, ServesPrometheusTextByDefault) {
  const std::string response = Exchange(server_->Port(), "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(StatusLine(response), "HTTP/1.1 200 OK");
  EXPECT_NE(response.find("Content-Type: text/plain; version=0.0.4; charset=utf-8\r\n"), std::string::npos);
  testing::ParsedExposition parsed;
  std::string error;
  EXPECT_TRUE(testing::ParsePrometheusText(Body(response), &parsed, &error)) << error;
}

TEST_F(ServerTest, AnswersHeadWithHeadersOnly) {
  const std::string response = Exchange(server_->Port(), "HEAD /metrics HTTP/1.1\r\n\r\n");
  EXPECT_EQ(StatusLine(response), "HTTP/1.1 200 OK");
  EXPECT_EQ(Body(response), "");
}

TEST_F(ServerTest, RejectsOtherPathsMethodsAndMalformedRequests) {
  EXPECT_EQ(StatusLine(Exchange(server_->Port(), "GET / HTTP/1.1\r\n\r\n")), "HTTP/1.1 404 Not Found");
  EXPECT_EQ(StatusLine(Exchange(server_->Port(), "GET /metricsx HTTP/1.1\r\n\r\n")), "HTTP/1.1 404 Not Found");
  const std::string post = Exchange(server_->Port(), "POST /metrics HTTP/1.1\r\nContent-Length: 0\r\n\r\n");
  EXPECT_EQ(StatusLine(post), "HTTP/1.1 405 Method Not Allowed");
  EXPECT_NE(post.find("Allow: GET, HEAD\r\n"), std::string::npos);
  // CivetWeb answers what it cannot parse in HTTP/1.0.
  EXPECT_EQ(StatusLine(Exchange(server_->Port(), "garbage\r\n\r\n")), "HTTP/1.0 400 Bad Request");
  EXPECT_EQ(StatusLine(Exchange(server_->Port(), std::string(9000, 'A'))), "HTTP/1.0 400 Bad Request");
  EXPECT_EQ(bodies_served_.load(), 0);
}

TEST_F(ServerTest, RejectsMalformedVersionsAndOversizedHeadersWithoutEchoingThem) {
  // Malformed is 400, a well-formed version other than 1.0/1.1 is 505; never served. The status line is the
  // server's own HTTP/1.0 or HTTP/1.1, whatever the client wrote (CivetWeb, used before, echoed "HTTP/1.\xff").
  const std::string kBad = "HTTP/1.0 400 Bad Request";
  const std::string kVersion = "HTTP/1.1 505 HTTP Version Not Supported";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"GET /metrics HTTP/1.\xff\r\n\r\n", kBad},
      {"GET /metrics HTTP/1.1x\r\n\r\n", kBad},
      {"GET /metrics FTP/1.1\r\n\r\n", kBad},
      {"GET /metrics HTTP/9.9\r\n\r\n", kVersion},
      {"GET /metrics HTTP/2.0\r\n\r\n", kVersion},
      {"GET /metrics HTTP/1.1\r\nX: " + std::string(9000, 'a') + "\r\n\r\n", kBad},
      {"GET /metrics HTTP/1.1\r\nno colon here\r\n\r\n", kBad},
      {"GET /metrics HTTP/1.1\r\nX: a\r\n folded\r\n\r\n", kBad},
      {"GET metrics HTTP/1.1\r\n\r\n", kBad},
      {"GET /met rics HTTP/1.1\r\n\r\n", kBad},
      {"G(T /metrics HTTP/1.1\r\n\r\n", kBad}};
  for (const auto& [request, status] : cases) {
    EXPECT_EQ(StatusLine(Exchange(server_->Port(), request)), status) << request.substr(0, 40);
  }
  EXPECT_EQ(bodies_served_.load(), 0);
  EXPECT_EQ(server_->Stats().refused, cases.size());
}

TEST_F(ServerTest, AnswersAClientThatClosesItsSideAfterTheRequest) {
  UniqueFd fd(Connect(server_->Port()));
  const std::string request = "GET /metrics HTTP/1.0\r\n\r\n";
  ASSERT_EQ(send(fd.Get(), request.data(), request.size(), MSG_NOSIGNAL), static_cast<ssize_t>(request.size()));
  ASSERT_EQ(shutdown(fd.Get(), SHUT_WR), 0);
  std::string response;
  char buffer[4096];
  for (ssize_t received; (received = recv(fd.Get(), buffer, sizeof buffer, 0)) > 0;) {
    response.append(buffer, static_cast<size_t>(received));
  }
  EXPECT_EQ(StatusLine(response), "HTTP/1.0 200 OK");
  EXPECT_NE(Body(response).find("opengpa_power_watts"), std::string::npos);
}

TEST_F(ServerTest, AcceptsAQueryStringOnMetrics) {
  EXPECT_EQ(StatusLine(Exchange(server_->Port(), "GET /metrics?x=1 HTTP/1.0\r\n\r\n")), "HTTP/1.0 200 OK");
}

TEST_F(ServerTest, KeepsServingAfterAClientThatSendsNothing) {
  // A client that connects and stays silent holds nothing a scrape needs (and is dropped after 1 s).
  UniqueFd silent(socket(AF_INET, SOCK_STREAM, 0));
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(server_->Port());
  inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
  ASSERT_EQ(connect(silent.Get(), reinterpret_cast<sockaddr*>(&address), sizeof(address)), 0);
  const auto begin = std::chrono::steady_clock::now();
  EXPECT_EQ(StatusLine(Exchange(server_->Port(), "GET /metrics HTTP/1.1\r\n\r\n")), "HTTP/1.1 200 OK");
  EXPECT_LT(std::chrono::steady_clock::now() - begin, std::chrono::seconds(3));
}

using Clock = std::chrono::steady_clock;

TEST_F(ServerTest, AClientTricklingItsRequestIsCutOffAtTheDeadlineWhileScrapesGoOn) {
  // One byte every 100 ms, for at most 20 s: far below any per-read timeout, so only a deadline for the
  // whole request stops it (ServerLimits::request_deadline_ms, 2 s by default).
  std::atomic<bool> cut_off{false};
  std::atomic<bool> trickling{true};
  std::string trickler_got;
  Clock::duration trickled_for{};
  std::thread trickler([&] {
    UniqueFd fd(Connect(server_->Port()));
    const std::string start = "GET /metrics HTTP/1.1\r\nX-Slow: ";
    send(fd.Get(), start.data(), start.size(), MSG_NOSIGNAL);
    const auto begin = Clock::now();
    for (int i = 0; i < 200 && !cut_off; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      if (send(fd.Get(), "a", 1, MSG_NOSIGNAL) != 1) cut_off = true;
      char buffer[512];
      const ssize_t received = recv(fd.Get(), buffer, sizeof buffer, MSG_DONTWAIT);
      if (received > 0) trickler_got.append(buffer, static_cast<size_t>(received));
      if (received >= 0) cut_off = true;  // an answer, or the connection closed
    }
    trickled_for = Clock::now() - begin;
    trickling = false;
  });
  // Scrapes while the trickler holds its connection are answered at once.
  int scrapes = 0;
  while (trickling && scrapes < 100) {
    const auto begin = Clock::now();
    EXPECT_EQ(StatusLine(Exchange(server_->Port(), "GET /metrics HTTP/1.1\r\n\r\n")), "HTTP/1.1 200 OK");
    EXPECT_LT(Clock::now() - begin, std::chrono::seconds(1)) << "a scrape waited behind the trickling client";
    ++scrapes;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  trickler.join();
  EXPECT_TRUE(cut_off.load()) << "the trickling client was never cut off";
  EXPECT_LT(trickled_for, std::chrono::seconds(5)) << "the server let the client trickle past its 2 s deadline";
  EXPECT_EQ(trickler_got.find(" 200 "), std::string::npos) << trickler_got;
  EXPECT_GE(scrapes, 3);
}

TEST_F(ServerTest, IdleConnectionsDoNotDelayAScrape) {
  // A few idle connections (issue 35's load is below): the scrape is answered at once.
  std::vector<std::unique_ptr<UniqueFd>> idle;
  for (int i = 0; i < 3; ++i) {
    idle.push_back(std::make_unique<UniqueFd>(Connect(server_->Port())));
    ASSERT_GE(idle.back()->Get(), 0);
  }
  for (int i = 0; i < 5; ++i) {
    const auto begin = Clock::now();
    EXPECT_EQ(StatusLine(Exchange(server_->Port(), "GET /metrics HTTP/1.1\r\n\r\n")), "HTTP/1.1 200 OK");
    EXPECT_LT(Clock::now() - begin, std::chrono::milliseconds(500));
  }
}

TEST_F(ServerTest, FiftyConcurrentClientsAreAllAnswered) {
  constexpr int kClients = 50;
  std::atomic<int> answered{0};
  std::vector<std::thread> clients;
  const auto begin = Clock::now();
  for (int i = 0; i < kClients; ++i) {
    clients.emplace_back([&] {
      const std::string response = Exchange(server_->Port(), "GET /metrics HTTP/1.1\r\n\r\n");
      testing::ParsedExposition parsed;
      std::string error;
      if (StatusLine(response) == "HTTP/1.1 200 OK" && testing::ParsePrometheusText(Body(response), &parsed, &error) &&
          parsed.Find("opengpa_power_watts") != nullptr) {
        ++answered;
      }
    });
  }
  for (auto& client : clients) client.join();
  EXPECT_EQ(answered.load(), kClients);
  EXPECT_EQ(server_->AnsweredRequests(), static_cast<uint64_t>(kClients));
  EXPECT_LT(Clock::now() - begin, std::chrono::seconds(10));  // a safety net; latency is for benchmarks
}

// One scrape on a fresh connection, every step bounded by 3 s (connect included: a server whose listen queue
// is full leaves a connect hanging): whether the answer was a whole 200, and how long it took.
struct TimedScrape {
  bool ok = false;
  Clock::duration took{};
};
TimedScrape ScrapeOnce(uint16_t port) {
  const auto begin = Clock::now();
  UniqueFd fd(socket(AF_INET, SOCK_STREAM, 0));
  timeval timeout{3, 0};
  setsockopt(fd.Get(), SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  setsockopt(fd.Get(), SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);  // bounds connect(2) too
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
  TimedScrape scrape;
  if (connect(fd.Get(), reinterpret_cast<sockaddr*>(&address), sizeof address) == 0) {
    const std::string request = "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n";
    send(fd.Get(), request.data(), request.size(), MSG_NOSIGNAL);
    std::string response;
    char buffer[4096];
    for (int reads = 0; reads < 1000; ++reads) {
      const ssize_t received = recv(fd.Get(), buffer, sizeof buffer, 0);
      if (received <= 0) break;
      response.append(buffer, static_cast<size_t>(received));
    }
    scrape.ok =
        StatusLine(response) == "HTTP/1.1 200 OK" && Body(response).find("opengpa_power_watts") != std::string::npos;
  }
  scrape.took = Clock::now() - begin;
  return scrape;
}

TEST_F(ServerTest, ScrapesAreAnsweredWithinASecondAtP99While200SilentAnd50TricklingClientsPress) {
  // Issue 35's load: 200 connections that send nothing and 50 that trickle a request a byte per 100 ms, each
  // opened again as soon as the server closes it. 100 scrapes, one every 50 ms, must all be answered, 99 of
  // them within 1 s (a Prometheus scrape timeout is 10 s by default, 1 s in tight setups). Latency is the
  // assertion here, so it is timed; on loopback a scrape takes well under a millisecond when nothing waits.
  testing::AbusiveClients abuse(server_->Port(), {200, 50, std::chrono::milliseconds(100), 50000});
  ASSERT_TRUE(abuse.WaitUntilAllConnected(std::chrono::seconds(10)));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // every abusive connection accepted and waiting
  std::vector<double> latencies_ms;
  int failed = 0;
  int failed_in_a_row = 0;
  const auto give_up = Clock::now() + std::chrono::seconds(60);  // bounds the test when the server starves
  while (latencies_ms.size() < 100 && failed_in_a_row < 5 && Clock::now() < give_up) {
    const TimedScrape scrape = ScrapeOnce(server_->Port());
    latencies_ms.push_back(std::chrono::duration<double, std::milli>(scrape.took).count());
    failed += scrape.ok ? 0 : 1;
    failed_in_a_row = scrape.ok ? 0 : failed_in_a_row + 1;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  std::vector<double> sorted = latencies_ms;
  std::sort(sorted.begin(), sorted.end());
  const double p50 = sorted[sorted.size() / 2];
  const double p99 = sorted[(sorted.size() * 99 + 99) / 100 - 1];
  std::printf(
      "scrapes: %zu, failed %d, p50 %.1f ms, p99 %.1f ms, max %.1f ms; abusive connections open %d, closed by "
      "the server %llu\n",
      sorted.size(), failed, p50, p99, sorted.back(), abuse.Open(),
      static_cast<unsigned long long>(abuse.ClosedByServer()));
  EXPECT_EQ(sorted.size(), 100u);
  EXPECT_EQ(failed, 0);
  EXPECT_LT(p99, 1000.0);
  const ServerStats stats = server_->Stats();
  EXPECT_GE(stats.answered, 100u);
  EXPECT_GT(stats.cut_silent, 0u) << "silent connections were never cut";
  EXPECT_GT(stats.cut_unfinished, 0u) << "trickling connections were never cut";
}

// Waits (at most 5 s) until the server's counts satisfy `holds`: they are updated on the server's thread.
template <typename Condition>
bool StatsReach(const MetricsHttpServer& server, Condition holds) {
  const auto give_up = Clock::now() + std::chrono::seconds(5);
  while (!holds(server.Stats()) && Clock::now() < give_up) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  return holds(server.Stats());
}

// A server with the given limits serving a fixed body.
std::unique_ptr<MetricsHttpServer> StartWith(const ServerLimits& limits, std::string body = "# EOF\n") {
  std::unique_ptr<MetricsHttpServer> server;
  EXPECT_EQ(MetricsHttpServer::Start(
                {"127.0.0.1", 0}, limits, [body](ExpositionFormat) { return body; }, &server),
            kGpaStatusOk);
  return server;
}

TEST(MetricsHttpServer, ASilentConnectionIsClosedAtItsFirstByteDeadlineNeverBefore) {
  ServerLimits limits;
  limits.first_byte_ms = 200;
  auto server = StartWith(limits);
  ASSERT_NE(server, nullptr);
  const auto begin = Clock::now();
  UniqueFd silent(Connect(server->Port()));
  ASSERT_GE(silent.Get(), 0);
  char byte;
  EXPECT_EQ(recv(silent.Get(), &byte, 1, 0), 0) << "the server did not close the silent connection within 3 s";
  const auto waited = Clock::now() - begin;
  EXPECT_GE(waited, std::chrono::milliseconds(200));
  EXPECT_TRUE(StatsReach(*server, [](const ServerStats& s) { return s.cut_silent == 1 && s.open == 0; }))
      << "cut_silent " << server->Stats().cut_silent << ", open " << server->Stats().open;
}

// A connected socket from `source` (any 127.x.y.z is loopback, so tests can play several client addresses).
int ConnectFrom(const char* source, uint16_t port) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  timeval timeout{3, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
  sockaddr_in local{};
  local.sin_family = AF_INET;
  inet_pton(AF_INET, source, &local.sin_addr);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
  if (bind(fd, reinterpret_cast<sockaddr*>(&local), sizeof local) != 0 ||
      connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

TEST(MetricsHttpServer, OverTheCapTheLongestWaitingConnectionOfTheBusiestClientIsClosed) {
  // Cap 5. 127.0.0.2 opens one silent connection first (the oldest of all), then 127.0.0.1 opens 12: only
  // 127.0.0.1's are closed to make room (it holds the most), never more than 5 are open, and the scrape that
  // follows is admitted and answered. 127.0.0.2's connection, still open, is then answered too.
  ServerLimits limits;
  limits.max_connections = 5;
  limits.first_byte_ms = 60000;  // only the cap closes them here
  limits.request_deadline_ms = 60000;
  auto server = StartWith(limits);
  ASSERT_NE(server, nullptr);
  UniqueFd other(ConnectFrom("127.0.0.2", server->Port()));
  ASSERT_GE(other.Get(), 0);
  std::vector<std::unique_ptr<UniqueFd>> silent;
  for (int i = 0; i < 12; ++i) {
    silent.push_back(std::make_unique<UniqueFd>(ConnectFrom("127.0.0.1", server->Port())));
    ASSERT_GE(silent.back()->Get(), 0);
  }
  EXPECT_EQ(StatusLine(Exchange(server->Port(), "GET /metrics HTTP/1.1\r\n\r\n")), "HTTP/1.1 200 OK");
  ServerStats stats = server->Stats();
  EXPECT_LE(stats.peak_open, 5u);
  EXPECT_EQ(stats.accepted, 14u);
  EXPECT_EQ(stats.evicted, 14u - 5u);
  EXPECT_EQ(stats.turned_away, 0u);
  const std::string request = "GET /metrics HTTP/1.0\r\n\r\n";
  send(other.Get(), request.data(), request.size(), MSG_NOSIGNAL);
  char buffer[64] = {};
  ASSERT_GT(recv(other.Get(), buffer, sizeof buffer - 1, 0), 0) << "127.0.0.2's connection was closed";
  EXPECT_EQ(StatusLine(buffer), "HTTP/1.0 200 OK");
}

TEST(MetricsHttpServer, AClientThatDoesNotReadItsAnswerIsCutAtTheAnswerDeadline) {
  ServerLimits limits;
  limits.answer_deadline_ms = 300;
  auto server = StartWith(limits, std::string(32 << 20, 'x'));  // far more than the socket buffers hold
  ASSERT_NE(server, nullptr);
  const int small = 4096;
  UniqueFd fd(socket(AF_INET, SOCK_STREAM, 0));
  setsockopt(fd.Get(), SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(server->Port());
  inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
  ASSERT_EQ(connect(fd.Get(), reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  const std::string request = "GET /metrics HTTP/1.1\r\n\r\n";
  send(fd.Get(), request.data(), request.size(), MSG_NOSIGNAL);
  // Never read: cut once the deadline passes (waited for at most 5 s).
  EXPECT_TRUE(StatsReach(*server, [](const ServerStats& s) { return s.cut_not_reading == 1 && s.open == 0; }))
      << "cut_not_reading " << server->Stats().cut_not_reading << ", open " << server->Stats().open;
}

TEST(MetricsHttpServer, RejectsLimitsBelowOne) {
  testing::LogCapture log;
  std::unique_ptr<MetricsHttpServer> server;
  ServerLimits limits;
  limits.max_connections = 0;
  EXPECT_EQ(MetricsHttpServer::Start(
                {"127.0.0.1", 0}, limits, [](ExpositionFormat) { return std::string(); }, &server),
            kGpaStatusErrorInvalidParameter);
  EXPECT_EQ(server, nullptr);
}

TEST_F(ServerTest, StopsListeningWhenDestroyed) {
  const uint16_t port = server_->Port();
  const auto begin = std::chrono::steady_clock::now();
  server_.reset();
  EXPECT_LT(std::chrono::steady_clock::now() - begin, std::chrono::seconds(3));
  bool connected = true;
  Exchange(port, "GET /metrics HTTP/1.1\r\n\r\n", &connected);
  EXPECT_FALSE(connected);
}

TEST(MetricsHttpServer, BindsToLoopbackWhenGivenOnlyAPort) {
  ListenAddress address;
  ASSERT_EQ(ParseListenAddress("0", &address), kGpaStatusOk);
  std::unique_ptr<MetricsHttpServer> server;
  ASSERT_EQ(MetricsHttpServer::Start(
                address, [](ExpositionFormat) { return std::string("# EOF\n"); }, &server),
            kGpaStatusOk);
  EXPECT_EQ(server->Address().host, "127.0.0.1");
}

TEST(MetricsHttpServer, ReportsAPortInUseInsteadOfFailingSilently) {
  std::unique_ptr<MetricsHttpServer> first;
  ASSERT_EQ(MetricsHttpServer::Start(
                {"127.0.0.1", 0}, [](ExpositionFormat) { return std::string(); }, &first),
            kGpaStatusOk);
  testing::LogCapture log;
  std::unique_ptr<MetricsHttpServer> second;
  EXPECT_EQ(MetricsHttpServer::Start(
                {"127.0.0.1", first->Port()}, [](ExpositionFormat) { return std::string(); }, &second),
            kGpaStatusErrorFailed);
  EXPECT_EQ(second, nullptr);
  EXPECT_NE(log.Text().find("cannot serve on 127.0.0.1:" + std::to_string(first->Port())), std::string::npos)
      << log.Text();
}

TEST(ParseListenAddress, ReadsPortsHostsAndLocalhost) {
  ListenAddress address;
  ASSERT_EQ(ParseListenAddress("9400", &address), kGpaStatusOk);
  EXPECT_EQ(address.host, "127.0.0.1");
  EXPECT_EQ(address.port, 9400);
  ASSERT_EQ(ParseListenAddress(":9401", &address), kGpaStatusOk);
  EXPECT_EQ(address.host, "127.0.0.1");
  EXPECT_EQ(address.port, 9401);
  ASSERT_EQ(ParseListenAddress("0.0.0.0:65535", &address), kGpaStatusOk);
  EXPECT_EQ(address.host, "0.0.0.0");
  EXPECT_EQ(address.port, 65535);
  ASSERT_EQ(ParseListenAddress("localhost:80", &address), kGpaStatusOk);
  EXPECT_EQ(address.host, "127.0.0.1");
}

TEST(ParseListenAddress, RejectsBadInputNamingIt) {
  for (const char* bad : {"", "abc", "70000", "-1", "host:1", "1.2.3:5", "127.0.0.1:", "127.0.0.1:12a", "[::1]:9400"}) {
    testing::LogCapture log;
    ListenAddress address;
    EXPECT_EQ(ParseListenAddress(bad, &address), kGpaStatusErrorInvalidParameter) << bad;
    EXPECT_NE(log.Text().find(std::string("'") + bad + "'"), std::string::npos) << log.Text();
  }
}

}  // namespace
}  // namespace opengpa::monitor
