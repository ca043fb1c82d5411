// File: server/store/detail/regression_row.cc
#include "server/store/detail/regression_row.h"

#include <cstdlib>

#include "common/catalog/plan.h"
#include "server/store/detail/conversions.h"

namespace warpwatch::server::detail {
namespace {

// Elements of a bigint[] literal "{1,2}".
std::vector<int64_t> ParseBigintArray(const std::string& literal) {
  std::vector<int64_t> out;
  const char* p = literal.c_str();
  while (*p != '\0') {
    if (*p == '-' || (*p >= '0' && *p <= '9')) {
      char* end = nullptr;
      out.push_back(std::strtoll(p, &end, 10));
      p = end;
    } else {
      ++p;
    }
  }
  return out;
}

}  // namespace

std::string RegressionStateName(v1::RegressionState state) {
  switch (state) {
    case v1::REGRESSION_STATE_OPEN:
      return "OPEN";
    case v1::REGRESSION_STATE_ACKNOWLEDGED:
      return "ACKNOWLEDGED";
    case v1::REGRESSION_STATE_DISMISSED:
      return "DISMISSED";
    case v1::REGRESSION_STATE_FIXED:
      return "FIXED";
    case v1::REGRESSION_STATE_SUSPECTED:
      return "SUSPECTED";
    case v1::REGRESSION_STATE_NOISE:
      return "NOISE";
    case v1::REGRESSION_STATE_ACCEPTED:
      return "ACCEPTED";
    default:
      return "";
  }
}

v1::RegressionState RegressionStateFromName(const std::string& name) {
  for (v1::RegressionState s :
       {v1::REGRESSION_STATE_OPEN, v1::REGRESSION_STATE_ACKNOWLEDGED,
        v1::REGRESSION_STATE_DISMISSED, v1::REGRESSION_STATE_FIXED, v1::REGRESSION_STATE_SUSPECTED,
        v1::REGRESSION_STATE_NOISE, v1::REGRESSION_STATE_ACCEPTED}) {
    if (RegressionStateName(s) == name) return s;
  }
  return v1::REGRESSION_STATE_UNSPECIFIED;
}

std::string RegressionKindName(v1::RegressionKind kind) {
  switch (kind) {
    case v1::REGRESSION_KIND_REGRESSION:
      return "REGRESSION";
    case v1::REGRESSION_KIND_IMPROVEMENT:
      return "IMPROVEMENT";
    case v1::REGRESSION_KIND_OUTLIER:
      return "OUTLIER";
    default:
      return "";
  }
}

v1::RegressionKind RegressionKindFromName(const std::string& name) {
  for (v1::RegressionKind k : {v1::REGRESSION_KIND_REGRESSION, v1::REGRESSION_KIND_IMPROVEMENT,
                               v1::REGRESSION_KIND_OUTLIER}) {
    if (RegressionKindName(k) == name) return k;
  }
  return v1::REGRESSION_KIND_UNSPECIFIED;
}

v1::Blame BlameFromName(const std::string& name) {
  if (name == "NONE") return v1::BLAME_NONE;
  if (name == "CODE") return v1::BLAME_CODE;
  if (name == "ENVIRONMENT") return v1::BLAME_ENVIRONMENT;
  return v1::BLAME_UNSPECIFIED;
}

const std::string& RegressionColumns() {
  static const std::string columns =
      "g.id, g.series_id, g.case_canonical, g.family, g.variant, g.gpu_model, g.run_id,"
      " g.baseline_run_ids::text, g.baseline_median_seconds, g.new_median_seconds, g.change,"
      " g.p_value, g.method, g.state, g.note, coalesce(g.confirmation_run_id, 0),"
      " g.clock_explained, " +
      MicrosSql("g.detected_at") +
      ", g.kind, g.device_uuid, g.z, g.cycles_change, g.baseline_sm_clock_mhz,"
      " g.new_sm_clock_mhz, g.blame, coalesce(g.confirmation_job_id, 0), g.updated_by, " +
      MicrosSql("g.updated_at") +
      ", g.runs_at_level, coalesce(g.last_run_id, g.run_id), coalesce(g.closed_run_id, 0),"
      " g.min_detectable_change, g.noise_sigma, coalesce(g.explanation::text, ''),"
      " coalesce(g.incident_id, 0)";
  return columns;
}

void FillCaseKey(const std::string& canonical, const std::string& family,
                 const std::string& variant, v1::CaseKey* key) {
  key->set_canonical(canonical);
  key->set_family(family);
  key->set_variant(variant);
  StatusOr<catalog::Point> point = catalog::ParseCanonical(canonical);
  if (point.ok()) {
    if (key->variant().empty()) key->set_variant(point->variant);
    key->mutable_params()->insert(point->params.begin(), point->params.end());
  }
}

StatusOr<v1::Regression> RegressionFromRow(const pqxx::row& row) {
  v1::Regression g;
  g.set_id(row[0].as<int64_t>());
  g.set_series_id(row[1].as<std::string>());
  FillCaseKey(row[2].as<std::string>(), row[3].as<std::string>(), row[4].as<std::string>(),
              g.mutable_case_());
  g.set_gpu_model(row[5].as<std::string>());
  g.set_run_id(row[6].as<int64_t>());
  for (int64_t id : ParseBigintArray(row[7].as<std::string>())) g.add_baseline_run_ids(id);
  g.set_baseline_median_seconds(row[8].as<double>());
  g.set_new_median_seconds(row[9].as<double>());
  g.set_change(row[10].as<double>());
  if (!row[11].is_null()) g.set_p_value(row[11].as<double>());
  g.set_method(row[12].as<std::string>());
  g.set_state(RegressionStateFromName(row[13].as<std::string>()));
  g.set_note(row[14].as<std::string>());
  g.set_confirmation_run_id(row[15].as<int64_t>());
  g.set_clock_explained(row[16].as<bool>());
  *g.mutable_detected_at() = TimestampFromMicros(row[17].as<int64_t>());
  g.set_kind(RegressionKindFromName(row[18].as<std::string>()));
  g.set_device_uuid(row[19].as<std::string>());
  if (!row[20].is_null()) g.set_z(row[20].as<double>());
  if (!row[21].is_null()) g.set_cycles_change(row[21].as<double>());
  g.set_baseline_sm_clock_mhz(row[22].as<double>());
  g.set_new_sm_clock_mhz(row[23].as<double>());
  g.set_blame(BlameFromName(row[24].as<std::string>()));
  g.set_confirmation_job_id(row[25].as<int64_t>());
  g.set_updated_by(row[26].as<std::string>());
  *g.mutable_updated_at() = TimestampFromMicros(row[27].as<int64_t>());
  g.set_runs_at_level(row[28].as<int32_t>());
  g.set_last_run_id(row[29].as<int64_t>());
  g.set_closed_run_id(row[30].as<int64_t>());
  if (!row[31].is_null()) g.set_min_detectable_change(row[31].as<double>());
  if (!row[32].is_null()) g.set_noise_sigma(row[32].as<double>());
  // The explanation (migration 0015) is the server's own JSON; one it cannot read is left out
  // rather than hiding the finding.
  const std::string explanation = row[33].as<std::string>();
  if (!explanation.empty() && !MessageFromJson(explanation, g.mutable_explanation()).ok()) {
    g.clear_explanation();
  }
  g.set_incident_id(row[34].as<int64_t>());
  return g;
}

}  // namespace warpwatch::server::detail
