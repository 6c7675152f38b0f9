// The sample-stream file of one run of the profiled program (src/profiler/sample_stream.h): created empty in
// $TMPDIR as opengpa-samples-XXXXXX and locked (flock) for as long as this opengpa lives, so that a later run
// can tell a stream left behind by an opengpa that was killed (kill -9, the OOM killer: nothing could clean
// up) from one that another opengpa is still writing. Removed when the object goes, unless kept: a kept
// stream (--keep-stream, a failed output, a signal while the results were written) is renamed to
// opengpa-samples-XXXXXX.jsonl and that path printed. Leftovers found at the start of `opengpa profile` are
// named on stderr and kept the same way, so each is reported once (docs/cli.md).
#ifndef OPENGPA_TOOLS_OPENGPA_SAMPLE_STREAM_FILE_H_
#define OPENGPA_TOOLS_OPENGPA_SAMPLE_STREAM_FILE_H_

#include <memory>
#include <string>
#include <vector>

namespace opengpa::cli {

class SampleStreamFile {
 public:
  // A fresh, empty, locked stream file in $TMPDIR (else /tmp); nullptr and *error when it cannot be made.
  static std::unique_ptr<SampleStreamFile> Create(std::string* error);
  ~SampleStreamFile();  // removes the file unless kept
  SampleStreamFile(const SampleStreamFile&) = delete;
  SampleStreamFile& operator=(const SampleStreamFile&) = delete;

  const std::string& Path() const { return path_; }
  // Keeps the file (renamed to <path>.jsonl) and returns where it now is.
  std::string Keep();
  bool Kept() const { return kept_; }

 private:
  SampleStreamFile(std::string path, int lock_fd) : path_(std::move(path)), lock_fd_(lock_fd) {}
  std::string path_;
  int lock_fd_;
  bool kept_ = false;
};

// Streams of this user in $TMPDIR that no living opengpa holds: each is kept (renamed as Keep does) and
// described in one line: "<path> (<samples> samples, <size>, last written <time>)".
std::vector<std::string> KeepLeftoverStreams();

}  // namespace opengpa::cli

#endif  // OPENGPA_TOOLS_OPENGPA_SAMPLE_STREAM_FILE_H_
