// `opengpa`: the command-line front end. Subcommands register themselves (command_registry.h), so this
// file only builds the parser and dispatches.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <memory>
#include <vector>

#include "command_registry.h"

int main(int argc, char** argv) {
  CLI::App app{"opengpa: GPU performance counters through the GPA v3 API (list, passes, profile)", "opengpa"};
  app.require_subcommand(1);

  std::vector<opengpa::cli::RunFunction> runs(opengpa::cli::RegisteredCommands().size());
  std::vector<CLI::App*> subcommands;
  for (std::size_t i = 0; i < opengpa::cli::RegisteredCommands().size(); ++i) {
    const auto& spec = opengpa::cli::RegisteredCommands()[i];
    CLI::App* command = app.add_subcommand(spec.name, spec.summary);
    spec.set_up(*command, &runs[i]);
    subcommands.push_back(command);
  }

  CLI11_PARSE(app, argc, argv);

  for (std::size_t i = 0; i < subcommands.size(); ++i) {
    if (subcommands[i]->parsed() && runs[i]) return runs[i]();
  }
  std::fprintf(stderr, "opengpa: no subcommand selected (see --help)\n");
  return 2;
}
