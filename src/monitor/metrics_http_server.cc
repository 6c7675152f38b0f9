#include "monitor/metrics_http_server.h"

#include <arpa/inet.h>
#include <civetweb.h>

#include <array>
#include <cctype>
#include <exception>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "platform/dynamic_library.h"
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
    if (!std::isdigit(static_cast<unsigned char>(c)))
      digits = false;
    else
      port = port * 10 + static_cast<unsigned long>(c - '0');
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

// libcivetweb.so.1 is dlopen'ed when the first server starts, like every optional library of the monitor:
// the CLI and libOpenGPAMonitor.so load and run on machines without it, and only --prometheus needs it
// (Debian package libcivetweb1). civetweb.h gives the declarations.
struct CivetWeb {
  decltype(&mg_init_library) init_library = nullptr;
  decltype(&mg_start2) start = nullptr;
  decltype(&mg_stop) stop = nullptr;
  decltype(&mg_set_request_handler) set_request_handler = nullptr;
  decltype(&mg_get_server_ports) get_server_ports = nullptr;
  decltype(&mg_get_request_info) get_request_info = nullptr;
  decltype(&mg_get_header) get_header = nullptr;
  decltype(&mg_response_header_start) response_header_start = nullptr;
  decltype(&mg_response_header_add) response_header_add = nullptr;
  decltype(&mg_response_header_send) response_header_send = nullptr;
  decltype(&mg_write) write = nullptr;
  std::unique_ptr<DynamicLibrary> library;
  std::string error;  // why it is not usable; empty when it is
};

// Loaded and initialised once per process (mg_init_library is not thread-safe), never unloaded: servers
// may start and stop many times.
const CivetWeb& LoadCivetWeb() {
  static const CivetWeb civetweb = [] {
    CivetWeb loaded;
    const std::vector<std::string> candidates = LibraryCandidates({}, "OPENGPA_CIVETWEB_LIBRARY", {"libcivetweb.so.1"});
    std::string error;
    loaded.library = DynamicLibrary::Open(candidates, &error, DynamicLibrary::Unload::kNever);
    if (loaded.library == nullptr) {
      loaded.error =
          fmt::format("cannot load {} (Debian package libcivetweb1): {}", fmt::join(candidates, " or "), error);
      return loaded;
    }
    const DynamicLibrary& so = *loaded.library;
    const bool complete =
        so.Resolve("mg_init_library", &loaded.init_library) && so.Resolve("mg_start2", &loaded.start) &&
        so.Resolve("mg_stop", &loaded.stop) && so.Resolve("mg_set_request_handler", &loaded.set_request_handler) &&
        so.Resolve("mg_get_server_ports", &loaded.get_server_ports) &&
        so.Resolve("mg_get_request_info", &loaded.get_request_info) &&
        so.Resolve("mg_get_header", &loaded.get_header) &&
        so.Resolve("mg_response_header_start", &loaded.response_header_start) &&
        so.Resolve("mg_response_header_add", &loaded.response_header_add) &&
        so.Resolve("mg_response_header_send", &loaded.response_header_send) && so.Resolve("mg_write", &loaded.write);
    if (!complete) {
      loaded.error = fmt::format("{} lacks a function of CivetWeb 1.15's API", so.Name());
      loaded.library.reset();
      return loaded;
    }
    loaded.init_library(0);
    return loaded;
  }();
  return civetweb;
}

// CivetWeb's messages are about single connections (a client too slow, a malformed request): the client's
// problem, answered with an error status or a closed connection. Keep them out of the application's log.
int IgnoreConnectionMessage(const mg_connection* /*connection*/, const char* /*message*/) { return 1; }

