// File: server/store/pg_analysis_store.cc
// Claiming finished runs (FOR UPDATE SKIP LOCKED), opening the suspects of abandoned
// confirmations, and waiting for the run table's NOTIFY.
#include "server/store/pg_analysis_store.h"

#include <mutex>
#include <pqxx/pqxx>

#include "server/analysis/counter_plan.h"
#include "server/store/detail/connection_pool.h"
#include "server/store/detail/conversions.h"
#include "server/store/detail/pg_analysis_tx.h"
#include "server/store/detail/transact.h"

namespace warpwatch::server::detail {
namespace {

class RunFinishedReceiver : public pqxx::notification_receiver {
 public:
  explicit RunFinishedReceiver(pqxx::connection_base& conn)
      : pqxx::notification_receiver(conn, kRunFinishedChannel) {}
  void operator()(const std::string& /*payload*/, int /*backend_pid*/) override {}
};

bool Retryable(const Status& s) {
  return s.code() == StatusCode::kUnavailable || s.code() == StatusCode::kAborted;
}

constexpr int kMaxClaimRetries = 3;

class PgAnalysisStore : public analysis::AnalysisStore {
 public:
  explicit PgAnalysisStore(const PgStoreOptions& options)
      : url_(WithConnectTimeout(options.url, 1)), pool_(PoolOptionsOf(options, url_)) {}

  ~PgAnalysisStore() override {
    std::lock_guard<std::mutex> lock(listen_mu_);
    receiver_.reset();  // before its connection
    listen_conn_.reset();
  }

  StatusOr<std::optional<int64_t>> AnalyzeNextRun(const Analyze& analyze) override;
  StatusOr<int> OpenSuspectsOfAbandonedConfirmations() override;
  StatusOr<int> CancelStaleConfirmations(std::chrono::seconds max_queued) override;
  StatusOr<bool> WaitForFinishedRun(std::chrono::milliseconds timeout) override;

 private:
  static PoolOptions PoolOptionsOf(const PgStoreOptions& options, const std::string& url) {
    PoolOptions pool;
    pool.url = url;
    pool.max_size = options.pool_size;
    pool.acquire_timeout = options.acquire_timeout;
    pool.statement_timeout = options.statement_timeout;
    return pool;
  }

  StatusOr<std::optional<int64_t>> ClaimAndAnalyze(const Analyze& analyze, int64_t* claimed);

