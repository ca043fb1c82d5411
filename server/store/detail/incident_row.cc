// File: server/store/detail/incident_row.cc
// The incident table <-> v1::Incident (migration 0015).
#include <nlohmann/json.hpp>

#include "server/incidents/incident_vocabulary.h"
#include "server/store/detail/conversions.h"
#include "server/store/detail/pg_incident_store_impl.h"

namespace warpwatch::server::detail {
namespace {

// The elements of a to_json(text[]) value.
std::vector<std::string> JsonStrings(const std::string& json) {
  std::vector<std::string> out;
  const nlohmann::json doc = nlohmann::json::parse(json, nullptr, /*allow_exceptions=*/false);
  if (!doc.is_array()) return out;
  for (const nlohmann::json& v : doc) {
    if (v.is_string()) out.push_back(v.get<std::string>());
  }
  return out;
}

}  // namespace

const std::string& IncidentColumns() {
  static const std::string columns =
      "i.id, i.kind, i.cause_class, i.cause, to_json(i.ruled_out)::text, i.state, i.gpu_model,"
      " coalesce(i.schedule_run_id, 0), i.night::text, to_json(i.device_uuids)::text,"
      " to_json(i.families)::text, i.findings, i.confirmed, i.suspected, i.cases, i.min_change,"
      " i.median_change, i.max_change, i.peers, " +
      MicrosSql("i.opened_at") + ", " + MicrosSql("i.updated_at") + ", i.updated_by";
  return columns;
}

StatusOr<v1::Incident> IncidentFromRow(const pqxx::row& row) {
  v1::Incident i;
  i.set_id(row[0].as<int64_t>());
  i.set_kind(incidents::IncidentKindFromName(row[1].as<std::string>()));
  i.set_cause_class(incidents::CauseClassFromName(row[2].as<std::string>()));
  i.set_cause(row[3].as<std::string>());
  for (std::string& s : JsonStrings(row[4].as<std::string>())) i.add_ruled_out(std::move(s));
  i.set_state(incidents::IncidentStateFromName(row[5].as<std::string>()));
  i.set_gpu_model(row[6].as<std::string>());
  i.set_schedule_run_id(row[7].as<int64_t>());
  i.set_night(row[8].as<std::string>());
  for (std::string& s : JsonStrings(row[9].as<std::string>())) i.add_device_uuids(std::move(s));
  for (std::string& s : JsonStrings(row[10].as<std::string>())) i.add_families(std::move(s));
  i.set_findings(row[11].as<int32_t>());
  i.set_confirmed(row[12].as<int32_t>());
  i.set_suspected(row[13].as<int32_t>());
  i.set_cases(row[14].as<int32_t>());
  i.set_min_change(row[15].as<double>());
  i.set_median_change(row[16].as<double>());
  i.set_max_change(row[17].as<double>());
  i.set_peers(row[18].as<int32_t>());
  *i.mutable_opened_at() = TimestampFromMicros(row[19].as<int64_t>());
  *i.mutable_updated_at() = TimestampFromMicros(row[20].as<int64_t>());
  i.set_updated_by(row[21].as<std::string>());
  return i;
}

}  // namespace warpwatch::server::detail
