#include "output_name.h"

#include <unistd.h>

#include <algorithm>

#include "platform/this_process.h"

namespace opengpa::cli {
namespace {

// Walks `pattern`, calling `literal(text)` for plain text and `key(letter, variable)` for each key; false and
// *error at the first malformed key.
template <typename Literal, typename Key>
bool Walk(const std::string& pattern, Literal literal, Key key, std::string* error) {
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '%') {
      literal(std::string(1, pattern[i]));
      continue;
    }
    if (i + 1 >= pattern.size()) {
      *error = "-o " + pattern + ": a lone % at the end (write %% for a literal %)";
      return false;
    }
    const char letter = pattern[++i];
    if (letter == '%') {
      literal("%");
    } else if (letter == 'p' || letter == 'r' || letter == 'h' || letter == 'i') {
      key(letter, std::string());
    } else if (letter == 'q') {
      const std::size_t close = pattern.find('}', i + 1);
      if (i + 1 >= pattern.size() || pattern[i + 1] != '{' || close == std::string::npos || close == i + 2) {
        *error = "-o " + pattern + ": %q takes a variable name in braces, %q{NAME}";
        return false;
      }
      key('q', pattern.substr(i + 2, close - i - 2));
      i = close;
    } else {
      *error = "-o " + pattern + ": unknown key %" + std::string(1, letter) +
               " (keys: %p pid, %r rank, %h host, %q{NAME} environment variable, %i index, %% a literal %)";
      return false;
    }
  }
  return true;
}

}  // namespace

bool ParseOutputName(const std::string& pattern, OutputNameKeys* keys, std::string* error) {
  OutputNameKeys parsed;
  const bool ok = Walk(
      pattern, [](const std::string&) {},
      [&parsed](char letter, const std::string& variable) {
        if (letter == 'p') parsed.pid = true;
        if (letter == 'r') parsed.rank = true;
        if (letter == 'i') parsed.index = true;
        if (letter == 'q' &&
            std::find(parsed.variables.begin(), parsed.variables.end(), variable) == parsed.variables.end()) {
          parsed.variables.push_back(variable);
        }
      },
      error);
  if (ok) *keys = std::move(parsed);
  return ok;
}

std::string ExpandOutputName(const std::string& pattern, const OutputNameValues& values) {
  std::string name;
  std::string ignored;
  Walk(
      pattern, [&name](const std::string& text) { name += text; },
      [&name, &values](char letter, const std::string& variable) {
        switch (letter) {
          case 'p': name += values.pid; break;
          case 'r': name += values.rank; break;
          case 'h': name += values.host; break;
          case 'i': name += values.index; break;
          case 'q': name += values.variable ? values.variable(variable) : std::string(); break;
          default: break;
        }
      },
      &ignored);
  return name;
}

std::string HostName() {
  const std::string host = opengpa::HostName();
  return host.empty() ? "localhost" : host;
}

}  // namespace opengpa::cli
