// What the CLI knows of the terminal it prints to: its width, for tables that fit (text_table.h), and
// whether progress lines can redraw themselves.
#ifndef OPENGPA_TOOLS_OPENGPA_TERMINAL_H_
#define OPENGPA_TOOLS_OPENGPA_TERMINAL_H_

#include <cstddef>

namespace opengpa::cli {

// Width for tables on stdout: $COLUMNS when set to a number, else the terminal's width when stdout is a
// terminal, else 0 (no limit: a pipe or a file gets whole lines).
std::size_t StdoutWidth();

// True when stderr is a terminal (progress may redraw its line with '\r').
bool StderrIsTerminal();

}  // namespace opengpa::cli

#endif  // OPENGPA_TOOLS_OPENGPA_TERMINAL_H_
