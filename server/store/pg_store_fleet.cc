// File: server/store/pg_store_fleet.cc
// The fleet view: workers, a page at a time, with their devices, their running jobs and an
// online/offline state; worker counts for metrics; pruning of long-gone workers.
#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include "server/store/detail/conversions.h"
#include "server/store/detail/page_token.h"
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

// What a ListWorkers page token is bound to: the state filter.
FilterFingerprint WorkerFilterFingerprint(bool online, bool offline) {
  FilterFingerprint f;
  f.Add("workers").Add(online ? "online" : "").Add(offline ? "offline" : "");
  return f;
}

}  // namespace

StatusOr<WorkerPage> PgStore::ListWorkers(std::chrono::milliseconds online_window,
                                          const WorkerFilter& filter) {
  bool online = filter.states.empty();
  bool offline = filter.states.empty();
  for (v1::WorkerState state : filter.states) {
    if (state == v1::WORKER_STATE_ONLINE) {
      online = true;
    } else if (state == v1::WORKER_STATE_OFFLINE) {
      offline = true;
    } else {
      return InvalidArgumentError("states: unknown worker state " + std::to_string(state));
    }
  }
  const FilterFingerprint fingerprint = WorkerFilterFingerprint(online, offline);
  std::string after_hostname;
  std::string after_id;  // empty: the first page
  if (!filter.page_token.empty()) {
    ASSIGN_OR_RETURN(std::vector<std::string> position,
                     DecodePageToken(filter.page_token, fingerprint, 2));
    after_hostname = position[0];
    after_id = position[1];
    if (after_id.empty()) return InvalidArgumentError("page_token: malformed");
  }
  const int page_size = EffectivePageSize(filter.page_size, kWorkerPageSizes);
  return Run<WorkerPage>("ListWorkers", [&](pqxx::work& tx) -> StatusOr<WorkerPage> {
    // One snapshot for the three reads below (workers, their devices, their running jobs), so a
    // job or device moving between them is seen in one place only.
    tx.exec("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY");
    pqxx::result workers = tx.exec_params(
        "SELECT id, hostname, labels::text, version, array_to_json(families)::text, " +
            MicrosSql("registered_at") + ", " + MicrosSql("last_seen") +
            ", online FROM ("
            "  SELECT *, last_seen >= now() - $1::bigint * interval '1 millisecond' AS online"
            "  FROM worker) w"
            " WHERE (online AND $2::boolean OR NOT online AND $3::boolean)"
            "   AND ($5::text = '' OR (hostname, id) > ($4::text, $5::text))"
            " ORDER BY hostname, id LIMIT $6",
        static_cast<int64_t>(online_window.count()), online, offline, after_hostname, after_id,
        page_size + 1);
    WorkerPage page;
    std::vector<v1::WorkerInfo>& out = page.workers;
    std::map<std::string, size_t> index;  // worker id -> position in out
    for (size_t i = 0; i < workers.size() && static_cast<int>(i) < page_size; ++i) {
      const pqxx::row& row = workers[i];
      const v1::WorkerState state =
          row[7].as<bool>() ? v1::WORKER_STATE_ONLINE : v1::WORKER_STATE_OFFLINE;
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
    if (static_cast<int>(workers.size()) > page_size) {
      page.next_page_token = EncodePageToken({out.back().hostname(), out.back().id()}, fingerprint);
    }
    if (out.empty()) return page;
    std::vector<std::string> ids;
    for (const v1::WorkerInfo& info : out) ids.push_back(info.id());
    const std::string id_array = TextArrayLiteral(ids);

    pqxx::result devices = tx.exec_params(
        "SELECT worker_id, info::text FROM device WHERE worker_id = ANY($1::text[])"
        " ORDER BY worker_id, device_index, uuid",
        id_array);
    for (const pqxx::row& row : devices) {
      auto it = index.find(row[0].as<std::string>());
      if (it == index.end()) continue;
      RETURN_IF_ERROR(MessageFromJson(row[1].as<std::string>(), out[it->second].add_devices()));
    }

    pqxx::result jobs = tx.exec_params(
        "SELECT j.lease_owner, j.device_uuid, j.id, j.points_done, j.points_total,"
        " j.current_case, " +
            MicrosSql("j.lease_expiry") + ", " + MicrosSql("coalesce(r.started_at, j.started_at)") +
            " FROM job j LEFT JOIN run r ON r.id = j.current_run_id"
            " WHERE j.state = 'RUNNING' AND j.lease_owner = ANY($1::text[])"
            " ORDER BY j.lease_owner, j.device_uuid, j.id",
        id_array);
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
    return page;
  });
}

StatusOr<std::map<v1::WorkerState, int64_t>> PgStore::CountWorkersByState(
    std::chrono::milliseconds online_window) {
  using Counts = std::map<v1::WorkerState, int64_t>;
  return Run<Counts>("CountWorkersByState", [&](pqxx::work& tx) -> StatusOr<Counts> {
    pqxx::row row = tx.exec_params1(
        "SELECT count(*) FILTER (WHERE last_seen >= now() - $1::bigint * interval '1 millisecond'),"
        "       count(*) FROM worker",
        static_cast<int64_t>(online_window.count()));
    const int64_t online = row[0].as<int64_t>();
    return Counts{{v1::WORKER_STATE_ONLINE, online},
                  {v1::WORKER_STATE_OFFLINE, row[1].as<int64_t>() - online}};
  });
}

StatusOr<int> PgStore::PruneWorkers(std::chrono::milliseconds offline_for) {
  return Run<int>("PruneWorkers", [&](pqxx::work& tx) -> StatusOr<int> {
    // Their devices keep their rows (worker_id set NULL by the foreign key) and history.
    pqxx::result r = tx.exec_params(
        "DELETE FROM worker w WHERE w.last_seen < now() - $1::bigint * interval '1 millisecond'"
        "   AND NOT EXISTS (SELECT 1 FROM job j WHERE j.lease_owner = w.id)",
        static_cast<int64_t>(offline_for.count()));
    return static_cast<int>(r.affected_rows());
  });
}

}  // namespace warpwatch::server::detail
