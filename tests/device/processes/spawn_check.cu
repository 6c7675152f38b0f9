// A CUDA program that starts a CUDA child the ways launchers do, for run.sh:
//   spawn_check parent N M METHOD [NAME=VALUE | -NAME]...   N launches, the child (M launches), N launches more
//   spawn_check child M                                      M launches
// METHOD: posix_spawn (glibc's is clone(CLONE_VM|CLONE_VFORK): no fork handlers run), vfork (then exec), fork
// (then exec), concurrent (posix_spawn, then rounds of 10 launches for as long as the child runs, so that both
// processes launch on the GPU at the same time; the parent prints how many it made), orphan (posix_spawn, then the
// parent exits at once, without waiting, while the child is still starting: the child outlives the program's own
// process, and its exit status is not the parent's to check). The child gets this process's
// environment with NAME=VALUE set and -NAME removed (to make a child the profiler cannot measure). Exits 0 when
// every launch of both ran and the child exited 0.
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

extern "C" int launch_kernels(const char* which, int count);
extern char** environ;

int main(int argc, char** argv) {
  if (argc >= 3 && std::strcmp(argv[1], "child") == 0) return launch_kernels("child", std::atoi(argv[2]));
  if (argc < 5 || std::strcmp(argv[1], "parent") != 0) {
    std::fprintf(stderr,
                 "usage: %s parent N M posix_spawn|vfork|fork|concurrent|orphan [NAME=VALUE|-NAME]... | child M\n",
                 argv[0]);
    return 2;
  }
  const int n = std::atoi(argv[2]);
  const std::string method = argv[4];
  if (launch_kernels("parent", n) != 0) return 1;
  std::vector<std::string> variables;
  for (char** entry = environ; *entry != nullptr; ++entry) variables.push_back(*entry);
  for (int i = 5; i < argc; ++i) {
    const std::string change = argv[i];
    const std::string name = change[0] == '-' ? change.substr(1) : change.substr(0, change.find('='));
    for (auto it = variables.begin(); it != variables.end();) {
      it = it->compare(0, name.size() + 1, name + "=") == 0 ? variables.erase(it) : it + 1;
    }
    if (change[0] != '-') variables.push_back(change);
  }
  std::vector<char*> envp;
  for (auto& variable : variables) envp.push_back(variable.data());
  envp.push_back(nullptr);
  std::string self = "/proc/self/exe";
  char resolved[4096] = {};
  const ssize_t length = readlink(self.c_str(), resolved, sizeof resolved - 1);
  if (length > 0) self.assign(resolved, static_cast<std::size_t>(length));
  std::string child_word = "child";
  std::string m = argv[3];
  char* child_argv[] = {self.data(), child_word.data(), m.data(), nullptr};
  pid_t pid = -1;
  if (method == "posix_spawn" || method == "concurrent" || method == "orphan") {
    if (posix_spawn(&pid, self.c_str(), nullptr, nullptr, child_argv, envp.data()) != 0) pid = -1;
  } else if (method == "vfork") {
    pid = vfork();
    if (pid == 0) {
      execve(self.c_str(), child_argv, envp.data());
      _exit(127);
    }
  } else if (method == "fork") {
    pid = fork();
    if (pid == 0) {
      execve(self.c_str(), child_argv, envp.data());
      _exit(127);
    }
  }
  if (pid < 0) {
    std::fprintf(stderr, "cannot start the child with %s\n", method.c_str());
    return 1;
  }
  int launched = n;
  int status = 0;
  if (method == "orphan") {
    std::printf("parent %d: %d launches; child %d (orphan): not waited for\n", getpid(), launched, pid);
    return 0;
  }
  if (method == "concurrent") {
    // Rounds of 10 launches for as long as the child runs (at least one): both processes launch at once.
    do {
      if (launch_kernels("parent", 10) != 0) return 1;
      launched += 10;
    } while (waitpid(pid, &status, WNOHANG) == 0);
  } else {
    waitpid(pid, &status, 0);
    if (launch_kernels("parent", n) != 0) return 1;
    launched += n;
  }
  const bool child_ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  std::printf("parent %d: %d launches; child %d (%s): exit %d\n", getpid(), launched, pid, method.c_str(),
              WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  return child_ok ? 0 : 1;
}
