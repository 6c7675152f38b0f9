#include "opened_context.h"

#include "api_name.h"
#include "name_matching.h"

namespace opengpa::cli {

void AddContextOptions(CLI::App& command, ContextOptions* options) {
  command.add_option("--api", options->api, "API whose GPA library to load: cuda, vk, gl, cl")
      ->transform(CLI::Validator(ApiNameTransform(), "{cuda,vk,gl,cl}"));
  command.add_option("--device", options->device, "Device index within the API (default: the best device)")
      ->check(CLI::Validator(
          [](std::string& value) -> std::string {
            return !value.empty() && value[0] == '-' ? "a device index is 0 or more, not " + value : std::string();
          },
          "INDEX"));
  command.add_option("--chip", options->chip, "Open an offline CUDA context for this chip (e.g. GH100): no GPU needed")
      ->transform(CLI::Validator(ChipNameTransform(), "CHIP"));
  command.add_flag("--hardware", options->hardware,
                   "Expose raw hardware counters (kGpaOpenContextEnableHardwareCountersBit)");
  command.add_flag("-v,--verbose", options->verbose, "Print GPA's informational log messages on stderr");
}

bool CheckContextOptions(const ContextOptions& options, std::string* error) {
  if (options.api == kGpaApiLast && options.chip.empty()) {
    *error = "choose an API with --api cuda|vk|gl|cl (or a chip with --chip)";
    return false;
  }
  if (!options.chip.empty() && options.device >= 0) {
    *error = "--chip " + options.chip + " and --device " + std::to_string(options.device) +
             " exclude each other: a chip context has no device";
    return false;
  }
  if (!options.chip.empty() && options.api != kGpaApiLast && options.api != client::kApiCuda) {
    *error = "--chip " + options.chip + " opens an offline CUDA context; it cannot be combined with --api " +
             std::string(ApiShortName(options.api));
    return false;
  }
  return true;
}

std::unique_ptr<OpenedContext> OpenedContext::Open(const ContextOptions& options, std::string* error) {
  ContextRequest request;
  request.api = options.api;
  request.device = options.device;
  request.chip = options.chip;
  if (request.api == kGpaApiLast) {
    if (request.chip.empty()) {
      *error = "choose an API with --api cuda|vk|gl|cl (or a chip with --chip)";
      return nullptr;
    }
    request.api = client::kApiCuda;
  }
  if (!request.chip.empty() && request.device >= 0) {
    *error = "--chip " + request.chip + " and --device " + std::to_string(request.device) +
             " exclude each other: a chip context has no device";
    return nullptr;
  }

  auto opened = std::make_unique<OpenedContext>();
  // GPA must be initialised before the API's device or queue exists (GpaInitialize's contract).
  opened->library_ = GpaLibrary::Load(request.api, options.verbose, error);
  if (!opened->library_) return nullptr;
  opened->api_ = CreateApiContext(request, error);
  if (!opened->api_) return nullptr;
  const GpaOpenContextFlags flags =
      options.hardware ? kGpaOpenContextEnableHardwareCountersBit : kGpaOpenContextDefaultBit;
  opened->context_ = GpaContext::Open(*opened->library_, opened->api_->OpenContextArgument(), flags, error);
  if (!opened->context_) {
    *error += " on " + opened->api_->Description();
    return nullptr;
  }
  return opened;
}

}  // namespace opengpa::cli
