// The HTTP/1.x of the metrics endpoint: reading a request head (request line and headers) as its bytes
// arrive, and writing an answer. Only what a scrape endpoint needs: the method, the target, the version and
// the Accept header; no bodies are read (a request with one gets 405, and the connection closes after every
// answer).
//
// Strict on purpose: the request line is exactly "METHOD SP TARGET SP HTTP/d.d" with a token method and an
// origin-form target ("/..." without spaces or control characters); each header line is "name: value" with a
// token name. Anything else is malformed (400); HTTP/1.0 and 1.1 are served, any other well-formed version
// gets 505. An answer's status line never repeats what the client sent: it is HTTP/1.1 for an HTTP/1.1
// request and HTTP/1.0 otherwise.
#ifndef OPENGPA_MONITOR_HTTP_REQUEST_H_
#define OPENGPA_MONITOR_HTTP_REQUEST_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace opengpa::monitor {

struct HttpRequestHead {
  std::string method;
  std::string target;     // as sent, query string included
  int minor_version = 0;  // HTTP/1.<minor_version>
  std::string accept;     // the first Accept header's value; empty when none
};

enum class HeadParse {
  kIncomplete,  // no end of the head yet: wait for more bytes (within the size limit)
  kComplete,
  kMalformed,           // 400
  kTooLarge,            // the head exceeds the limit: 400
  kVersionUnsupported,  // a well-formed version other than HTTP/1.0 and 1.1: 505
};

// Reads the head from the bytes received so far. `max_head_bytes` bounds the request line plus headers.
HeadParse ParseRequestHead(std::string_view received, std::size_t max_head_bytes, HttpRequestHead* head);

// A whole answer: status line, Content-Type, Content-Length, Connection: close, optional Allow, blank line,
// then the body unless `include_body` is false (HEAD). `minor_version` is the request's (0 when unknown).
std::string HttpAnswer(int status, int minor_version, std::string_view content_type, std::string_view body,
                       bool include_body, std::string_view allow = {});

}  // namespace opengpa::monitor

#endif  // OPENGPA_MONITOR_HTTP_REQUEST_H_
