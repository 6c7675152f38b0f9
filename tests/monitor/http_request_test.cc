#include "monitor/http_request.h"

#include <gtest/gtest.h>

#include <string>

namespace opengpa::monitor {
namespace {

TEST(ParseRequestHead, WaitsForTheBlankLineThenReadsMethodTargetVersionAndAccept) {
  HttpRequestHead head;
  EXPECT_EQ(ParseRequestHead("GET /metrics HTTP/1.1\r\nAccept: x", 8192, &head), HeadParse::kIncomplete);
  EXPECT_EQ(ParseRequestHead("GET /metrics HTTP/1.1\r\nAccept: x\r\n", 8192, &head), HeadParse::kIncomplete);
  ASSERT_EQ(ParseRequestHead("GET /metrics?a=1 HTTP/1.1\r\nHost: h\r\naCCEPT:  text/plain \r\nAccept: other\r\n\r\n",
                             8192, &head),
            HeadParse::kComplete);
  EXPECT_EQ(head.method, "GET");
  EXPECT_EQ(head.target, "/metrics?a=1");
  EXPECT_EQ(head.minor_version, 1);
  EXPECT_EQ(head.accept, "text/plain");  // the first Accept, trimmed, whatever the name's case
}

TEST(ParseRequestHead, AcceptsBareLineFeedsAndHttp10WithoutHeaders) {
  HttpRequestHead head;
  ASSERT_EQ(ParseRequestHead("HEAD /metrics HTTP/1.0\n\n", 8192, &head), HeadParse::kComplete);
  EXPECT_EQ(head.method, "HEAD");
  EXPECT_EQ(head.minor_version, 0);
  EXPECT_EQ(head.accept, "");
}

TEST(ParseRequestHead, RefusesWhatIsNotStrictHttp1) {
  for (const char* bad : {"GET /metrics\r\n\r\n", "GET  /metrics HTTP/1.1\r\n\r\n", "GET /metrics HTTP/1.1 \r\n\r\n",
                          "GET http://x/metrics HTTP/1.1\r\n\r\n", "GET /a\x01 HTTP/1.1\r\n\r\n",
                          "GET /metrics http/1.1\r\n\r\n", "GET /metrics HTTP/1.10\r\n\r\n",
                          "GET /metrics HTTP/1.1\r\n: no name\r\n\r\n", "GET /metrics HTTP/1.1\r\nX\x7fY: v\r\n\r\n",
                          "GET /metrics HTTP/1.1\r\nX: a\x02"
                          "b\r\n\r\n",
                          "\r\n\r\n"}) {
    HttpRequestHead head;
    EXPECT_EQ(ParseRequestHead(bad, 8192, &head), HeadParse::kMalformed) << bad;
  }
}

TEST(ParseRequestHead, OtherWellFormedVersionsAreUnsupportedNotMalformed) {
  HttpRequestHead head;
  EXPECT_EQ(ParseRequestHead("GET /metrics HTTP/2.0\r\n\r\n", 8192, &head), HeadParse::kVersionUnsupported);
  EXPECT_EQ(ParseRequestHead("GET /metrics HTTP/1.2\r\n\r\n", 8192, &head), HeadParse::kVersionUnsupported);
  EXPECT_EQ(ParseRequestHead("GET /metrics HTTP/0.9\r\n\r\n", 8192, &head), HeadParse::kVersionUnsupported);
}

TEST(ParseRequestHead, AHeadLongerThanTheLimitIsTooLargeWhetherOrNotItEnded) {
  HttpRequestHead head;
  const std::string long_header = "GET /metrics HTTP/1.1\r\nX: " + std::string(200, 'a');
  EXPECT_EQ(ParseRequestHead(long_header, 100, &head), HeadParse::kTooLarge);
  EXPECT_EQ(ParseRequestHead(long_header + "\r\n\r\n", 100, &head), HeadParse::kTooLarge);
  EXPECT_EQ(ParseRequestHead(long_header + "\r\n\r\n", 8192, &head), HeadParse::kComplete);
}

TEST(HttpAnswer, HasTheServersOwnVersionALengthAndClosesTheConnection) {
  EXPECT_EQ(HttpAnswer(200, 1, "text/plain", "body", true),
            "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 4\r\nConnection: close\r\n\r\nbody");
  EXPECT_EQ(HttpAnswer(200, 0, "text/plain", "body", false),
            "HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 4\r\nConnection: close\r\n\r\n");
  EXPECT_EQ(HttpAnswer(405, 1, "t", "", true, "GET, HEAD"),
            "HTTP/1.1 405 Method Not Allowed\r\nContent-Type: t\r\nContent-Length: 0\r\nConnection: close\r\n"
            "Allow: GET, HEAD\r\n\r\n");
}

}  // namespace
}  // namespace opengpa::monitor
