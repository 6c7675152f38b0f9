#include "signal_guard.h"

#include <atomic>
#include <csignal>

namespace opengpa::cli {
namespace {

std::atomic<pid_t> program_pid{0};
std::atomic<int> received{0};
std::atomic<int> last{0};
std::atomic<int> unpassed{0};  // the last signal that arrived while no program ran, for the next one

// Async-signal-safe: atomics and kill(2) only.
void Hold(int signal_number, siginfo_t* info, void*) {
  last = signal_number;
  ++received;
  const pid_t program = program_pid;
  if (program <= 0) {
    unpassed = signal_number;
  } else if (info != nullptr && (info->si_code == SI_USER || info->si_code == SI_QUEUE)) {
    kill(program, signal_number);
  }
}

struct sigaction HoldAction() {
  struct sigaction action {};
  action.sa_sigaction = &Hold;
  action.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&action.sa_mask);
  return action;
}

}  // namespace

SignalGuard::SignalGuard() {
  const struct sigaction action = HoldAction();
  for (std::size_t i = 0; i < std::size(kSignals); ++i) sigaction(kSignals[i], &action, &previous_[i]);
}

void SignalGuard::HoldUntilExit() {
  const struct sigaction action = HoldAction();
  for (const int signal_number : kSignals) sigaction(signal_number, &action, nullptr);
}

SignalGuard::~SignalGuard() {
  for (std::size_t i = 0; i < std::size(kSignals); ++i) sigaction(kSignals[i], &previous_[i], nullptr);
}

int SignalGuard::Received() { return received.load(); }

int SignalGuard::Last() { return last.load(); }

void SignalGuard::SetProgram(pid_t program) {
  program_pid = program;  // first: a signal from now on is passed on by the handler, not left for the exchange
  const int missed = unpassed.exchange(0);
  if (program > 0 && missed != 0) kill(program, missed);
}

}  // namespace opengpa::cli
