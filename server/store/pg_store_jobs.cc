// File: server/store/pg_store_jobs.cc
// JobService side of the store: enqueue, get, list with filters and keyset paging, cancel.
#include <algorithm>
#include <map>
#include <pqxx/pqxx>

#include "server/store/detail/conversions.h"
#include "server/store/detail/job_row.h"
#include "server/store/detail/pg_store_impl.h"

namespace warpwatch::server::detail {
namespace {

constexpr const char* kPageTokenPrefix = "ww1.";

std::string EncodePageToken(int64_t last_id) { return kPageTokenPrefix + std::to_string(last_id); }

// 0 for the first page.
StatusOr<int64_t> DecodePageToken(const std::string& token) {
  if (token.empty()) return int64_t{0};
  const std::string prefix = kPageTokenPrefix;
  if (token.rfind(prefix, 0) != 0 || token.size() == prefix.size() || token.size() > 30) {
    return InvalidArgumentError("page_token: malformed");
  }
  int64_t id = 0;
  for (size_t i = prefix.size(); i < token.size(); ++i) {
    if (token[i] < '0' || token[i] > '9') return InvalidArgumentError("page_token: malformed");
    id = id * 10 + (token[i] - '0');
  }
  if (id <= 0) return InvalidArgumentError("page_token: malformed");
  return id;
}

template <typename Map>
std::map<std::string, std::string> ToStdMap(const Map& m) {
  return std::map<std::string, std::string>(m.begin(), m.end());
}

StatusOr<v1::Job> SelectJob(pqxx::work& tx, int64_t id) {
  pqxx::result r = tx.exec_params("SELECT " + JobColumns() + " FROM job j WHERE j.id = $1", id);
  if (r.empty()) return NotFoundError("job " + std::to_string(id) + " not found");
  return JobFromRow(r[0]);
}

}  // namespace

StatusOr<v1::Job> PgStore::EnqueueJob(const v1::JobSpec& spec, int64_t points_total,
                                      const std::string& submitted_by) {
  v1::JobSpec stored = spec;
  if (stored.max_attempts() <= 0) stored.set_max_attempts(kDefaultMaxAttempts);
  ASSIGN_OR_RETURN(std::string spec_json, MessageToJson(stored));
  const std::string labels = StringMapToJson(ToStdMap(stored.labels()));
  const std::string worker_labels = StringMapToJson(ToStdMap(stored.selector().worker_labels()));
  return Run<v1::Job>("EnqueueJob", [&](pqxx::work& tx) -> StatusOr<v1::Job> {
    pqxx::result r = tx.exec_params(
        "INSERT INTO job AS j (spec, state, priority, max_attempts, points_total, submitted_by,"
        "  labels, selector_gpu_model, selector_gpu_uuid, selector_worker_labels)"
        " VALUES ($1::jsonb, 'QUEUED', $2, $3, $4, $5, $6::jsonb, $7, $8, $9::jsonb)"
        " RETURNING " +
            JobColumns(),
        spec_json, stored.priority(), stored.max_attempts(), points_total, submitted_by, labels,
        stored.selector().gpu_model(), stored.selector().gpu_uuid(), worker_labels);
    ASSIGN_OR_RETURN(v1::Job job, JobFromRow(r.at(0)));
    NotifyJobQueued(tx, job.id());
    return job;
  });
}

StatusOr<v1::Job> PgStore::GetJob(int64_t id) {
  return Run<v1::Job>("GetJob", [&](pqxx::work& tx) { return SelectJob(tx, id); });
}

StatusOr<JobPage> PgStore::ListJobs(const JobFilter& filter) {
  ASSIGN_OR_RETURN(int64_t before_id, DecodePageToken(filter.page_token));
  int page_size = filter.page_size <= 0 ? kDefaultJobPageSize : filter.page_size;
  page_size = std::min(page_size, kMaxJobPageSize);
  std::vector<std::string> states;
  for (v1::JobState s : filter.states) {
    const std::string name = JobStateName(s);
    if (name.empty()) return InvalidArgumentError("states: unknown job state " + std::to_string(s));
    states.push_back(name);
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
      page.next_page_token = EncodePageToken(page.jobs.back().id());
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
          "UPDATE job SET state = 'CANCELLED', cancel_requested = true, error = $2,"
          " finished_at = now() WHERE id = $1",
          id, why);
    } else if (state == "RUNNING") {
      // The worker learns it from its next heartbeat or progress report and ends the job.
      tx.exec_params(
          "UPDATE job SET cancel_requested = true,"
          " error = CASE WHEN cancel_requested THEN error ELSE $2 END WHERE id = $1",
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
