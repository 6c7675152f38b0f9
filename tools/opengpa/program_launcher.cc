#include "program_launcher.h"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

extern char** environ;

namespace opengpa::cli {

bool RunProgram(const std::vector<std::string>& argv, const std::map<std::string, std::string>& environment,
                const std::function<void()>& on_tick, ProgramResult* result, std::string* error) {
  if (argv.empty()) {
    *error = "no program given: put it after --, e.g. opengpa profile --api cl -- ./app";
    return false;
  }
  std::vector<std::string> variables;
  for (char** entry = environ; *entry; ++entry) {
    const std::string text(*entry);
    const std::string name = text.substr(0, text.find('='));
    if (environment.count(name) == 0) variables.push_back(text);
  }
  for (const auto& [name, value] : environment) variables.push_back(name + "=" + value);
  std::vector<char*> envp;
  for (auto& variable : variables) envp.push_back(variable.data());
  envp.push_back(nullptr);
  std::vector<std::string> arguments = argv;
  std::vector<char*> args;
  for (auto& argument : arguments) args.push_back(argument.data());
  args.push_back(nullptr);

  const auto start = std::chrono::steady_clock::now();
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, args[0], nullptr, nullptr, args.data(), envp.data());
  if (spawned != 0) {
    *error = "cannot start " + argv[0] + ": " + std::strerror(spawned);
    return false;
  }
  int status = 0;
  for (;;) {
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (done < 0 && errno != EINTR) {
      *error = std::string("waitpid failed: ") + std::strerror(errno);
      return false;
    }
    if (on_tick) on_tick();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  result->wall_time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (WIFEXITED(status)) {
    result->exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result->exit_code = 128 + WTERMSIG(status);
  }
  return true;
}

}  // namespace opengpa::cli
