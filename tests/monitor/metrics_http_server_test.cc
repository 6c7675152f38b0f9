#include "monitor/metrics_http_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

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

TEST_F(ServerTest, RejectsMalformedVersionsAndOversizedHeaders) {
  // Each is refused with 400 (malformed) or 505 (a version other than 1.0/1.1), never served. (CivetWeb
  // echoes the version it read into its status line, so only the code is checked.)
  for (const std::string request :
       {std::string("GET /metrics HTTP/1.\xff\r\n\r\n"), std::string("GET /metrics HTTP/1.1x\r\n\r\n"),
        std::string("GET /metrics FTP/1.1\r\n\r\n"), std::string("GET /metrics HTTP/9.9\r\n\r\n"),
        "GET /metrics HTTP/1.1\r\nX: " + std::string(9000, 'a') + "\r\n\r\n"}) {
    const std::string response = Exchange(server_->Port(), request);
    EXPECT_TRUE(response.find(" 400 Bad Request\r\n") != std::string::npos ||
                response.find(" 505 HTTP Version not supported\r\n") != std::string::npos)
        << response.substr(0, 80);
  }
  EXPECT_EQ(bodies_served_.load(), 0);
}

TEST_F(ServerTest, AcceptsAQueryStringOnMetrics) {
  EXPECT_EQ(StatusLine(Exchange(server_->Port(), "GET /metrics?x=1 HTTP/1.0\r\n\r\n")), "HTTP/1.0 200 OK");
}

TEST_F(ServerTest, KeepsServingAfterAClientThatSendsNothing) {
  // A client that connects and stays silent is dropped after the server's 2-second timeout.
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
  // Fewer idle connections than worker threads: the scrape gets a free worker at once.
  std::vector<std::unique_ptr<UniqueFd>> idle;
  for (int i = 0; i < ServerLimits{}.worker_threads - 1; ++i) {
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

TEST(MetricsHttpServer, RejectsLimitsBelowOne) {
  testing::LogCapture log;
  std::unique_ptr<MetricsHttpServer> server;
  ServerLimits limits;
  limits.worker_threads = 0;
  EXPECT_EQ(MetricsHttpServer::Start(
                {"127.0.0.1", 0}, limits, [](ExpositionFormat) { return std::string(); }, &server),
            kGpaStatusErrorInvalidParameter);
  EXPECT_EQ(server, nullptr);
}

TEST_F(ServerTest, StopsListeningWhenDestroyed) {
  const uint16_t port = server_->Port();
  const auto begin = std::chrono::steady_clock::now();
  server_.reset();
  EXPECT_LT(std::chrono::steady_clock::now() - begin, std::chrono::seconds(3));  // CivetWeb polls every 2 s
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
