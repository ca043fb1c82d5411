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

// One case point: a family's variant at one value of each of the family's axes that applies to the
// variant (AxisInfo::AppliesTo).
struct Point {
  std::string family;
  std::string variant;
  std::map<std::string, int64_t> params;  // every applicable axis of the family, sorted by name

  // "family/variant?a=1&b=2" (axes sorted by name); the case's identity everywhere.
  std::string Canonical() const;
};

// Parses Canonical() back. Checks syntax only (not the catalog): names of [a-z0-9_] (family also
// '.'), values decimal int64, parameters strictly sorted by name. INVALID_ARGUMENT on a malformed
// or non-canonical key, so that one point has exactly one key.
StatusOr<Point> ParseCanonical(const std::string& canonical);

struct PlanLimits {
  int64_t max_points = 4096;       // a spec expanding to more is refused
};

// Points of `spec` in a stable order (family in catalog order, variant in catalog order, then the
// axis product in the order the values were given). Test-only families are only selected by exact
// name, never by a glob. INVALID_ARGUMENT naming the field ("spec.families[1]: unknown family
// \"foo\"", "spec.axes[0].values[2]: block_size 1000 is not a multiple of 32") on any error.
//
// Selection rules:
// - spec.families: at least one; each entry an exact family name or a glob ('*', '?') over the
//   non-test families that must match at least one. Duplicates select a family once.
// - spec.node_scoped: a node job's globs match node-scoped families only (FamilyInfo::
//   node_scoped), a GPU job's globs the others only; an exact name of the other kind is
//   INVALID_ARGUMENT saying which kind of job it needs.
// - spec.variants: globs over variant names ("unroll*"), or over "family/variant" when the glob
//   contains '/' ("reduce/warp_*"). Each must match a variant of some selected family; a selected
//   family none of whose variants matches contributes no points. Empty = every variant.
// - spec.axes: `family` empty = every selected family having the axis, else a name or glob over the
//   selected families (it must match one, and one of those must have the axis). An override naming
//   a family beats one that does not; between equals the later wins. Values must be non-empty,
//   distinct and allowed by AxisInfo::CheckValue for every family the override reaches. An axis
//   that applies to some variants only (AxisInfo::variants) is swept for those variants only.
// - Axes not overridden take their nightly values. Within one variant the first declared axis is
//   the outermost loop and the last varies fastest.
// - More than limits.max_points points: "spec: expands to N points, more than max_points M".
StatusOr<std::vector<Point>> ExpandSpec(const v1::JobSpec& spec, const PlanLimits& limits);

}  // namespace warpwatch::catalog

#endif  // WARPWATCH_COMMON_CATALOG_PLAN_H_
