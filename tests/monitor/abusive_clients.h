// Clients that try to starve a loopback HTTP endpoint, for the endpoint's tests: `silent` connections that
// send nothing and `trickling` ones (slow loris) that send the start of a request and then one byte every
// `trickle_interval`, never finishing it. A connection the server closes is opened again at once, so the
// pressure stays whatever the server does. One thread polls them all; everything is bounded: at most
// `max_reconnects` connections opened in all, and the thread stops when the object goes.
#ifndef OPENGPA_TESTS_MONITOR_ABUSIVE_CLIENTS_H_
#define OPENGPA_TESTS_MONITOR_ABUSIVE_CLIENTS_H_

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

namespace opengpa::monitor::testing {

class AbusiveClients {
 public:
  struct Counts {
    int silent = 0;
    int trickling = 0;
    std::chrono::milliseconds trickle_interval{100};
    int max_reconnects = 100000;
  };
  AbusiveClients(uint16_t port, const Counts& counts);
  ~AbusiveClients();
  AbusiveClients(const AbusiveClients&) = delete;
  AbusiveClients& operator=(const AbusiveClients&) = delete;

  // Connections open now (connected and not yet closed by the server), and closed by it so far.
  int Open() const { return open_.load(); }
  uint64_t ClosedByServer() const { return closed_by_server_.load(); }
  // Blocks until every client has connected once (or `timeout` passes); false on timeout.
  bool WaitUntilAllConnected(std::chrono::milliseconds timeout) const;

 private:
  struct Client {
    int fd = -1;
    bool trickling = false;
    std::chrono::steady_clock::time_point next_byte;
  };
  void Run();
  bool Reconnect(Client* client);

  uint16_t port_;
  Counts counts_;
  std::vector<Client> clients_;
  std::atomic<bool> stop_{false};
  std::atomic<int> open_{0};
  std::atomic<int> connected_once_{0};
  std::atomic<uint64_t> closed_by_server_{0};
  int reconnects_ = 0;
  std::thread thread_;
};

}  // namespace opengpa::monitor::testing

#endif  // OPENGPA_TESTS_MONITOR_ABUSIVE_CLIENTS_H_
