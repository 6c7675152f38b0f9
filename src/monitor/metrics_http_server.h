// The Prometheus scrape endpoint: GET /metrics answers with the monitor's latest values (Prometheus text
// or OpenMetrics, by the Accept header), HEAD /metrics with the headers alone, anything else 404/405.
//
// No client can starve it, whatever the others do (issue 35): one thread watches every connection with
// epoll and a connection holds nothing but a socket until its request has arrived whole, so a scrape is
// answered as soon as its own bytes are in, however many connections sit silent or trickle beside it.
// Those are cut early: a connection that sends nothing within `first_byte_ms` of being accepted, or whose
// request is not whole within `request_deadline_ms`, is closed; so is one that does not read its answer
// within `answer_deadline_ms`. Open connections are capped: a new connection over the cap closes the
// longest-waiting unfinished connection of the client address holding the most connections, so a flood
// from one address only ever closes its own, and a scrape (whose request arrives within a round trip) is
// closed only if `max_connections` newer connections arrive before its request does. A request line plus
// headers may not exceed `max_request_bytes`; every connection closes after one answer (HTTP/1.x,
// http_request.h).
// Binds to 127.0.0.1 unless the caller names another IPv4 address.
#ifndef OPENGPA_MONITOR_METRICS_HTTP_SERVER_H_
#define OPENGPA_MONITOR_METRICS_HTTP_SERVER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "gpu_performance_api/gpu_perf_api_types.h"
#include "monitor/metrics_exposition.h"

namespace opengpa::monitor {

struct ListenAddress {
  std::string host = "127.0.0.1";
  uint16_t port = 0;  // 0: the kernel picks a free port (see MetricsHttpServer::Port)
};

// "9400", ":9400", "127.0.0.1:9400", "localhost:9400", "0.0.0.0:9400". A bare port binds loopback.
[[nodiscard]] GpaStatus ParseListenAddress(std::string_view text, ListenAddress* address);

// What one server allows. The defaults suit a scrape endpoint: Prometheus sends its request as soon as it
// connects and a scrape is answered in well under a millisecond (docs/realtime.md has the measurements).
struct ServerLimits {
  int max_connections = 1024;      // open at once; lowered at start to half of RLIMIT_NOFILE, less 16
  int first_byte_ms = 1000;        // from accepting a connection until its first byte
  int request_deadline_ms = 2000;  // from accepting a connection until its request is whole
  int answer_deadline_ms = 5000;   // from the answer until the client has taken all of it
  int max_request_bytes = 8192;    // request line plus headers
  int listen_backlog = 128;
};

// What the server did, for tests and diagnostics.
struct ServerStats {
  uint64_t accepted = 0;
  uint64_t answered = 0;         // 200s
  uint64_t refused = 0;          // 400, 404, 405, 505 (and 500: the body provider failed)
  uint64_t cut_silent = 0;       // nothing within first_byte_ms
  uint64_t cut_unfinished = 0;   // the request not whole within request_deadline_ms
  uint64_t cut_not_reading = 0;  // the answer not taken within answer_deadline_ms
  uint64_t evicted = 0;          // closed to admit a newer connection over the cap
  uint64_t turned_away = 0;      // a new connection closed at once: the cap reached and nothing to evict
  uint64_t open = 0;             // connections open now
  uint64_t peak_open = 0;
};

class MetricsHttpServer {
 public:
  using BodyProvider = std::function<std::string(ExpositionFormat)>;

  [[nodiscard]] static GpaStatus Start(const ListenAddress& address, BodyProvider provider,
                                       std::unique_ptr<MetricsHttpServer>* server);
  [[nodiscard]] static GpaStatus Start(const ListenAddress& address, const ServerLimits& limits, BodyProvider provider,
                                       std::unique_ptr<MetricsHttpServer>* server);

  ~MetricsHttpServer();  // stops at once: closes the listening socket and every connection
  MetricsHttpServer(const MetricsHttpServer&) = delete;
  MetricsHttpServer& operator=(const MetricsHttpServer&) = delete;

  const ListenAddress& Address() const { return bound_; }
  uint16_t Port() const { return bound_.port; }
  uint64_t AnsweredRequests() const;
  ServerStats Stats() const;

 private:
  class EventLoop;
  explicit MetricsHttpServer(std::unique_ptr<EventLoop> loop);

  ListenAddress bound_;
  std::unique_ptr<EventLoop> loop_;
};

}  // namespace opengpa::monitor

#endif  // OPENGPA_MONITOR_METRICS_HTTP_SERVER_H_
