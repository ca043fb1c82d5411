// File: server/store/pg_analysis_counters.cc
// The analysis' counter jobs (server/analysis/counter_plan.h): which of a run's cases have
// counters at their current level on the run's GPU, and the queueing of a counter job.
#include <pqxx/pqxx>

#include "server/analysis/confirmation_plan.h"
#include "server/analysis/counter_plan.h"
#include "server/store/detail/conversions.h"
#include "server/store/detail/pg_analysis_tx.h"
#include "server/store/detail/pg_job_notifier.h"
#include "server/store/store.h"

namespace warpwatch::server::detail {

StatusOr<std::set<std::string>> PgAnalysisTx::CasesWithLevelCounters(
    const std::vector<std::string>& case_canonicals) {
  if (case_canonicals.empty() || run_.device_uuid.empty()) return std::set<std::string>();
  return GuardPg<StatusOr<std::set<std::string>>>(
      "CasesWithLevelCounters", [&]() -> StatusOr<std::set<std::string>> {
        // Per case: its level start on the GPU (regression_device_idx), then any counter
        // measurement after it among the GPU's runs (run_device_uuid_idx, then the measurement
        // table's unique (run_id, case_canonical)).
        const pqxx::result rows = tx_.exec_params(
            "WITH c AS (SELECT unnest($2::text[]) AS case_canonical),"
            " level AS ("
            "  SELECT c.case_canonical,"
            "   coalesce((SELECT max(CASE WHEN g.state = 'FIXED' THEN g.updated_at"
            "                        ELSE gr.started_at END)"
            "             FROM regression g JOIN run gr ON gr.id = g.run_id"
            "             WHERE g.device_uuid = $1 AND g.case_canonical = c.case_canonical"
            "               AND g.kind IN ('REGRESSION', 'IMPROVEMENT') AND g.state <> 'NOISE'),"
            "            '-infinity'::timestamptz) AS since"
            "  FROM c)"
            " SELECT l.case_canonical FROM level l"
            " WHERE EXISTS (SELECT 1 FROM run r JOIN measurement m ON m.run_id = r.id"
            "               AND m.case_canonical = l.case_canonical"
            "               WHERE r.device_uuid = $1 AND r.started_at > l.since"
            "                 AND (m.counters <> '{}'::jsonb OR m.counters_note <> '')"
            "                 AND r.history_owner ="
            "                   (SELECT history_owner FROM run WHERE id = $3))",
            run_.device_uuid, TextArrayLiteral(case_canonicals), run_.run_id);
        std::set<std::string> out;
        for (const pqxx::row& row : rows) out.insert(row[0].as<std::string>());
        return out;
      });
}

StatusOr<int> PgAnalysisTx::ReexplainWithCounters(
    const std::vector<std::string>& case_canonicals) {
  if (case_canonicals.empty() || run_.device_uuid.empty()) return 0;
  return GuardPg<StatusOr<int>>("ReexplainWithCounters", [&]() -> StatusOr<int> {
    const pqxx::result r = tx_.exec_params(
        "UPDATE regression g SET swept = false FROM run r"
        " WHERE r.id = g.run_id AND g.device_uuid = $1 AND g.case_canonical = ANY($2::text[])"
        "   AND g.kind IN ('REGRESSION', 'IMPROVEMENT')"
        "   AND g.state IN ('SUSPECTED', 'OPEN', 'ACKNOWLEDGED') AND g.swept"
        "   AND r.started_at <= (SELECT started_at FROM run WHERE id = $3)"
        "   AND coalesce(g.explanation->>'counter_run_id', '0') = '0'"
        "   AND r.history_owner = (SELECT history_owner FROM run WHERE id = $3)",
        run_.device_uuid, TextArrayLiteral(case_canonicals), run_.run_id);
    return static_cast<int>(r.affected_rows());
  });
}

StatusOr<int64_t> PgAnalysisTx::EnqueueCounterJob(const v1::JobSpec& spec, int64_t points_total) {
  v1::JobSpec stored = spec;
  if (stored.max_attempts() <= 0) stored.set_max_attempts(kDefaultMaxAttempts);
  ASSIGN_OR_RETURN(std::string spec_json, MessageToJson(stored));
  const std::string labels = StringMapToJson(
      std::map<std::string, std::string>(stored.labels().begin(), stored.labels().end()));
  return GuardPg<StatusOr<int64_t>>("EnqueueCounterJob", [&]() -> StatusOr<int64_t> {
    const pqxx::result waiting = tx_.exec_params(
        "SELECT id FROM job WHERE selector_gpu_uuid = $1 AND state IN ('QUEUED', 'RUNNING')"
        " AND labels ? $2 LIMIT 1",
        stored.selector().gpu_uuid(), std::string(analysis::kCountersForRunLabel));
    if (!waiting.empty()) return int64_t{0};
    const int64_t job_id =
        tx_.exec_params(
               "INSERT INTO job (spec, state, priority, max_attempts, points_total,"
               " submitted_by, labels, selector_gpu_model, selector_gpu_uuid,"
               " selector_worker_labels)"
               " VALUES ($1::jsonb, 'QUEUED', $2, $3, $4, $5, $6::jsonb, '', $7, '{}')"
               " RETURNING id",
               spec_json, stored.priority(), stored.max_attempts(), points_total,
               std::string(analysis::kDetectorActor), labels, stored.selector().gpu_uuid())
            .at(0)
            .at(0)
            .as<int64_t>();
    NotifyJobQueued(tx_, job_id);
    return job_id;
  });
}

}  // namespace warpwatch::server::detail
