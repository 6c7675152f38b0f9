// The options every counter command shares (--api, --device, --chip, --hardware, --verbose) and the
// chain they open: GPA library -> API context -> GPA context. Members are declared in that order so
// they close in reverse: the GPA context before the device it samples, GpaDestroy last.
#ifndef OPENGPA_TOOLS_OPENGPA_OPENED_CONTEXT_H_
#define OPENGPA_TOOLS_OPENGPA_OPENED_CONTEXT_H_

#include <CLI/CLI.hpp>

#include <memory>
#include <string>

#include "api_context.h"
#include "gpa_library.h"

namespace opengpa::cli {

struct ContextOptions {
  client::ApiNumber api = kGpaApiLast;  // kGpaApiLast: not given
  int device = -1;
  std::string chip;
  bool hardware = false;
  bool verbose = false;
};

void AddContextOptions(CLI::App& command, ContextOptions* options);

// The usage errors of these options, found before anything is loaded (the command exits 2): no --api and no
// --chip, --chip with --device or with an API other than CUDA. False and *error saying which.
bool CheckContextOptions(const ContextOptions& options, std::string* error);

class OpenedContext {
 public:
  // --chip alone implies --api cuda; otherwise --api is required.
  static std::unique_ptr<OpenedContext> Open(const ContextOptions& options, std::string* error);

  const GpaLibrary& Library() const { return *library_; }
  const GpaContext& Context() const { return *context_; }
  const ApiContext& Api() const { return *api_; }

 private:
  std::unique_ptr<GpaLibrary> library_;
  std::unique_ptr<ApiContext> api_;
  std::unique_ptr<GpaContext> context_;
};

}  // namespace opengpa::cli

#endif  // OPENGPA_TOOLS_OPENGPA_OPENED_CONTEXT_H_
