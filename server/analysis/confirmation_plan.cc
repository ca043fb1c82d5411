// File: server/analysis/confirmation_plan.cc
#include "server/analysis/confirmation_plan.h"

#include <cstdio>
#include <map>
#include <optional>
#include <set>

#include "common/catalog/plan.h"
#include "server/detect/pinned_decision.h"
#include "server/detect/series_decision.h"

namespace warpwatch::server::analysis {

v1::JobSpec RestrictedSpec(const v1::JobSpec& original, const std::vector<RunCase>& cases,
                           const std::string& device_uuid) {
  v1::JobSpec spec = original;
  spec.clear_families();
  spec.clear_variants();
  spec.clear_axes();
  spec.clear_selector();
  spec.mutable_selector()->set_gpu_uuid(device_uuid);

  std::set<std::string> families;
  std::set<std::string> variants;  // "family/variant": a variant of one family only
  std::map<std::string, std::map<std::string, std::set<int64_t>>> axes;  // family -> axis -> values
  for (const RunCase& c : cases) {
    families.insert(c.family);
    variants.insert(c.family + "/" + c.variant);
    for (const auto& [axis, value] : c.params) axes[c.family][axis].insert(value);
  }
  for (const std::string& family : families) spec.add_families(family);
  for (const std::string& variant : variants) spec.add_variants(variant);
  for (const auto& [family, by_axis] : axes) {
    for (const auto& [axis, values] : by_axis) {
      v1::AxisOverride* o = spec.add_axes();
      o->set_family(family);
      o->set_axis(axis);
      for (int64_t v : values) o->add_values(v);
    }
  }
  return spec;
}

v1::JobSpec ConfirmationSpec(const v1::JobSpec& original, const std::vector<RunCase>& suspects,
                             const std::string& device_uuid, int64_t run_id) {
  v1::JobSpec spec = RestrictedSpec(original, suspects, device_uuid);
  (*spec.mutable_labels())[kConfirmsRunLabel] = std::to_string(run_id);
  spec.mutable_measurement()->set_collect_counters(true);
  return spec;
}

StatusOr<int64_t> PlannedPoints(const v1::JobSpec& spec) {
  catalog::PlanLimits limits;
  ASSIGN_OR_RETURN(std::vector<catalog::Point> points, catalog::ExpandSpec(spec, limits));
  return static_cast<int64_t>(points.size());
}

SuspectResolution ResolveWithConfirmation(const Suspect& suspect, const RunCase* confirmation,
                                          const std::vector<detect::RunPoint>& baseline,
                                          const detect::DetectionConfig& config,
                                          const std::vector<detect::RunPoint>* rolling,
                                          const detect::NoiseEstimate& model_noise) {
  if (confirmation == nullptr) {
    return {kStateOpen, "unconfirmed: the confirmation run did not measure this case"};
  }
  detect::SeriesDecision d;
  std::optional<detect::PinnedDecision> pinned;
  if (suspect.pinned) {
    pinned = detect::DecideAgainstPinned(confirmation->point, baseline,
                                         rolling ? *rolling : std::vector<detect::RunPoint>(),
                                         config, model_noise);
  }
  // One decision, no run-wide control: the confirmation is the second, independent test of a
  // suspect that already passed the first run's.
  d = pinned ? pinned->decision
             : detect::DecideSeries(confirmation->point, baseline, config, model_noise);
  char evidence[256];
  std::snprintf(evidence, sizeof(evidence),
                " (confirmation run: %+.2f %%, z %.1f, p %.2g, %s, %zu baseline runs)",
                d.time.change * 100, d.time.z, d.time.p_value, detect::VerdictName(d.verdict),
                d.baseline_runs_used);
  if (d.verdict == detect::Verdict::kUnsure) {
    return {kStateOpen, "unconfirmed: the confirmation run could not be judged: " + d.reason};
  }
  const detect::Verdict expected =
      suspect.kind == kKindImprovement ? detect::Verdict::kFaster : detect::Verdict::kSlower;
  if (d.verdict == expected) return {kStateOpen, std::string("confirmed") + evidence};
  return {kStateNoise, std::string("not confirmed") + evidence};
}

}  // namespace warpwatch::server::analysis