void Send(const CivetWeb& civetweb, mg_connection* connection, int status, std::string_view content_type,
          std::string_view body, bool include_body, const char* allow = nullptr) {
  civetweb.response_header_start(connection, status);
  civetweb.response_header_add(connection, "Content-Type", content_type.data(), static_cast<int>(content_type.size()));
  const std::string length = std::to_string(body.size());
  civetweb.response_header_add(connection, "Content-Length", length.c_str(), -1);
  if (allow != nullptr) civetweb.response_header_add(connection, "Allow", allow, -1);
  civetweb.response_header_send(connection);
  if (include_body && !body.empty()) civetweb.write(connection, body.data(), body.size());
}

}  // namespace

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
  if (limits.worker_threads < 1 || limits.request_deadline_ms < 1 || limits.connection_queue < 1 ||
      limits.listen_backlog < 1) {
    return LogError(kGpaStatusErrorInvalidParameter, "metrics server: every limit must be at least 1");
  }
  const CivetWeb& civetweb = LoadCivetWeb();
  if (civetweb.library == nullptr) {
    return LogError(kGpaStatusErrorLibLoadFailed, "metrics server: {}", civetweb.error);
  }
  std::unique_ptr<MetricsHttpServer> started(new MetricsHttpServer(std::move(provider)));
  const std::string ports = fmt::format("{}:{}", address.host, address.port);
  const std::string threads = std::to_string(limits.worker_threads);
  const std::string deadline = std::to_string(limits.request_deadline_ms);
  const std::string queue = std::to_string(limits.connection_queue);
  const std::string backlog = std::to_string(limits.listen_backlog);
  // No document_root: CivetWeb serves no file; only the handler below answers.
  const char* options[] = {"listening_ports",
                           ports.c_str(),
                           "num_threads",
                           threads.c_str(),
                           "request_timeout_ms",
                           deadline.c_str(),
                           "keep_alive_timeout_ms",
                           deadline.c_str(),
                           "connection_queue",
                           queue.c_str(),
                           "listen_backlog",
                           backlog.c_str(),
                           "max_request_size",
                           "8192",
                           "enable_keep_alive",
                           "no",
                           "decode_url",
                           "no",
                           nullptr};
  mg_callbacks callbacks{};
  callbacks.log_message = &IgnoreConnectionMessage;
  mg_init_data init{&callbacks, started.get(), options};
  char error_text[256] = "";
  unsigned error_code = 0;
  mg_error_data error{&error_code, error_text, sizeof error_text};
  started->context_ = civetweb.start(&init, &error);
  if (started->context_ == nullptr) {
    return LogError(kGpaStatusErrorFailed, "metrics server: cannot serve on {}:{}: {}", address.host, address.port,
                    error_text[0] != '\0' ? error_text : "CivetWeb could not start");
  }
  civetweb.set_request_handler(started->context_, "/", &MetricsHttpServer::Handle, started.get());
  std::array<mg_server_port, 2> bound_ports{};
  const int count =
      civetweb.get_server_ports(started->context_, static_cast<int>(bound_ports.size()), bound_ports.data());
  if (count < 1 || bound_ports[0].port <= 0 || bound_ports[0].port > 65535) {
    return LogError(kGpaStatusErrorFailed, "metrics server: CivetWeb reports no listening port for {}:{}", address.host,
                    address.port);
  }
  started->bound_ = {address.host, static_cast<uint16_t>(bound_ports[0].port)};
  if (address.host != "127.0.0.1") {
    Log(kGpaLoggingMessage, "metrics server: listening on {}:{}, reachable from other machines", address.host,
        started->bound_.port);
  }
  *server = std::move(started);
  return kGpaStatusOk;
}

MetricsHttpServer::~MetricsHttpServer() {
  if (context_ != nullptr) LoadCivetWeb().stop(context_);
}

int MetricsHttpServer::Handle(mg_connection* connection, void* server) {
  return static_cast<MetricsHttpServer*>(server)->Answer(connection);
}

int MetricsHttpServer::Answer(mg_connection* connection) {
  const CivetWeb& civetweb = LoadCivetWeb();
  constexpr std::string_view kText = "text/plain; charset=utf-8";
  const mg_request_info* request = civetweb.get_request_info(connection);
  const std::string_view method = request->request_method != nullptr ? request->request_method : "";
  const std::string_view target = request->local_uri_raw != nullptr ? request->local_uri_raw : "";
  const bool head = method == "HEAD";
  if (method != "GET" && !head) {
    Send(civetweb, connection, 405, kText, "only GET and HEAD\n", true, "GET, HEAD");
    return 405;
  }
  if (target != "/metrics") {
    Send(civetweb, connection, 404, kText, "metrics are at /metrics\n", !head);
    return 404;
  }
  const char* accept = civetweb.get_header(connection, "Accept");
  const ExpositionFormat format = NegotiateFormat(accept != nullptr ? accept : "");
  std::string body;
  try {
    body = provider_(format);
  } catch (const std::exception& e) {  // no exception may unwind through CivetWeb's C frames
    Log(kGpaLoggingError, "metrics server: cannot format the metrics: {}", e.what());
    Send(civetweb, connection, 500, kText, "cannot format the metrics\n", !head);
    return 500;
  }
  Send(civetweb, connection, 200, ContentType(format), body, !head);
  answered_.fetch_add(1);
  return 200;
}

}  // namespace opengpa::monitor
