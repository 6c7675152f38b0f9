// `opengpa`: the command-line front end. Subcommands register themselves (command_registry.h), so this
// file only builds the parser and dispatches.
//
// Exit codes follow ncu's: 0 success (and --help, --version), 2 a usage error (unknown command or
// option, bad value: CLI11's own codes 105, 106, ... are folded into 2), 1 a failure while running;
// `profile` returns the profiled program's own code when the program ran and failed.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "command_registry.h"
#include "name_matching.h"

#ifndef OPENGPA_VERSION
#define OPENGPA_VERSION "unknown"
#endif

namespace {

// The subcommand `word` names, or "" when it names none (CLI11 would only say "A subcommand is required").
std::string UnknownCommandMessage(const std::string& word) {
  std::vector<std::string> names;
  for (const auto& spec : opengpa::cli::RegisteredCommands()) names.push_back(spec.name);
  std::string message = "opengpa: unknown command '" + opengpa::cli::Quoted(word) + "' (commands: ";
  for (std::size_t i = 0; i < names.size(); ++i) message += (i ? ", " : "") + names[i];
  message += ")";
  if (const auto near = opengpa::cli::ClosestName(word, names)) message += "; did you mean '" + *near + "'?";
  return message;
}

// CLI11's message with every long word elided (name_matching.h's Quoted): it quotes what was typed, and a
// megabyte of argument must not come back whole.
std::string BoundedMessage(const std::string& message) {
  std::string bounded;
  std::size_t start = 0;
  while (start < message.size()) {
    std::size_t end = message.find_first_of(" \n", start);
    if (end == std::string::npos) end = message.size();
    bounded += opengpa::cli::Quoted(std::string_view(message).substr(start, end - start), 120);
    if (end < message.size()) bounded += message[end];
    start = end + 1;
  }
  return bounded;
}

int Main(int argc, char** argv) {
  CLI::App app{"opengpa: GPU performance counters through the GPA v3 API (list, passes, profile, monitor)", "opengpa"};
  app.set_version_flag("--version", "opengpa " OPENGPA_VERSION " (OpenGPA, GPA v3 API)");
  app.require_subcommand(1);

  std::vector<opengpa::cli::RunFunction> runs(opengpa::cli::RegisteredCommands().size());
  std::vector<CLI::App*> subcommands;
  for (std::size_t i = 0; i < opengpa::cli::RegisteredCommands().size(); ++i) {
    const auto& spec = opengpa::cli::RegisteredCommands()[i];
    CLI::App* command = app.add_subcommand(spec.name, spec.summary);
    spec.set_up(*command, &runs[i]);
    subcommands.push_back(command);
  }

  if (argc > 1 && argv[1][0] != '-') {
    bool known = false;
    for (const auto& spec : opengpa::cli::RegisteredCommands()) known = known || spec.name == argv[1];
    if (!known) {
      std::fprintf(stderr, "%s\n", UnknownCommandMessage(argv[1]).c_str());
      return 2;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& done) {  // --help, --version
    return app.exit(done);
  } catch (const CLI::ParseError& error) {
    std::fprintf(stderr, "%s\nRun with --help for more information.\n", BoundedMessage(error.what()).c_str());
    return 2;
  }

  for (std::size_t i = 0; i < subcommands.size(); ++i) {
    if (subcommands[i]->parsed() && runs[i]) return runs[i]();
  }
  std::fprintf(stderr, "opengpa: no subcommand selected (see --help)\n");
  return 2;
}

}  // namespace

// The boundary: an exception no command caught (std::bad_alloc, a bug) is reported as a failure while running
// (exit code 1) instead of ending the process through std::terminate.
int main(int argc, char** argv) {
  try {
    return Main(argc, argv);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "opengpa: internal error: %s\n", error.what());
  } catch (...) {
    std::fprintf(stderr, "opengpa: internal error (an exception of unknown type)\n");
  }
  return 1;
}
