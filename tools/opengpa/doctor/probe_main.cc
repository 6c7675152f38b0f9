#include "probe_main.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>

namespace opengpa::doctor {

int RunProbe(int argc, char** argv, const std::string& api, const Probe& probe) {
  ProbeOptions options;
  for (int i = 1; i < argc; ++i) {
    const std::string argument = argv[i];
    if (argument == "--quick") {
      options.quick = true;
    } else if (argument == "--verbose") {
      options.search.verbose = true;
    } else if ((argument == "--library-dir" || argument == "--folder") && i + 1 < argc) {
      if (argument == "--folder") {
        options.search.folders.emplace_back(argv[++i]);
      } else {
        options.search.library_dir = argv[++i];
      }
    } else {
      std::fprintf(stderr,
                   "%s: unknown argument '%s' (usage: [--quick] [--verbose] [--library-dir DIR | --folder DIR ...])\n",
                   argv[0], argument.c_str());
      return 2;
    }
  }
  const auto start = std::chrono::steady_clock::now();
  ProbeReport report(api);
  try {
    probe(options, report);
  } catch (const opengpa::Error& failure) {
    report.AddCause(ProbeGpaLibrary::Explain(failure));
  } catch (const std::exception& failure) {
    report.AddCause({"probe_failed", std::string("the probe stopped: ") + failure.what(),
                     "run `opengpa doctor -v --api " + api + "` and report its output"});
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << report.ToJson(seconds).dump() << std::endl;
  return 0;
}

}  // namespace opengpa::doctor
