// Where a command writes: stdout, or the file named by -o/--output.
//
// Paths are checked before any work (CheckOutputPath): the folder must exist and be writable, a
// directory is refused, and an existing file is replaced only with -f/--force. Every failure names the
// option, the path and the reason (errno text).
//
// A file is never left half-written under its name (issue 35): OutputFile writes a temporary file beside it
// (".<name>.opengpa-XXXXXX", same folder, so the rename cannot cross file systems), checks every write, the
// fsync and the close, and only then renames it over the name. On any failure (a full disk, a quota, an I/O
// error) the temporary file is removed and the name keeps what it held before, or stays absent. Devices are
// refused (a disk, a terminal, /dev/full), /dev/null excepted, and so is a new file in /dev; a FIFO (a pipe,
// `-o /dev/stdout` into one) and /dev/null are written in place; a symbolic link is followed to the file it names.
#ifndef OPENGPA_TOOLS_OPENGPA_OUTPUT_FILE_H_
#define OPENGPA_TOOLS_OPENGPA_OUTPUT_FILE_H_

#include <iostream>
#include <memory>
#include <string>

namespace opengpa::cli {

// Empty path or "-" is stdout and always passes. `option` is how the user named it ("-o", "--csv").
bool CheckOutputPath(const std::string& option, const std::string& path, bool force, std::string* error);

class OutputFile {
 public:
  // Checks the path (CheckOutputPath) and opens its temporary file; on failure Stream() is null and *error
  // says why.
  OutputFile(const std::string& option, const std::string& path, bool force, std::string* error);
  ~OutputFile();  // removes the temporary file unless Finish succeeded
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  std::ostream* Stream();
  // Writes what is buffered, syncs, closes and renames the file into place; false and *error (option, path,
  // the system's reason) when any step fails, and then nothing is left under the path.
  bool Finish(std::string* error);

 private:
  class FdBuffer;
  std::string option_;
  std::string path_;        // as the user named it
  std::string final_path_;  // where the file goes (a symbolic link's target)
  std::string temporary_;   // empty when writing in place or to stdout
  bool replacing_ = false;  // a file of that name existed (--force)
  std::unique_ptr<FdBuffer> buffer_;
  std::unique_ptr<std::ostream> stream_;
  bool failed_ = false;
};

}  // namespace opengpa::cli

#endif  // OPENGPA_TOOLS_OPENGPA_OUTPUT_FILE_H_
