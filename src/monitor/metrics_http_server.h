// The Prometheus scrape endpoint: GET /metrics answers with the monitor's latest values (Prometheus text
// or OpenMetrics, by the Accept header), HEAD /metrics with the headers alone, anything else 404/405.
//
// HTTP is CivetWeb's (Debian's libcivetweb, the server prometheus-cpp embeds), configured so that no
// client can hold the endpoint: a fixed pool of worker threads serves connections concurrently, a request
// must arrive whole within a deadline (a client trickling one byte at a time is cut off), a request line
// plus headers may not exceed 8 KiB, accepted connections wait in a bounded queue, and every connection
// closes after one answer (no idle keep-alive connection holds a worker). CivetWeb parses strictly: a
// malformed request line or version ("HTTP/1.\xff") gets 400, or the connection closes. Binds to
// 127.0.0.1 unless the caller names another IPv4 address.
#ifndef OPENGPA_MONITOR_METRICS_HTTP_SERVER_H_
#define OPENGPA_MONITOR_METRICS_HTTP_SERVER_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "monitor/metrics_exposition.h"
#include "gpu_performance_api/gpu_perf_api_types.h"

struct mg_context;
struct mg_connection;

namespace opengpa::monitor {

struct ListenAddress {
  std::string host = "127.0.0.1";
  uint16_t port = 0;  // 0: the kernel picks a free port (see MetricsHttpServer::Port)
};

// "9400", ":9400", "127.0.0.1:9400", "localhost:9400", "0.0.0.0:9400". A bare port binds loopback.
[[nodiscard]] GpaStatus ParseListenAddress(std::string_view text, ListenAddress* address);

// What one server may use. The defaults suit a scrape endpoint: Prometheus scrapes one at a time per
// target and a scrape is answered in well under a millisecond.
struct ServerLimits {
  int worker_threads = 4;          // connections served at once
  int request_deadline_ms = 2000;  // from accepting a connection until its request is read whole
  int connection_queue = 32;       // accepted connections waiting for a worker; then the listen backlog
  int listen_backlog = 128;
};

class MetricsHttpServer {
 public:
  using BodyProvider = std::function<std::string(ExpositionFormat)>;

  [[nodiscard]] static GpaStatus Start(const ListenAddress& address, BodyProvider provider, std::unique_ptr<MetricsHttpServer>* server);
  [[nodiscard]] static GpaStatus Start(const ListenAddress& address, const ServerLimits& limits, BodyProvider provider,
                         std::unique_ptr<MetricsHttpServer>* server);

  ~MetricsHttpServer();  // stops accepting, waits for the workers to finish their requests
  MetricsHttpServer(const MetricsHttpServer&) = delete;
  MetricsHttpServer& operator=(const MetricsHttpServer&) = delete;

  const ListenAddress& Address() const { return bound_; }
  uint16_t Port() const { return bound_.port; }
  uint64_t AnsweredRequests() const { return answered_.load(); }

 private:
  explicit MetricsHttpServer(BodyProvider provider) : provider_(std::move(provider)) {}
  static int Handle(mg_connection* connection, void* server);
  int Answer(mg_connection* connection);

  BodyProvider provider_;
  ListenAddress bound_;
  std::atomic<uint64_t> answered_{0};
  mg_context* context_ = nullptr;
};

}  // namespace opengpa::monitor

#endif  // OPENGPA_MONITOR_METRICS_HTTP_SERVER_H_
