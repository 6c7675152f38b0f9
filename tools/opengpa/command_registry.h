// Each `opengpa` subcommand lives in its own file and registers itself here, so commands can be
// added without touching main.cc:
//
//   static const bool registered = opengpa::cli::RegisterCommand({"list", "List counters", &SetUpList});
//
// SetUp adds the subcommand's options to `command` and sets `*run` to what executes it; run returns the exit code.
#ifndef OPENGPA_TOOLS_OPENGPA_COMMAND_REGISTRY_H_
#define OPENGPA_TOOLS_OPENGPA_COMMAND_REGISTRY_H_

#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

namespace opengpa::cli {

using RunFunction = std::function<int()>;

struct CommandSpec {
  std::string name;
  std::string summary;
  void (*set_up)(CLI::App& command, RunFunction* run);
};

inline std::vector<CommandSpec>& RegisteredCommands() {
  static std::vector<CommandSpec> commands;
  return commands;
}

inline bool RegisterCommand(CommandSpec spec) {
  RegisteredCommands().push_back(std::move(spec));
  return true;
}

}  // namespace opengpa::cli

#endif  // OPENGPA_TOOLS_OPENGPA_COMMAND_REGISTRY_H_
