#include "monitor/http_request.h"

#include <cctype>
#include <string>

#include "platform/text_affixes.h"

namespace opengpa::monitor {
namespace {

// RFC 9110's tchar.
bool IsTokenChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) ||
         std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

bool IsToken(std::string_view text) {
  if (text.empty()) return false;
  for (char c : text) {
    if (!IsTokenChar(c)) return false;
  }
  return true;
}

// Origin form: "/" then visible ASCII (no space, no control character, nothing above 0x7e).
bool IsOriginTarget(std::string_view target) {
  if (target.empty() || target[0] != '/') return false;
  for (char c : target) {
    const auto u = static_cast<unsigned char>(c);
    if (u <= 0x20 || u >= 0x7f) return false;
  }
  return true;
}

std::string_view TrimSpaces(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

// The next line of `text` (without its CRLF or LF), advancing `text` past it.
std::string_view NextLine(std::string_view* text) {
  const std::size_t newline = text->find('\n');
  std::string_view line = text->substr(0, newline);
  text->remove_prefix(newline == std::string_view::npos ? text->size() : newline + 1);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

const char* Reason(int status) {
  switch (status) {
    case 200: return "OK";
    case 400: return "Bad Request";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 500: return "Internal Server Error";
    case 505: return "HTTP Version Not Supported";
    default: return "Error";
  }
}

}  // namespace

HeadParse ParseRequestHead(std::string_view received, std::size_t max_head_bytes, HttpRequestHead* head) {
  // The head ends at the first empty line (CRLF CRLF, or LF LF from lenient clients).
  std::size_t end = received.find("\r\n\r\n");
  std::size_t end_length = 4;
  const std::size_t lf_end = received.find("\n\n");
  if (lf_end != std::string_view::npos && (end == std::string_view::npos || lf_end < end)) {
    end = lf_end;
    end_length = 2;
  }
  if (end == std::string_view::npos) {
    return received.size() > max_head_bytes ? HeadParse::kTooLarge : HeadParse::kIncomplete;
  }
  if (end + end_length > max_head_bytes) return HeadParse::kTooLarge;
  std::string_view text = received.substr(0, end + 1);  // the last header line keeps its line end

  const std::string_view request_line = NextLine(&text);
  const std::size_t first_space = request_line.find(' ');
  const std::size_t second_space =
      first_space == std::string_view::npos ? std::string_view::npos : request_line.find(' ', first_space + 1);
  if (second_space == std::string_view::npos) return HeadParse::kMalformed;
  const std::string_view method = request_line.substr(0, first_space);
  const std::string_view target = request_line.substr(first_space + 1, second_space - first_space - 1);
  const std::string_view version = request_line.substr(second_space + 1);
  if (!IsToken(method) || !IsOriginTarget(target)) return HeadParse::kMalformed;
  if (version.size() != 8 || version.substr(0, 5) != "HTTP/" || !std::isdigit(static_cast<unsigned char>(version[5])) ||
      version[6] != '.' || !std::isdigit(static_cast<unsigned char>(version[7]))) {
    return HeadParse::kMalformed;
  }

  HttpRequestHead parsed;
  bool have_accept = false;
  while (!text.empty()) {
    const std::string_view line = NextLine(&text);
    if (line.empty()) break;
    const std::size_t colon = line.find(':');
    // No colon, a name that is not a token, or a folded continuation line (leading space): malformed.
    if (colon == std::string_view::npos || !IsToken(line.substr(0, colon))) return HeadParse::kMalformed;
    for (char c : line) {
      if (static_cast<unsigned char>(c) < 0x20 && c != '\t') return HeadParse::kMalformed;
    }
    if (!have_accept && EqualsIgnoringCase(line.substr(0, colon), "Accept")) {
      parsed.accept = std::string(TrimSpaces(line.substr(colon + 1)));
      have_accept = true;
    }
  }
  if (version[5] != '1' || (version[7] != '0' && version[7] != '1')) return HeadParse::kVersionUnsupported;
  parsed.method = std::string(method);
  parsed.target = std::string(target);
  parsed.minor_version = version[7] - '0';
  *head = std::move(parsed);
  return HeadParse::kComplete;
}

std::string HttpAnswer(int status, int minor_version, std::string_view content_type, std::string_view body,
                       bool include_body, std::string_view allow) {
  std::string answer = minor_version == 1 ? "HTTP/1.1 " : "HTTP/1.0 ";
  answer += std::to_string(status);
  answer += ' ';
  answer += Reason(status);
  answer += "\r\nContent-Type: ";
  answer += content_type;
  answer += "\r\nContent-Length: ";
  answer += std::to_string(body.size());
  answer += "\r\nConnection: close\r\n";
  if (!allow.empty()) {
    answer += "Allow: ";
    answer += allow;
    answer += "\r\n";
  }
  answer += "\r\n";
  if (include_body) answer += body;
  return answer;
}

}  // namespace opengpa::monitor
