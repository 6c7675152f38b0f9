// The keys of `opengpa profile -o NAME`, ncu's spellings where ncu has one:
//   %p        the process id (one report per process)
//   %r        the process's rank in its job: RANK, OMPI_COMM_WORLD_RANK, PMI_RANK or SLURM_PROCID, the first set
//             ("none" where none is; one report per rank, processes of one rank share it)
//   %h        the host name
//   %q{NAME}  the value of the environment variable NAME (the process's own, in a report per process; empty when
//             unset)
//   %i        the smallest index from 0 that makes the report's names new (nothing existing is replaced)
//   %%        a literal %
// Any other % sequence is a usage error, found before the program runs.
#ifndef OPENGPA_TOOLS_OPENGPA_OUTPUT_NAME_H_
#define OPENGPA_TOOLS_OPENGPA_OUTPUT_NAME_H_

#include <functional>
#include <string>
#include <vector>

namespace opengpa::cli {

struct OutputNameKeys {
  bool pid = false;
  bool rank = false;
  bool index = false;
  std::vector<std::string> variables;  // the NAMEs of %q{NAME}, each once, in order
  // One report per process (or per rank): the name tells processes apart.
  bool PerProcess() const { return pid || rank; }
};

// False and *error naming the key and the name when `pattern` holds an unknown key or an unclosed %q{.
bool ParseOutputName(const std::string& pattern, OutputNameKeys* keys, std::string* error);

struct OutputNameValues {
  std::string pid;
  std::string rank;
  std::string host;
  std::string index;
  std::function<std::string(const std::string&)> variable;  // NAME -> value ("" when unset)
};

// `pattern` (already parsed) with its keys replaced by `values`.
std::string ExpandOutputName(const std::string& pattern, const OutputNameValues& values);

// The name of this host (gethostname), "localhost" where it cannot be read.
std::string HostName();

}  // namespace opengpa::cli

#endif  // OPENGPA_TOOLS_OPENGPA_OUTPUT_NAME_H_
