#include "program_launcher.h"

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <iterator>
#include <thread>

extern char** environ;

namespace opengpa::cli {
namespace {

// The running child, for the signal handler; 0 when none.
std::atomic<pid_t> running_child{0};
std::atomic<int> interrupting_signal{0};
constexpr int kForwardedSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

// Ctrl-C at a terminal reaches the whole foreground process group, the program included, so only a signal
// sent to opengpa alone (kill(2): SI_USER, SI_QUEUE) is passed on; either way opengpa itself waits for the
// program and keeps what it collected.
void ForwardSignal(int signal_number, siginfo_t* info, void*) {
  interrupting_signal = signal_number;
  const pid_t child = running_child;
  if (child > 0 && info != nullptr && (info->si_code == SI_USER || info->si_code == SI_QUEUE)) {
    kill(child, signal_number);
  }
}

// Installs ForwardSignal for the life of the object and restores the previous handlers after.
class SignalForwarding {
 public:
  SignalForwarding() {
    struct sigaction action {};
    action.sa_sigaction = &ForwardSignal;
    action.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&action.sa_mask);
    for (std::size_t i = 0; i < std::size(kForwardedSignals); ++i)
      sigaction(kForwardedSignals[i], &action, &previous_[i]);
  }
  ~SignalForwarding() {
    for (std::size_t i = 0; i < std::size(kForwardedSignals); ++i)
      sigaction(kForwardedSignals[i], &previous_[i], nullptr);
  }

 private:
  struct sigaction previous_[std::size(kForwardedSignals)]{};
};

}  // namespace

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
  interrupting_signal = 0;
  SignalForwarding forwarding;
  const int spawned = posix_spawnp(&pid, args[0], nullptr, nullptr, args.data(), envp.data());
  if (spawned != 0) {
    *error = "program " + argv[0] + ": " + std::strerror(spawned);
    return false;
  }
  running_child = pid;
  int status = 0;
  for (;;) {
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (done < 0 && errno != EINTR) {
      running_child = 0;
      *error = std::string("waitpid failed: ") + std::strerror(errno);
      return false;
    }
    if (on_tick) on_tick();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  running_child = 0;
  result->interrupted_by = interrupting_signal;
  result->wall_time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (WIFEXITED(status)) {
    result->exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result->exit_code = 128 + WTERMSIG(status);
  }
  return true;
}

}  // namespace opengpa::cli
