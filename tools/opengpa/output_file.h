// Where a command writes: stdout, or the file named by -o/--output.
//
// Paths are checked before any work (CheckOutputPath): the folder must exist and be writable, a
// directory is refused, and an existing file is replaced only with -f/--force. Every failure names the
// option, the path and the reason (errno text). Write errors (a full disk, /dev/full) are reported when
// the file is finished, never silently.
#ifndef OPENGPA_TOOLS_OPENGPA_OUTPUT_FILE_H_
#define OPENGPA_TOOLS_OPENGPA_OUTPUT_FILE_H_

#include <fstream>
#include <iostream>
#include <memory>
#include <string>

namespace opengpa::cli {

// Empty path or "-" is stdout and always passes. `option` is how the user named it ("-o", "--csv").
bool CheckOutputPath(const std::string& option, const std::string& path, bool force, std::string* error);

class OutputFile {
 public:
  // Checks the path (CheckOutputPath) and opens it; on failure Stream() is null and *error says why.
  OutputFile(const std::string& option, const std::string& path, bool force, std::string* error);

  std::ostream* Stream();
  // Flushes and closes; false and *error (option, path, reason) when anything could not be written.
  bool Finish(std::string* error);

 private:
  std::string option_;
  std::string path_;
  std::unique_ptr<std::ofstream> file_;
  bool failed_ = false;
};

}  // namespace opengpa::cli

#endif  // OPENGPA_TOOLS_OPENGPA_OUTPUT_FILE_H_
