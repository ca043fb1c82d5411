// File: server/service/result_compare.cc
#include "server/service/result_compare.h"

#include <map>
#include <string>

#include "server/detect/compare_runs.h"
#include "server/detect/proto_convert.h"

namespace warpwatch::server {
namespace {

v1::ComparisonVerdict ToProto(detect::Verdict verdict) {
  switch (verdict) {
    case detect::Verdict::kSame:
      return v1::COMPARISON_VERDICT_SAME;
    case detect::Verdict::kSlower:
      return v1::COMPARISON_VERDICT_SLOWER;
    case detect::Verdict::kFaster:
      return v1::COMPARISON_VERDICT_FASTER;
    case detect::Verdict::kUnsure:
      return v1::COMPARISON_VERDICT_UNSURE;
  }
  return v1::COMPARISON_VERDICT_UNSPECIFIED;
}

v1::Blame ToProto(detect::Blame blame) {
  switch (blame) {
    case detect::Blame::kNone:
      return v1::BLAME_NONE;
    case detect::Blame::kCode:
      return v1::BLAME_CODE;
    case detect::Blame::kEnvironment:
      return v1::BLAME_ENVIRONMENT;
  }
  return v1::BLAME_UNSPECIFIED;
}

std::vector<detect::CasePoint> CasePoints(const v1::Run& run,
                                          const std::vector<v1::Measurement>& points) {
  std::vector<detect::CasePoint> out;
  out.reserve(points.size());
  for (const v1::Measurement& m : points) {
    out.push_back(detect::CasePointFromMeasurement(m, run.environment().device().uuid(), true));
  }
  return out;
}

std::map<std::string, const v1::Measurement*> ByCase(const std::vector<v1::Measurement>& points) {
  std::map<std::string, const v1::Measurement*> out;
  for (const v1::Measurement& m : points) out[m.case_().canonical()] = &m;
  return out;
}

}  // namespace

StatusOr<v1::CompareRunsResponse> CompareStoredRuns(
    const v1::Run& base, const std::vector<v1::Measurement>& base_points, const v1::Run& new_run,
    const std::vector<v1::Measurement>& new_points) {
  ASSIGN_OR_RETURN(detect::RunComparison comparison,
                   detect::CompareRuns(CasePoints(base, base_points),
                                       CasePoints(new_run, new_points)));
  const auto base_by_case = ByCase(base_points);
  const auto new_by_case = ByCase(new_points);
  v1::CompareRunsResponse response;
  for (const detect::CaseComparison& c : comparison.shared) {
    const v1::Measurement& a = *base_by_case.at(c.case_key);
    const v1::Measurement& b = *new_by_case.at(c.case_key);
    v1::CaseComparison* out = response.add_cases();
    *out->mutable_case_() = a.case_();
    out->set_base_median_seconds(c.median_a);
    out->set_new_median_seconds(c.median_b);
    out->set_change(c.change);
    if (c.u_test_p_value) out->set_p_value(*c.u_test_p_value);
    if (c.cycles_change) out->set_cycles_change(*c.cycles_change);
    out->set_verdict(ToProto(c.verdict));
    out->set_blame(ToProto(c.blame));
    out->set_reason(c.reason);
    out->set_base_sm_clock_mhz(c.sm_clock_mhz_a);
    out->set_new_sm_clock_mhz(c.sm_clock_mhz_b);
    out->set_base_theoretical_occupancy(a.occupancy().theoretical());
    out->set_new_theoretical_occupancy(b.occupancy().theoretical());
    if (a.occupancy().has_achieved()) out->set_base_achieved_occupancy(a.occupancy().achieved());
    if (b.occupancy().has_achieved()) out->set_new_achieved_occupancy(b.occupancy().achieved());
  }
  for (const std::string& key : comparison.only_in_a) response.add_only_in_base(key);
  for (const std::string& key : comparison.only_in_b) response.add_only_in_new(key);
  return response;
}

}  // namespace warpwatch::server