  const std::string url_;
  ConnectionPool pool_;
  std::mutex listen_mu_;  // guards the two members below; held while waiting (one waiter)
  std::unique_ptr<pqxx::connection> listen_conn_;
  std::unique_ptr<RunFinishedReceiver> receiver_;
};

StatusOr<std::optional<int64_t>> PgAnalysisStore::ClaimAndAnalyze(const Analyze& analyze,
                                                                  int64_t* claimed) {
  using Result = std::optional<int64_t>;
  return Transact<Result>(pool_, "AnalyzeNextRun", [&](pqxx::work& tx) -> StatusOr<Result> {
    *claimed = 0;
    // Finished runs only: a RUNNING run is PENDING too but not ready. The row lock is the claim.
    pqxx::result r = tx.exec(
        "SELECT r.id, coalesce(r.job_id, 0), coalesce(j.confirms_run_id, 0), r.state,"
        " r.device_uuid, r.device_name, r.history_owner, " +
        MicrosSql("r.started_at") + ", " + MicrosSql("r.finished_at") +
        ", CASE WHEN j.labels->>'" + std::string(analysis::kCountersForRunLabel) +
        "' ~ '^[0-9]{1,18}$' THEN (j.labels->>'" + std::string(analysis::kCountersForRunLabel) +
        "')::bigint ELSE 0 END" +
        " FROM run r LEFT JOIN job j ON j.id = r.job_id"
        " WHERE r.analysis_state = 'PENDING' AND r.state <> 'RUNNING'"
        " ORDER BY r.id LIMIT 1 FOR UPDATE OF r SKIP LOCKED");
    if (r.empty()) return Result();
    analysis::ClaimedRun run;
    run.run_id = r[0][0].as<int64_t>();
    run.job_id = r[0][1].as<int64_t>();
    run.confirms_run_id = r[0][2].as<int64_t>();
    const std::string state = r[0][3].as<std::string>();
    run.device_uuid = r[0][4].as<std::string>();
    run.gpu_model = r[0][5].as<std::string>();
    run.history_owner = r[0][6].as<std::string>();
    run.started_at_micros = r[0][7].as<int64_t>();
    run.finished_at_micros = r[0][8].as<int64_t>();
    run.counters_for_run_id = r[0][9].as<int64_t>();
    if (run.finished_at_micros == 0) run.finished_at_micros = run.started_at_micros;
    *claimed = run.run_id;
    std::string outcome = "SKIPPED";
    if (state == "SUCCEEDED") {
      PgAnalysisTx analysis_tx(tx, run);
      RETURN_IF_ERROR(analyze(analysis_tx));  // rolls back
      outcome = "DONE";
    }
    tx.exec_params("UPDATE run SET analysis_state = $2, analyzed_at = now() WHERE id = $1",
                   run.run_id, outcome);
    return Result(run.run_id);
  });
}

StatusOr<std::optional<int64_t>> PgAnalysisStore::AnalyzeNextRun(const Analyze& analyze) {
  int64_t claimed = 0;
  StatusOr<std::optional<int64_t>> result = ClaimAndAnalyze(analyze, &claimed);
  // ABORTED from inside the analysis (a deadlock or serialization failure the analysis saw):
  // the claim is rolled back; try again, as Transact does for its own statements.
  for (int i = 0;
       i < kMaxClaimRetries && !result.ok() && result.status().code() == StatusCode::kAborted;
       ++i) {
    result = ClaimAndAnalyze(analyze, &claimed);
  }
  if (result.ok() || claimed == 0 || Retryable(result.status())) return result;
  // The analysis of this run fails for a reason retrying will not cure: skip the run so the
  // ones behind it are analysed.
  StatusOr<bool> skipped = Transact<bool>(pool_, "SkipRun", [&](pqxx::work& tx) -> StatusOr<bool> {
    tx.exec_params(
        "UPDATE run SET analysis_state = 'SKIPPED', analyzed_at = now()"
        " WHERE id = $1 AND analysis_state = 'PENDING'",
        claimed);
    return true;
  });
  Status error = result.status().Annotate("run " + std::to_string(claimed) + " not analysed" +
                                          (skipped.ok() ? " (marked SKIPPED)" : ""));
  return error;
}

StatusOr<int> PgAnalysisStore::OpenSuspectsOfAbandonedConfirmations() {
  return Transact<int>(
      pool_, "OpenSuspectsOfAbandonedConfirmations", [&](pqxx::work& tx) -> StatusOr<int> {
        pqxx::result r = tx.exec_params(
            "WITH abandoned AS ("
            "  SELECT g.id, j.id AS job_id, j.state AS job_state FROM regression g"
            "  JOIN job j ON j.id = g.confirmation_job_id"
            "  WHERE g.state = 'SUSPECTED' AND j.state IN ('FAILED', 'CANCELLED')"
            "  FOR UPDATE OF g SKIP LOCKED),"
            " opened AS ("
            "  UPDATE regression g SET state = 'OPEN', updated_at = now() FROM abandoned a"
            "  WHERE g.id = a.id RETURNING g.id, a.job_id, a.job_state)"
            " INSERT INTO regression_event (regression_id, from_state, to_state, actor, note)"
            " SELECT id, 'SUSPECTED', 'OPEN', $1, 'unconfirmed: confirmation job ' || job_id ||"
            "  ' ended ' || job_state || '; opened on the first run''s evidence alone'"
            " FROM opened RETURNING 1",
            std::string(analysis::kDetectorActor));
        return static_cast<int>(r.size());
      });
}

StatusOr<int> PgAnalysisStore::CancelStaleConfirmations(std::chrono::seconds max_queued) {
  return Transact<int>(pool_, "CancelStaleConfirmations", [&](pqxx::work& tx) -> StatusOr<int> {
    const std::string why = "confirmation not started within " +
                            std::to_string(max_queued.count()) +
                            " s: its GPU did not come back for it";
    pqxx::result r = tx.exec_params(
        "UPDATE job SET state = 'CANCELLED', cancel_requested = true, cancel_reason = $2,"
        " error = $2, finished_at = now()"
        " WHERE id IN (SELECT id FROM job WHERE confirms_run_id IS NOT NULL AND state = 'QUEUED'"
        "  AND created_at < now() - make_interval(secs => $1) FOR UPDATE SKIP LOCKED)"
        " RETURNING id",
        static_cast<double>(max_queued.count()), why);
    return static_cast<int>(r.size());
  });
}

StatusOr<bool> PgAnalysisStore::WaitForFinishedRun(std::chrono::milliseconds timeout) {
  std::lock_guard<std::mutex> lock(listen_mu_);
  try {
    if (listen_conn_ == nullptr) {
      auto conn = std::make_unique<pqxx::connection>(url_);
      receiver_ = std::make_unique<RunFinishedReceiver>(*conn);  // issues LISTEN
      listen_conn_ = std::move(conn);
      return true;  // notifications sent while nobody listened are lost: look now
    }
    const int64_t us = timeout.count() * 1000;
    return listen_conn_->await_notification(us / 1000000, us % 1000000) > 0;
  } catch (...) {
    receiver_.reset();
    listen_conn_.reset();
    return ClassifyCurrentException("WaitForFinishedRun").status;
  }
}

}  // namespace
}  // namespace warpwatch::server::detail

namespace warpwatch::server {

StatusOr<std::unique_ptr<analysis::AnalysisStore>> OpenPgAnalysisStore(
    const PgStoreOptions& options) {
  if (options.url.empty()) return InvalidArgumentError("database url is empty");
  if (options.pool_size < 1) return InvalidArgumentError("pool size must be at least 1");
  return std::unique_ptr<analysis::AnalysisStore>(
      std::make_unique<detail::PgAnalysisStore>(options));
}

}  // namespace warpwatch::server
