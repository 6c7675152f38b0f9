// A minimal HTTP/1.1 server for Prometheus scrapes: GET /metrics answers with the monitor's latest
// values (Prometheus text or OpenMetrics, by the Accept header), anything else with 404/405/400. It binds
// to 127.0.0.1 unless the caller names another IPv4 address, serves one connection at a time with a
// 2-second I/O timeout and an 8 KiB request limit, and closes every connection after one answer.
#ifndef OPENGPA_MONITOR_METRICS_HTTP_SERVER_H_
#define OPENGPA_MONITOR_METRICS_HTTP_SERVER_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <thread>

#include "gpu_performance_api/gpu_perf_api_types.h"
#include "monitor/metrics_exposition.h"

namespace opengpa::monitor {

struct ListenAddress {
  std::string host = "127.0.0.1";
  uint16_t port = 0;  // 0: the kernel picks a free port (see MetricsHttpServer::Port)
};

// "9400", ":9400", "127.0.0.1:9400", "localhost:9400", "0.0.0.0:9400". A bare port binds loopback.
GpaStatus ParseListenAddress(std::string_view text, ListenAddress* address);

// A file descriptor closed when the object goes.
class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) : fd_(fd) {}
  ~UniqueFd();
  UniqueFd(UniqueFd&& other) noexcept : fd_(other.Release()) {}
  UniqueFd& operator=(UniqueFd&& other) noexcept;
  int Get() const { return fd_; }
  int Release() {
    const int fd = fd_;
    fd_ = -1;
    return fd;
  }

 private:
  int fd_ = -1;
};

class MetricsHttpServer {
 public:
  using BodyProvider = std::function<std::string(ExpositionFormat)>;

  static GpaStatus Start(const ListenAddress& address, BodyProvider provider, std::unique_ptr<MetricsHttpServer>* server);

  MetricsHttpServer(UniqueFd listener, UniqueFd wake_read, UniqueFd wake_write, ListenAddress bound,
                    BodyProvider provider);
  ~MetricsHttpServer();  // stops the thread and closes the socket
  MetricsHttpServer(const MetricsHttpServer&) = delete;
  MetricsHttpServer& operator=(const MetricsHttpServer&) = delete;

  const ListenAddress& Address() const { return bound_; }
  uint16_t Port() const { return bound_.port; }
  uint64_t AnsweredRequests() const { return answered_.load(); }

 private:
  void Serve();
  void Answer(int client);

  UniqueFd listener_;
  UniqueFd wake_read_;   // the thread polls it with the listener: a byte written on Stop wakes it at once
  UniqueFd wake_write_;
  ListenAddress bound_;
  BodyProvider provider_;
  std::atomic<uint64_t> answered_{0};
  std::thread thread_;
};

}  // namespace opengpa::monitor

#endif  // OPENGPA_MONITOR_METRICS_HTTP_SERVER_H_
