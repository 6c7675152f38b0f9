// How the library in the profiled program tells `opengpa profile` that it could not write the sample stream.
// The stream is a file in $TMPDIR; when that file system fills up (or a quota, or an I/O error), the file
// itself cannot carry the news. So the CLI binds a datagram socket in Linux's abstract namespace (no file,
// nothing to fill) and names it in OPENGPA_PROFILE_STATUS; the writer (SampleStreamWriter) stops writing at its
// first failed write, so the stream stays a clean prefix of what was measured, and sends "<pid> <errno>
// <records not written>" then, and again with the final count when it writes (or rather fails to write) its end
// record. The CLI accepts datagrams from its own user only (SO_PASSCRED) and reports "sample stream truncated:
// <errno text>" with a non-zero exit (docs/cli.md).
#ifndef OPENGPA_PROFILER_STREAM_STATUS_H_
#define OPENGPA_PROFILER_STREAM_STATUS_H_

#include <cstdint>
#include <map>
#include <string>

namespace opengpa::profiling {

inline constexpr const char* kStatusVariable = "OPENGPA_PROFILE_STATUS";

// What one process of the program reported.
struct StreamWriteFailure {
  int error_number = 0;            // errno of the first failed write
  std::uint64_t records_lost = 0;  // records it could not write (the first failed one included)
};

// In the profiled program: where reports go (nowhere when the variable is unset).
class StreamStatusSender {
 public:
  static StreamStatusSender FromEnvironment();
  // Best effort: one sendto(2) of a short datagram, never blocking.
  void Report(std::uint32_t pid, const StreamWriteFailure& failure) const;

 private:
  std::string name_;  // the abstract socket name, without its leading NUL
};

// In the CLI: the socket the program's processes report to, for one run.
class StreamStatusReceiver {
 public:
  StreamStatusReceiver() = default;
  ~StreamStatusReceiver();
  StreamStatusReceiver(const StreamStatusReceiver&) = delete;
  StreamStatusReceiver& operator=(const StreamStatusReceiver&) = delete;

  // Binds a fresh abstract name (the kernel picks it); false and *error when it cannot.
  bool Open(std::string* error);
  // The value of OPENGPA_PROFILE_STATUS for the program.
  const std::string& Name() const { return name_; }
  // Reads every report received so far; the latest per process is kept.
  void Drain();
  const std::map<std::uint32_t, StreamWriteFailure>& Failures() const { return failures_; }

 private:
  int fd_ = -1;
  std::string name_;
  std::map<std::uint32_t, StreamWriteFailure> failures_;
};

}  // namespace opengpa::profiling

#endif  // OPENGPA_PROFILER_STREAM_STATUS_H_
