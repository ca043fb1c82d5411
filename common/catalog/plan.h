// Expands a JobSpec into the ordered list of case points to run, validating it against the catalog.
// Shared by the server (validation, progress totals) and the worker (what to execute), so both
// count and name points identically.
#ifndef WARPWATCH_COMMON_CATALOG_PLAN_H_
#define WARPWATCH_COMMON_CATALOG_PLAN_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "common/status/status.h"
#include "warpwatch/v1/job.pb.h"

namespace warpwatch::catalog {

// One case point: a family's variant at one value of each of the family's axes.
struct Point {
  std::string family;
  std::string variant;
  std::map<std::string, int64_t> params;  // every axis of the family, sorted by name

  // "family/variant?a=1&b=2" (axes sorted by name); the case's identity everywhere.
  std::string Canonical() const;
};

// Parses Canonical() back. INVALID_ARGUMENT on a malformed key.
StatusOr<Point> ParseCanonical(const std::string& canonical);

struct PlanLimits {
  int64_t max_points = 4096;       // a spec expanding to more is refused
};

// Points of `spec` in a stable order (family in catalog order, variant in catalog order, then the
// axis product in the order the values were given). Test-only families are only selected by exact
// name, never by a glob. INVALID_ARGUMENT naming the field ("spec.families[1]: unknown family
// \"foo\"", "spec.axes[0].values[2]: block_size 1000 is not a multiple of 32") on any error.
StatusOr<std::vector<Point>> ExpandSpec(const v1::JobSpec& spec, const PlanLimits& limits);

}  // namespace warpwatch::catalog

#endif  // WARPWATCH_COMMON_CATALOG_PLAN_H_
