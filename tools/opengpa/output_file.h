// Where a command writes: stdout, or the file named by -o/--output (created or truncated).
#ifndef OPENGPA_TOOLS_OPENGPA_OUTPUT_FILE_H_
#define OPENGPA_TOOLS_OPENGPA_OUTPUT_FILE_H_

#include <fstream>
#include <iostream>
#include <memory>
#include <string>

namespace opengpa::cli {

class OutputFile {
 public:
  // Empty path or "-": stdout. On failure Stream() is null and *error names the path.
  OutputFile(const std::string& path, std::string* error) {
    if (path.empty() || path == "-") return;
    file_ = std::make_unique<std::ofstream>(path, std::ios::binary | std::ios::trunc);
    if (!*file_) {
      *error = "cannot write --output " + path;
      failed_ = true;
    }
  }
  std::ostream* Stream() {
    if (failed_) return nullptr;
    return file_ ? static_cast<std::ostream*>(file_.get()) : &std::cout;
  }

 private:
  std::unique_ptr<std::ofstream> file_;
  bool failed_ = false;
};

}  // namespace opengpa::cli

#endif  // OPENGPA_TOOLS_OPENGPA_OUTPUT_FILE_H_
