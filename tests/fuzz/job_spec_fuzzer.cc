// File: tests/fuzz/job_spec_fuzzer.cc
// JobSpec validation and expansion (server/validation/job_spec_validator, common/catalog/plan) on
// any spec a client can send, written as protobuf JSON (what `warpwatch submit --json` and grpcurl
// send; the corpus holds real specs). Checks: no crash; every refusal is INVALID_ARGUMENT naming
// a field under "spec"; an accepted spec expands to points_total points, at most max_points, each
// with a canonical key that parses back to the same point, and none twice.
#include <google/protobuf/util/json_util.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <string>

#include "common/catalog/plan.h"
#include "server/validation/job_spec_validator.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace catalog = warpwatch::catalog;
  namespace validation = warpwatch::server::validation;
  const std::string json(reinterpret_cast<const char*>(data), size);
  warpwatch::v1::JobSpec spec;
  google::protobuf::util::JsonParseOptions options;
  options.ignore_unknown_fields = false;
  if (!google::protobuf::util::JsonStringToMessage(json, &spec, options).ok()) return 0;

  validation::SpecLimits limits;
  limits.max_points = 512;  // small, so that a big sweep is refused fast rather than expanded
  auto total = validation::ValidateJobSpec(spec, limits);
  if (!total.ok()) {
    if (total.status().code() != warpwatch::StatusCode::kInvalidArgument) std::abort();
    if (total.status().message().rfind("spec", 0) != 0) std::abort();
    return 0;
  }
  if (*total <= 0 || *total > limits.max_points) std::abort();

  catalog::PlanLimits plan_limits;
  plan_limits.max_points = limits.max_points;
  auto points = catalog::ExpandSpec(spec, plan_limits);
  if (!points.ok() || static_cast<int64_t>(points->size()) != *total) std::abort();
  std::set<std::string> keys;
  for (const catalog::Point& point : *points) {
    const std::string key = point.Canonical();
    if (!keys.insert(key).second) std::abort();  // one point, one key: no duplicates
    auto parsed = catalog::ParseCanonical(key);
    if (!parsed.ok() || parsed->family != point.family || parsed->variant != point.variant ||
        parsed->params != point.params) {
      std::abort();
    }
  }
  return 0;
}
