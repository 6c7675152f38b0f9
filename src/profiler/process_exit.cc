#include "profiler/process_exit.h"

#include <dlfcn.h>

#include <cstdlib>

#include "platform/this_process.h"

namespace opengpa::inject_cuda {
namespace {

volatile std::sig_atomic_t held_signal = 0;

void RememberSignal(int number) {
  if (held_signal == 0) held_signal = number;
}

bool ProcessIsPythonInterpreter() {
  const std::string executable = ExecutablePath();
  if (executable.empty()) return false;
  const std::string name = executable.substr(executable.rfind('/') + 1);
  return name.rfind("python", 0) == 0;
}

}  // namespace

std::string CallAtProcessExit(void (*finish)()) {
  std::atexit(finish);
  if (!ProcessIsPythonInterpreter()) return {};
  // Declared by Python.h; looked up so that the profiler neither links nor needs Python.
  using PyAtExitFunction = int (*)(void (*)());
  using PyIsInitializedFunction = int (*)();
  auto* py_at_exit = reinterpret_cast<PyAtExitFunction>(dlsym(RTLD_DEFAULT, "Py_AtExit"));
  auto* py_is_initialized = reinterpret_cast<PyIsInitializedFunction>(dlsym(RTLD_DEFAULT, "Py_IsInitialized"));
  if (py_at_exit == nullptr || py_is_initialized == nullptr || py_is_initialized() == 0) return {};
  if (py_at_exit(finish) == 0) return {};
  return "Python's Py_AtExit table is full: if KeyboardInterrupt ends the interpreter, the launches of its last "
         "batch are lost";
}

FatalSignalHold::FatalSignalHold() {
  held_signal = 0;
  for (std::size_t i = 0; i < std::size(kSignals); ++i) {
    if (sigaction(kSignals[i], nullptr, &previous_[i]) != 0 || previous_[i].sa_handler != SIG_DFL ||
        (previous_[i].sa_flags & SA_SIGINFO) != 0) {
      continue;
    }
    struct sigaction hold {};
    hold.sa_handler = &RememberSignal;
    sigemptyset(&hold.sa_mask);
    installed_[i] = sigaction(kSignals[i], &hold, nullptr) == 0;
  }
}

FatalSignalHold::~FatalSignalHold() {
  for (std::size_t i = 0; i < std::size(kSignals); ++i) {
    if (installed_[i]) sigaction(kSignals[i], &previous_[i], nullptr);
  }
  if (held_signal != 0) raise(held_signal);  // its default action again: the process ends as it would have
}

}  // namespace opengpa::inject_cuda
