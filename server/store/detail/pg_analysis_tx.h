// File: server/store/detail/pg_analysis_tx.h
// AnalysisTx on the claim's libpqxx transaction. Reads in pg_analysis_reads.cc, writes in
// pg_analysis_writes.cc. Every method catches libpqxx's exceptions and answers a Status
// (ClassifyCurrentException); after one, the transaction is aborted and the claim rolls back.
#ifndef WARPWATCH_SERVER_STORE_DETAIL_PG_ANALYSIS_TX_H_
#define WARPWATCH_SERVER_STORE_DETAIL_PG_ANALYSIS_TX_H_

#include <chrono>
#include <optional>
#include <pqxx/transaction>
#include <string>
#include <vector>

#include "server/analysis/analysis_store.h"
#include "server/store/detail/pg_errors.h"

namespace warpwatch::server::detail {

// NOTIFY channel of "a run finished and waits for analysis" (sent by the run table's trigger,
// migration 0009).
inline constexpr const char* kRunFinishedChannel = "warpwatch_run_finished";

// Not thread-safe: used by the thread running the claim's transaction, during the claim.
class PgAnalysisTx : public analysis::AnalysisTx {
 public:
  PgAnalysisTx(pqxx::work& tx, analysis::ClaimedRun run) : tx_(tx), run_(std::move(run)) {}

  const analysis::ClaimedRun& run() const override { return run_; }

  StatusOr<std::vector<analysis::RunCase>> LoadRunCases() override;
  Status LockSeries(const std::vector<analysis::SeriesKey>& keys) override;
  StatusOr<std::map<std::string, std::vector<analysis::SeriesPoint>>> LoadSeries(
      const std::vector<std::string>& series_ids, const std::string& device_uuid, size_t newest,
      double max_throttled_fraction) override;
  StatusOr<std::vector<detect::RunPoint>> LoadPoints(const std::string& series_id,
                                                     const std::vector<int64_t>& run_ids,
                                                     bool with_samples) override;
  StatusOr<std::map<std::string, analysis::PinnedBaseline>> LoadPinnedBaselines(
      const std::vector<std::string>& series_ids, double max_throttled_fraction) override;
  StatusOr<std::vector<analysis::PeerRun>> NightPeerRuns(int64_t from_micros,
                                                         int64_t to_micros) override;
  StatusOr<analysis::NightSize> ScheduledNightSize() override;
  StatusOr<std::map<int64_t, std::map<std::string, detect::RunPoint>>> GoodPointsOfRuns(
      const std::vector<std::string>& series_ids, const std::vector<int64_t>& run_ids,
      double max_throttled_fraction) override;
  StatusOr<std::map<std::string, detect::NoiseEstimate>> LoadModelNoise(
      const std::vector<std::string>& series_ids, size_t points, std::chrono::seconds max_age,
      double max_throttled_fraction) override;
  Status RecordSensitivity(const std::vector<analysis::SeriesSensitivity>& rows) override;
  StatusOr<std::map<std::string, analysis::ActiveFinding>> LoadActiveFindings(
      const std::vector<std::string>& series_ids) override;
  Status AttachToFinding(int64_t regression_id, int64_t measurement_id, double change,
                         std::optional<double> z) override;
  Status CloseFinding(int64_t regression_id, const std::string& note) override;
  Status RecordCoverage(const analysis::RunCoverage& coverage) override;
  Status RecordFleetJudged(const std::map<int64_t, analysis::FleetJudged>& by_run) override;
  StatusOr<std::vector<int64_t>> InsertFindings(
      const std::vector<analysis::Finding>& findings) override;
  StatusOr<v1::JobSpec> JobSpecOfRun() override;
  StatusOr<int64_t> EnqueueConfirmationJob(const v1::JobSpec& spec, int64_t points_total,
                                           const std::vector<int64_t>& regression_ids) override;
  StatusOr<std::set<std::string>> CasesWithLevelCounters(
      const std::vector<std::string>& case_canonicals) override;
  StatusOr<int64_t> EnqueueCounterJob(const v1::JobSpec& spec, int64_t points_total) override;
  StatusOr<int> ReexplainWithCounters(const std::vector<std::string>& case_canonicals) override;
  Status ReplaceChangePoints(
      const std::map<analysis::SeriesKey, std::vector<analysis::StoredChangePoint>>& by_series)
      override;
  StatusOr<std::set<std::string>> ModelChangePointsDue(const std::vector<std::string>& series_ids,
                                                       std::chrono::seconds interval) override;
  StatusOr<std::vector<analysis::Suspect>> SuspectsOfConfirmationJob(int64_t job_id) override;
  Status ResolveSuspect(int64_t regression_id, const std::string& to_state,
                        const std::string& note) override;

 private:
  pqxx::work& tx_;
  const analysis::ClaimedRun run_;
};

// Runs fn() -> StatusOr<T> (or Status), turning a libpqxx exception into its Status.
template <typename R, typename Fn>
R GuardPg(const char* what, Fn&& fn) {
  try {
    return fn();
  } catch (...) {
    return ClassifyCurrentException(what).status;
  }
}

// An optional double as a text parameter: '' for none (or not finite), read back with
// nullif($n, '')::float8.
std::string OptionalDouble(const std::optional<double>& v);

// SQL of a good point (detect::IsGoodRun) of measurement `m`, the throttled fraction bound being
// parameter $n; and of a run `r` that may serve as history (SUCCEEDED, not a confirmation run, of
// the history owner that is parameter $owner: ClaimedRun::history_owner, '' for the fleet's).
std::string GoodPoint(int n);
std::string HistoryRun(int owner);

// Columns of a RunPoint without samples (run `r`, measurement `m`), in the order
// AnalysisPointFromRow reads them from column `first`.
inline constexpr const char* kPointColumns =
    "r.id, r.device_uuid, m.status, m.verified, m.throttled_fraction, m.median_seconds,"
    " m.median_sm_clock_mhz";
detect::RunPoint AnalysisPointFromRow(const pqxx::row& row, int first);

// Elements of a one-dimensional PostgreSQL array literal of numbers ("{1,2.5,NaN}").
std::vector<double> ParseDoubleArray(const std::string& literal);
std::vector<int64_t> ParseBigintArray(const std::string& literal);

}  // namespace warpwatch::server::detail

#endif  // WARPWATCH_SERVER_STORE_DETAIL_PG_ANALYSIS_TX_H_
