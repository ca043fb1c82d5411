// File: server/store/pg_store_fleet.cc
// The fleet view: every worker with its devices, its running jobs and an online/offline state.
#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include "server/store/detail/conversions.h"
#include "server/store/detail/pg_store_impl.h"

namespace warpwatch::server::detail {
namespace {

// `json`: a JSON array of strings (array_to_json of a text[]).
StatusOr<std::vector<std::string>> StringsFromJsonArray(const std::string& json) {
  nlohmann::json parsed = nlohmann::json::parse(json, nullptr, /*allow_exceptions=*/false);
  if (!parsed.is_array()) return InternalError("expected a JSON array, got " + json);
  std::vector<std::string> out;
  for (const nlohmann::json& item : parsed) {
    if (!item.is_string()) return InternalError("expected strings in " + json);
    out.push_back(item.get<std::string>());
  }
  return out;
}

bool Wanted(const std::vector<v1::WorkerState>& states, v1::WorkerState state) {
  return states.empty() || std::find(states.begin(), states.end(), state) != states.end();
}

}  // namespace

StatusOr<std::vector<v1::WorkerInfo>> PgStore::ListWorkers(
    std::chrono::milliseconds online_window, const std::vector<v1::WorkerState>& states) {
  using Result = std::vector<v1::WorkerInfo>;
  return Run<Result>("ListWorkers", [&](pqxx::work& tx) -> StatusOr<Result> {
    // One snapshot (the transaction), three reads: workers, their devices, their running jobs.
    pqxx::result workers = tx.exec_params(
        "SELECT id, hostname, labels::text, version, array_to_json(families)::text, " +
            MicrosSql("registered_at") + ", " + MicrosSql("last_seen") +
            ", last_seen >= now() - $1::bigint * interval '1 millisecond'"
            " FROM worker ORDER BY hostname, id",
        static_cast<int64_t>(online_window.count()));
    Result out;
    std::map<std::string, size_t> index;  // worker id -> position in out
    for (const pqxx::row& row : workers) {
      const v1::WorkerState state =
          row[7].as<bool>() ? v1::WORKER_STATE_ONLINE : v1::WORKER_STATE_OFFLINE;
      if (!Wanted(states, state)) continue;
      v1::WorkerInfo info;
      info.set_id(row[0].as<std::string>());
      info.set_hostname(row[1].as<std::string>());
      ASSIGN_OR_RETURN(auto labels, StringMapFromJson(row[2].as<std::string>()));
      info.mutable_labels()->insert(labels.begin(), labels.end());
      info.set_version(row[3].as<std::string>());
      ASSIGN_OR_RETURN(std::vector<std::string> families,
                       StringsFromJsonArray(row[4].as<std::string>()));
      for (std::string& family : families) info.add_families(std::move(family));
      *info.mutable_registered_at() = TimestampFromMicros(row[5].as<int64_t>());
      *info.mutable_last_seen() = TimestampFromMicros(row[6].as<int64_t>());
      info.set_state(state);
      index[info.id()] = out.size();
      out.push_back(std::move(info));
    }
    if (out.empty()) return out;

    pqxx::result devices = tx.exec(
        "SELECT worker_id, info::text FROM device WHERE worker_id IS NOT NULL"
        " ORDER BY worker_id, device_index, uuid");
    for (const pqxx::row& row : devices) {
      auto it = index.find(row[0].as<std::string>());
      if (it == index.end()) continue;
      RETURN_IF_ERROR(MessageFromJson(row[1].as<std::string>(), out[it->second].add_devices()));
    }

    pqxx::result jobs = tx.exec(
        "SELECT j.lease_owner, j.device_uuid, j.id, j.points_done, j.points_total,"
        " j.current_case, " +
        MicrosSql("j.lease_expiry") + ", " + MicrosSql("coalesce(r.started_at, j.started_at)") +
        " FROM job j LEFT JOIN run r ON r.id = j.current_run_id"
        " WHERE j.state = 'RUNNING' ORDER BY j.lease_owner, j.device_uuid, j.id");
    for (const pqxx::row& row : jobs) {
      auto it = index.find(row[0].as<std::string>());
      if (it == index.end()) continue;
      v1::RunningJob* job = out[it->second].add_running_jobs();
      job->set_device_uuid(row[1].as<std::string>());
      job->set_job_id(row[2].as<int64_t>());
      job->set_points_done(row[3].as<int64_t>());
      job->set_points_total(row[4].as<int64_t>());
      job->set_current_case(row[5].as<std::string>());
      *job->mutable_lease_expiry() = TimestampFromMicros(row[6].as<int64_t>());
      *job->mutable_started_at() = TimestampFromMicros(row[7].as<int64_t>());
    }
    return out;
  });
}

}  // namespace warpwatch::server::detail
