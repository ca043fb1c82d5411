// The test-only contention flags.
#include "worker/contention/contention_flags.h"

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <functional>
#include <string>

namespace warpwatch::worker {
namespace {

// CLI11 leaves a hidden option's name out of its errors ("Could not convert:  = x"); this check,
// run before the conversion, names the flag itself.
std::function<std::string(const std::string&)> NumberFor(const std::string& flag) {
  return [flag](const std::string& text) -> std::string {
    char* end = nullptr;
    (void)std::strtod(text.c_str(), &end);
    if (!text.empty() && end != nullptr && *end == '\0') return "";
    return flag + "=" + text + ": not a number";
  };
}

std::string EngineCheck(const std::string& text) {
  if (ParseContentionEngine(text)) return "";
  return std::string(kContentionEngineFlag) + "=" + text + ": must be kernel or copy";
}

}  // namespace

void AddContentionFlags(CLI::App& command, ContentionOptions* o) {
  command
      .add_option_function<double>(
          kContentionGibFlag, [o](const double& v) { o->gib = v; },
          "TEST ONLY, slows the GPU: run a DRAM copy between two buffers of this many GiB on "
          "another stream of the measuring process while the suite runs")
      ->check(NumberFor(kContentionGibFlag))
      ->group("");
  command
      .add_option_function<double>(
          kContentionDutyFlag, [o](const double& v) { o->duty = v; },
          "TEST ONLY: fraction of time that copy runs, 0.05-1 (default 1: back to back)")
      ->check(NumberFor(kContentionDutyFlag))
      ->group("");
  command
      .add_option_function<std::string>(
          kContentionEngineFlag,
          [o](const std::string& v) { o->engine = ParseContentionEngine(v); },
          "TEST ONLY: what copies, kernel (a copy kernel on the SMs, default) or copy "
          "(cudaMemcpyAsync device to device: the copy engines)")
      ->check(EngineCheck)
      ->group("");
}

}  // namespace warpwatch::worker
