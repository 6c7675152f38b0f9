#include "program_launcher.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "signal_guard.h"

extern char** environ;

namespace opengpa::cli {
namespace {

// The executable posix_spawnp would run for `name`: a name with a slash as it is, else the first executable
// regular file of that name in $PATH. Empty when none (errno-style reason in *error_number).
std::string FindExecutable(const std::string& name, int* error_number) {
  if (name.find('/') != std::string::npos) return name;
  const char* path = std::getenv("PATH");
  const std::string folders = path != nullptr && *path != '\0' ? path : "/usr/local/bin:/usr/bin:/bin";
  *error_number = ENOENT;
  for (std::size_t start = 0; start <= folders.size();) {
    const std::size_t colon = std::min(folders.find(':', start), folders.size());
    const std::string folder = colon > start ? folders.substr(start, colon - start) : ".";
    std::string candidate = folder;
    candidate.append("/").append(name);
    struct stat file {};
    if (stat(candidate.c_str(), &file) == 0 && S_ISREG(file.st_mode)) {
      if (access(candidate.c_str(), X_OK) == 0) return candidate;
      *error_number = EACCES;
    }
    start = colon + 1;
  }
  return {};
}

// A descriptor that becomes readable when process `pid` ends (pidfd_open, Linux 5.3), so that the wait between
// ticks ends with the program instead of up to a tick later (a profile's outputs are written only then); -1 where
// the kernel has none, and the ticks alone say when it ended.
int OpenProcessDescriptor(pid_t pid) {
#ifdef SYS_pidfd_open
  return static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
#else
  static_cast<void>(pid);
  return -1;
#endif
}

// Until the next tick, or earlier when `descriptor` (OpenProcessDescriptor's) says the process ended.
void WaitForTick(int descriptor, std::chrono::milliseconds tick) {
  if (descriptor < 0) {
    std::this_thread::sleep_for(tick);
    return;
  }
  pollfd ended{descriptor, POLLIN, 0};
  static_cast<void>(poll(&ended, 1, static_cast<int>(tick.count())));  // EINTR: the caller looks and comes back
}

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
  for (const auto& [name, value] : environment) variables.emplace_back(name).append("=").append(value);
  std::vector<char*> envp;
  envp.reserve(variables.size() + 1);
  for (auto& variable : variables) envp.push_back(variable.data());
  envp.push_back(nullptr);
  std::vector<std::string> arguments = argv;
  std::vector<char*> args;
  args.reserve(arguments.size() + 1);
  for (auto& argument : arguments) args.push_back(argument.data());
  args.push_back(nullptr);

  int lookup_error = 0;
  std::string executable = FindExecutable(argv[0], &lookup_error);
  if (executable.empty()) {
    *error = "program " + argv[0] + ": " + std::strerror(lookup_error);
    return false;
  }
  // A file without a #! line runs under /bin/sh, as execvp and posix_spawnp run it.
  std::string shell = "/bin/sh";
  std::vector<char*> shell_args = {shell.data(), executable.data()};
  shell_args.insert(shell_args.end(), args.begin() + 1, args.end());

  const auto start = std::chrono::steady_clock::now();
  SignalGuard held;  // signals to opengpa alone reach the program; none ends opengpa (signal_guard.h)
  const int received_before = SignalGuard::Received();
  int exec_status[2];
  if (pipe2(exec_status, O_CLOEXEC) != 0) {
    *error = std::string("cannot start the program: pipe: ") + std::strerror(errno);
    return false;
  }
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid == 0) {
    // The child, until exec: async-signal-safe calls only. If opengpa dies (even by SIGKILL), the program is
    // killed too rather than left running unprofiled with no one to read its stream (issue 35, N5).
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);  // opengpa died before the line above
    execve(executable.c_str(), args.data(), envp.data());
    int exec_error = errno;
    if (exec_error == ENOEXEC) {
      execve(shell.c_str(), shell_args.data(), envp.data());
      exec_error = errno;
    }
    const ssize_t written = write(exec_status[1], &exec_error, sizeof exec_error);
    (void)written;
    _exit(127);
  }
  close(exec_status[1]);
  if (pid < 0) {
    close(exec_status[0]);
    *error = std::string("cannot start the program: fork: ") + std::strerror(errno);
    return false;
  }
  int exec_error = 0;
  ssize_t got = 0;
  do {
    got = read(exec_status[0], &exec_error, sizeof exec_error);
  } while (got < 0 && errno == EINTR);
  close(exec_status[0]);
  if (got == static_cast<ssize_t>(sizeof exec_error)) {  // exec failed; the child has exited
    waitpid(pid, nullptr, 0);
    *error = "program " + argv[0] + ": " + std::strerror(exec_error);
    return false;
  }
  SignalGuard::SetProgram(pid);
  result->pid = pid;
  const int ended = OpenProcessDescriptor(pid);
  int status = 0;
  for (;;) {
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (done < 0 && errno != EINTR) {
      SignalGuard::SetProgram(0);
      if (ended >= 0) close(ended);
      *error = std::string("waitpid failed: ") + std::strerror(errno);
      return false;
    }
    if (on_tick) on_tick();
    WaitForTick(ended, std::chrono::milliseconds(50));
  }
  if (ended >= 0) close(ended);
  SignalGuard::SetProgram(0);
  result->interrupted_by = SignalGuard::Received() != received_before ? SignalGuard::Last() : 0;
  result->wall_time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (WIFEXITED(status)) {
    result->exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result->exit_code = 128 + WTERMSIG(status);
  }
  return true;
}

}  // namespace opengpa::cli
