// The test-only contention option: validation, child argv, labels.
#include "worker/contention/contention_options.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace warpwatch::worker {
namespace {

// Text that parses back to the same double, as short as %g allows.
std::string Exact(double v) {
  char buf[40];
  for (int digits = 6; digits <= 17; ++digits) {  // %g's 6 first: "1000", not "1e+03"
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

bool Within(double v, double lo, double hi) { return std::isfinite(v) && v >= lo && v <= hi; }

}  // namespace

std::string_view ContentionEngineName(ContentionEngine engine) {
  switch (engine) {
    case ContentionEngine::kKernel:
      return "kernel";
    case ContentionEngine::kCopy:
      return "copy";
  }
  return "?";
}

std::optional<ContentionEngine> ParseContentionEngine(std::string_view name) {
  for (ContentionEngine e : {ContentionEngine::kKernel, ContentionEngine::kCopy}) {
    if (name == ContentionEngineName(e)) return e;
  }
  return std::nullopt;
}

size_t ContentionOptions::buffer_bytes() const {
  if (!gib) return 0;
  return static_cast<size_t>(std::llround(*gib * 1024.0 * 1024.0 * 1024.0));
}

Status ValidateContentionOptions(const ContentionOptions& o) {
  if (!o.gib) {
    const char* alone = o.duty ? kContentionDutyFlag : o.engine ? kContentionEngineFlag : nullptr;
    if (alone != nullptr) {
      return InvalidArgumentError(std::string(alone) + " needs " + kContentionGibFlag +
                                  " (the test-only GPU contention is off)");
    }
    return OkStatus();
  }
  if (!Within(*o.gib, kMinContentionGib, kMaxContentionGib)) {
    return InvalidArgumentError(std::string(kContentionGibFlag) + "=" + Exact(*o.gib) +
                                ": each buffer must be " + Exact(kMinContentionGib) + " to " +
                                Exact(kMaxContentionGib) +
                                " GiB (much larger than L2, so the copy reaches DRAM)");
  }
  if (o.duty && !Within(*o.duty, kMinContentionDuty, 1.0)) {
    return InvalidArgumentError(std::string(kContentionDutyFlag) + "=" + Exact(*o.duty) +
                                ": the busy fraction must be " + Exact(kMinContentionDuty) +
                                " to 1 (1 = back to back)");
  }
  return OkStatus();
}

std::vector<std::string> ContentionChildArgs(const ContentionOptions& o) {
  if (!o.enabled()) return {};
  return {std::string(kContentionGibFlag) + "=" + Exact(*o.gib),
          std::string(kContentionDutyFlag) + "=" + Exact(o.effective_duty()),
          std::string(kContentionEngineFlag) + "=" +
              std::string(ContentionEngineName(o.effective_engine()))};
}

std::map<std::string, std::string> ContentionLabels(const ContentionOptions& o) {
  if (!o.enabled()) return {};
  return {{kContentionGibLabel, Exact(*o.gib)},
          {kContentionDutyLabel, Exact(o.effective_duty())},
          {kContentionEngineLabel, std::string(ContentionEngineName(o.effective_engine()))}};
}

}  // namespace warpwatch::worker
