// File: server/store/pg_store_jobs.cc
// JobService side of the store: enqueue, get, list with filters and keyset paging, cancel.
#include <algorithm>
#include <map>
#include <pqxx/pqxx>

#include "server/store/detail/conversions.h"
#include "server/store/detail/job_row.h"
#include "server/store/detail/page_token.h"
#include "server/store/detail/pg_store_impl.h"
#include "server/store/paging.h"

namespace warpwatch::server::detail {
namespace {

// What a ListJobs page token is bound to: every filter of the query.
FilterFingerprint JobFilterFingerprint(const JobFilter& filter,
                                       const std::vector<std::string>& states) {
  FilterFingerprint f;
  f.Add("jobs").Add(static_cast<int64_t>(states.size()));
  for (const std::string& state : states) f.Add(state);
  f.Add(static_cast<int64_t>(filter.labels.size()));
  for (const auto& [key, value] : filter.labels) f.Add(key).Add(value);
  f.Add(filter.gpu_model).Add(filter.gpu_uuid);
  f.Add(filter.created.has_start() ? MicrosFromTimestamp(filter.created.start()) : -1);
  f.Add(filter.created.has_end() ? MicrosFromTimestamp(filter.created.end()) : -1);
  return f;
}

template <typename Map>
std::map<std::string, std::string> JobToStdMap(const Map& m) {
  return std::map<std::string, std::string>(m.begin(), m.end());
}

StatusOr<v1::Job> SelectJob(pqxx::work& tx, int64_t id) {
  pqxx::result r = tx.exec_params("SELECT " + JobColumns() + " FROM job j WHERE j.id = $1", id);
  if (r.empty()) return NotFoundError("job " + std::to_string(id) + " not found");
  return JobFromRow(r[0]);
}

}  // namespace

StatusOr<v1::Job> PgStore::EnqueueJob(const v1::JobSpec& spec, int64_t points_total,
                                      const std::string& submitted_by,
                                      const std::string& request_id) {
  v1::JobSpec stored = spec;
  if (stored.max_attempts() <= 0) stored.set_max_attempts(kDefaultMaxAttempts);
  ASSIGN_OR_RETURN(std::string spec_json, MessageToJson(stored));
  const std::string labels = StringMapToJson(JobToStdMap(stored.labels()));
  const std::string worker_labels = StringMapToJson(JobToStdMap(stored.selector().worker_labels()));
  return Run<v1::Job>("EnqueueJob", [&](pqxx::work& tx) -> StatusOr<v1::Job> {
    // A retry of a submit that already stored its job inserts nothing (the unique index on
    // (submitted_by, request_id)); concurrent retries wait on each other's row and see it.
    pqxx::result r = tx.exec_params(
        "INSERT INTO job AS j (spec, state, priority, max_attempts, points_total, submitted_by,"
        "  labels, selector_gpu_model, selector_gpu_uuid, selector_worker_labels, request_id)"
        " VALUES ($1::jsonb, 'QUEUED', $2, $3, $4, $5, $6::jsonb, $7, $8, $9::jsonb,"
        "         nullif($10::text, ''))"
        " ON CONFLICT (submitted_by, request_id) WHERE request_id IS NOT NULL DO NOTHING"
        " RETURNING " +
            JobColumns(),
        spec_json, stored.priority(), stored.max_attempts(), points_total, submitted_by, labels,
        stored.selector().gpu_model(), stored.selector().gpu_uuid(), worker_labels, request_id);
    if (r.empty()) {
      pqxx::result earlier =
          tx.exec_params("SELECT j.spec = $3::jsonb, " + JobColumns() +
                             " FROM job j WHERE j.submitted_by = $1 AND j.request_id = $2",
                         submitted_by, request_id, spec_json);
      if (earlier.empty()) return AbortedError("EnqueueJob: request_id conflict; retry");
      if (!earlier[0][0].as<bool>()) {
        return AlreadyExistsError("request_id \"" + request_id + "\" was used for job " +
                                  earlier[0][1].as<std::string>() +
                                  " with a different spec; use a new request_id");
      }
      return JobFromRow(earlier[0], 1);
    }
    ASSIGN_OR_RETURN(v1::Job job, JobFromRow(r.at(0)));
    NotifyJobQueued(tx, job.id());
    return job;
  });
}

StatusOr<v1::Job> PgStore::GetJob(int64_t id) {
  return Run<v1::Job>("GetJob", [&](pqxx::work& tx) { return SelectJob(tx, id); });
}

StatusOr<JobPage> PgStore::ListJobs(const JobFilter& filter) {
  const int page_size = EffectivePageSize(filter.page_size, kJobPageSizes);
  std::vector<std::string> states;
  for (v1::JobState s : filter.states) {
    const std::string name = JobStateName(s);
    if (name.empty()) return InvalidArgumentError("states: unknown job state " + std::to_string(s));
    states.push_back(name);
  }
  std::sort(states.begin(), states.end());
  states.erase(std::unique(states.begin(), states.end()), states.end());
  const FilterFingerprint fingerprint = JobFilterFingerprint(filter, states);
  int64_t before_id = 0;  // 0: the first page
  if (!filter.page_token.empty()) {
    ASSIGN_OR_RETURN(std::vector<std::string> position,
                     DecodePageToken(filter.page_token, fingerprint, 1));
    ASSIGN_OR_RETURN(before_id, PositiveIdFromPart(position[0]));
  }
  const bool has_start = filter.created.has_start();
  const bool has_end = filter.created.has_end();
  const int64_t start_us = has_start ? MicrosFromTimestamp(filter.created.start()) : 0;
  const int64_t end_us = has_end ? MicrosFromTimestamp(filter.created.end()) : 0;
  const std::string states_array = TextArrayLiteral(states);
  const std::string labels = StringMapToJson(filter.labels);
  return Run<JobPage>("ListJobs", [&](pqxx::work& tx) -> StatusOr<JobPage> {
    pqxx::result r = tx.exec_params(
        "SELECT " + JobColumns() +
            " FROM job j"
            " WHERE (cardinality($1::text[]) = 0 OR j.state = ANY($1::text[]))"
            "   AND j.labels @> $2::jsonb"
            "   AND ($3::text = '' OR j.selector_gpu_model = $3"
            "        OR EXISTS (SELECT 1 FROM run r WHERE r.job_id = j.id AND r.device_name = $3))"
            "   AND ($4::text = '' OR j.selector_gpu_uuid = $4"
            "        OR EXISTS (SELECT 1 FROM run r WHERE r.job_id = j.id AND r.device_uuid = $4))"
            "   AND (NOT $5::boolean"
            "        OR j.created_at >= 'epoch'::timestamptz + $6::bigint * interval '1 "
            "microsecond')"
            "   AND (NOT $7::boolean"
            "        OR j.created_at < 'epoch'::timestamptz + $8::bigint * interval '1 "
            "microsecond')"
            "   AND ($9::bigint = 0 OR j.id < $9::bigint)"
            " ORDER BY j.id DESC LIMIT $10",
        states_array, labels, filter.gpu_model, filter.gpu_uuid, has_start, start_us, has_end,
        end_us, before_id, page_size + 1);
    JobPage page;
    for (size_t i = 0; i < r.size() && static_cast<int>(i) < page_size; ++i) {
      ASSIGN_OR_RETURN(v1::Job job, JobFromRow(r[i]));
      page.jobs.push_back(std::move(job));
    }
    if (static_cast<int>(r.size()) > page_size) {
      page.next_page_token = EncodePageToken({std::to_string(page.jobs.back().id())}, fingerprint);
    }
    return page;
  });
}

StatusOr<v1::Job> PgStore::CancelJob(int64_t id, const std::string& reason) {
  const std::string why = reason.empty() ? "cancelled by user" : reason;
  return Run<v1::Job>("CancelJob", [&](pqxx::work& tx) -> StatusOr<v1::Job> {
    pqxx::result r = tx.exec_params("SELECT state FROM job WHERE id = $1 FOR UPDATE", id);
    if (r.empty()) return NotFoundError("job " + std::to_string(id) + " not found");
    const std::string state = r[0][0].as<std::string>();
    if (state == "QUEUED") {
      tx.exec_params(
          "UPDATE job SET state = 'CANCELLED', cancel_requested = true, cancel_reason = $2,"
          " error = $2, finished_at = now() WHERE id = $1",
          id, why);
    } else if (state == "RUNNING") {
      // The worker learns it from its next heartbeat or progress report and ends the job. The
      // reason becomes Job.error only if the job does end CANCELLED (the first reason wins).
      tx.exec_params(
          "UPDATE job SET cancel_requested = true,"
          " cancel_reason = CASE WHEN cancel_requested THEN cancel_reason ELSE $2 END"
          " WHERE id = $1",
          id, why);
    } else {
      return FailedPreconditionError("job " + std::to_string(id) + " already finished (" + state +
                                     ")");
    }
    return SelectJob(tx, id);
  });
}

StatusOr<std::map<v1::JobState, int64_t>> PgStore::CountJobsByState() {
  using Counts = std::map<v1::JobState, int64_t>;
  return Run<Counts>("CountJobsByState", [&](pqxx::work& tx) -> StatusOr<Counts> {
    Counts counts;
    for (const auto& row : tx.exec("SELECT state, count(*) FROM job GROUP BY state")) {
      counts[JobStateFromName(row[0].as<std::string>())] = row[1].as<int64_t>();
    }
    return counts;
  });
}

}  // namespace warpwatch::server::detail
