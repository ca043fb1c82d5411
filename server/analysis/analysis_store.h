// File: server/analysis/analysis_store.h
// What the analysis loop needs from the database, and nothing else: claim one finished run at a
// time, read the series it touched, write what the detector found (regression rows, confirmation
// jobs, change points). PostgreSQL implements it (server/store/pg_analysis_store.h); the tests run
// it on a real PostgreSQL (tests/server/analysis).
#ifndef WARPWATCH_SERVER_ANALYSIS_ANALYSIS_STORE_H_
#define WARPWATCH_SERVER_ANALYSIS_ANALYSIS_STORE_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "common/status/status.h"
#include "server/detect/noise_model.h"
#include "server/detect/run_point.h"
#include "warpwatch/v1/job.pb.h"

namespace warpwatch::server::analysis {

// The run being analysed (a finished run: state SUCCEEDED; others are never handed out).
struct ClaimedRun {
  int64_t run_id = 0;
  int64_t job_id = 0;           // 0: an uploaded run (UploadRun), no job and no worker behind it
  int64_t confirms_run_id = 0;  // its job is the confirmation job of this run; 0 otherwise
  // Its job is the counter job (counter_plan.h, label warpwatch.counters_for_run) of this run;
  // 0 otherwise.
  int64_t counters_for_run_id = 0;
  std::string device_uuid;
  std::string gpu_model;  // the device's name, as in series ids ("case@model")
  int64_t started_at_micros = 0;
  int64_t finished_at_micros = 0;
  // The history the run belongs to (run.history_owner, migration 0018): '' for the fleet's (worker
  // runs, and uploads an admin put there), else the principal whose uploads form their own
  // history. Every history read of its analysis (series, peers, pins, active findings) keeps to
  // runs of this history; the model-wide noise estimate is always the fleet's.
  std::string history_owner;
};

// One measurement of the claimed run.
struct RunCase {
  int64_t measurement_id = 0;
  std::string case_canonical;
  std::string family;
  std::string variant;
  std::map<std::string, int64_t> params;
  std::string series_id;
  detect::RunPoint point;  // with its raw samples; device_uuid = the run's device
};

// One run of a series, as history.
struct SeriesPoint {
  detect::RunPoint point;  // no samples
  int64_t started_at_micros = 0;
  // May serve as a baseline (LoadSeries says when not); every point counts for change points.
  bool baseline_eligible = true;
};

// How far the claimed run's scheduled night is (AnalysisTx::NightSize): its schedule run's jobs
// that did not fail or get cancelled, and those of them that finished. Both 0 without a schedule.
struct NightSize {
  int expected = 0;
  int finished = 0;
};

// A run of the claimed run's night (AnalysisTx::NightPeerRuns).
struct PeerRun {
  int64_t run_id = 0;
  std::string device_uuid;
  int64_t finished_at_micros = 0;
};

// A series whose change points are kept: the GPU-model series (device_uuid "") or the one-device
// series.
struct SeriesKey {
  std::string series_id;
  std::string device_uuid;
  bool operator<(const SeriesKey& o) const {
    return series_id != o.series_id ? series_id < o.series_id : device_uuid < o.device_uuid;
  }
};

// regression.kind / regression.state / regression.blame vocabulary, spelled as in the schema
// (0007_detection.sql).
inline constexpr const char* kKindRegression = "REGRESSION";
inline constexpr const char* kKindImprovement = "IMPROVEMENT";
inline constexpr const char* kKindOutlier = "OUTLIER";
inline constexpr const char* kStateSuspected = "SUSPECTED";
inline constexpr const char* kStateOpen = "OPEN";
inline constexpr const char* kStateDismissed = "DISMISSED";
inline constexpr const char* kStateNoise = "NOISE";
inline constexpr const char* kStateAcknowledged = "ACKNOWLEDGED";
inline constexpr const char* kStateFixed = "FIXED";
inline constexpr const char* kStateAccepted = "ACCEPTED";
// regression_event.actor of every change the detector makes.
inline constexpr const char* kDetectorActor = "detector";

// One regression row as the detector writes it, with its evidence.
struct Finding {
  int64_t run_id = 0;  // 0: the claimed run; another device's run for a fleet OUTLIER
  std::string kind;   // kKind*
  std::string state;  // kStateSuspected, kStateOpen or kStateDismissed
  std::string series_id;
  std::string case_canonical;
  std::string family;
  std::string variant;
  std::string gpu_model;
  std::string device_uuid;
  int64_t measurement_id = 0;
  std::vector<int64_t> baseline_run_ids;  // OUTLIER: the other devices' runs
  double baseline_median_seconds = 0;
  double new_median_seconds = 0;
  double change = 0;                    // new / baseline - 1
  std::optional<double> p_value;        // Mann-Whitney U on samples; evidence only
  std::optional<double> z;              // robust z of the new median
  std::optional<double> cycles_change;  // set when both clocks are known
  double baseline_sm_clock_mhz = 0;
  double new_sm_clock_mhz = 0;
  std::string blame = "NONE";  // "NONE", "CODE", "ENVIRONMENT"
  std::string method;          // the rule and its parameters, for people
  std::string note;            // the first regression_event's note ('' -> state)
  std::optional<double> min_detectable_change;  // of the series on this GPU, when judged
  std::optional<double> noise_sigma;            // the noise model's relative sigma used
};

// A REGRESSION or IMPROVEMENT of a series on one GPU that is still active (SUSPECTED, OPEN or
// ACKNOWLEDGED): later runs of that GPU are judged against its baseline, and attach to it while
// they stay at its level, instead of opening a finding a night.
struct ActiveFinding {
  int64_t regression_id = 0;
  std::string kind;   // kKindRegression or kKindImprovement
  std::string state;  // kStateSuspected, kStateOpen or kStateAcknowledged
  std::string series_id;
  std::vector<int64_t> baseline_run_ids;
  double change = 0;    // of its first run against that baseline: the level it stands for
  bool pinned = false;  // judged against a pinned baseline (method kMethodPinnedPrefix...)
  // The pooled relative sigma that judged its first run (regression.noise_sigma); NaN where not
  // stored. A later run is judged with it: the noise since then holds the finding's own step.
  double noise_sigma = std::numeric_limits<double>::quiet_NaN();
};

// The noise of a series on one GPU as its last decision saw it (series_noise rows), and what the
// model-wide estimate alone gives a GPU with a full baseline.
struct SeriesSensitivity {
  std::string series_id;
  double sigma_relative = 0;
  double min_detectable_change = 0;
  int baseline_runs = 0;
  std::optional<double> model_min_detectable_change;  // none without a model estimate
  int model_baseline_runs = 0;
};

// What the analysis of one run judged (run.analysis_coverage).
struct RunCoverage {
  int cases = 0;                      // measurements of the run
  int judged = 0;                     // decided SLOWER, FASTER or SAME
  int attached = 0;                   // of those: judged against an active finding
  std::map<std::string, int> unsure;  // reason class -> cases not judged
};

// What the fleet view compared of one run of the night (fleet_judged_run): its cases judged
// against their same-night peers, and their families. The GPU health verdict counts a run as
// looked at only through this (docs/gpu_health.md).
struct FleetJudged {
  int cases = 0;
  std::set<std::string> families;
};

// A change point of one series, stored as a change_point row.
struct StoredChangePoint {
  int64_t run_id = 0;  // first run at the new level
  int64_t at_micros = 0;
  double median_before = 0;
  double median_after = 0;
  double relative_change = 0;
  double p_value = 1;
  double q_hat = 0;
};

// A SUSPECTED regression waiting for its confirmation run.
struct Suspect {
  int64_t regression_id = 0;
  std::string kind;  // kKindRegression or kKindImprovement
  std::string case_canonical;
  std::string series_id;
  std::vector<int64_t> baseline_run_ids;
  bool pinned = false;  // judged against a pinned baseline (method kMethodPinned...)
};

// The method text of a finding judged against a pinned baseline starts with this.
inline constexpr const char* kMethodPinnedPrefix = "pinned:";

// The baseline pin a series is judged against (migration 0012).
struct PinnedBaseline {
  int64_t pin_id = 0;
  std::vector<int64_t> run_ids;  // the pin's runs with a good point of the series, ascending
};

// One analysis of one claimed run: reads and writes inside the claim's transaction. Valid only
// during the AnalysisStore::AnalyzeNextRun callback, on its thread. Errors: as AnalysisStore.
class AnalysisTx {
 public:
  virtual ~AnalysisTx() = default;

  virtual const ClaimedRun& run() const = 0;

  // Every measurement of the run, in id order.
  virtual StatusOr<std::vector<RunCase>> LoadRunCases() = 0;

  // Serialises writers of these series' change points across replicas until the transaction
  // ends (advisory locks, taken in one global order so two analyses cannot deadlock). Call
  // before LoadSeries so the history read includes every run already analysed by another replica.
  virtual Status LockSeries(const std::vector<SeriesKey>& keys) = 0;

  // The newest `newest` good points of each series (status OK, verified, throttled fraction at
  // most `max_throttled_fraction`, a positive finite median) of SUCCEEDED runs that are not
  // confirmation runs, of the claimed run's history (ClaimedRun::history_owner), oldest first
  // (run start, then id); only `device_uuid`'s runs unless it is empty. The claimed run's own point is included when good. Series without points are absent.
  // A point at a finding's level (a regression_run of a finding not ACCEPTED, NOISE or DISMISSED)
  // is left out; with `device_uuid` set, so are the GPU's runs that started before the first run
  // of its newest ACCEPTED finding of the series (the baseline re-anchors at an accepted level).
  virtual StatusOr<std::map<std::string, std::vector<SeriesPoint>>> LoadSeries(
      const std::vector<std::string>& series_ids, const std::string& device_uuid, size_t newest,
      double max_throttled_fraction) = 0;

  // The series' points of exactly these runs (whatever their quality, so the detector can say why
  // one is not good), oldest first; runs without the case are absent.
  virtual StatusOr<std::vector<detect::RunPoint>> LoadPoints(const std::string& series_id,
                                                             const std::vector<int64_t>& run_ids,
                                                             bool with_samples) = 0;

  // Per series, its newest baseline pin (of that series, or of every series its runs measured)
  // holding a run with a good point of the series (same goodness as LoadSeries; the series id
  // names the GPU model, so the runs are of the claimed run's model). Series without one are
  // absent: they are judged against their rolling window.
  virtual StatusOr<std::map<std::string, PinnedBaseline>> LoadPinnedBaselines(
      const std::vector<std::string>& series_ids, double max_throttled_fraction) = 0;

  // The same-night peer runs of the claimed run, the claimed run included: the runs of its
  // schedule run when its job came from a schedule, otherwise the runs that finished in
  // (from, to]; either way only those with the claimed run's software (driver, CUDA runtime,
  // worker version and the `git_sha` label), so peers never span two builds (a rolling upgrade
  // inside one schedule run is two groups of peers). Only SUCCEEDED runs that are not
  // confirmation runs, of a known device. Any order. (NightPeerCache turns them into each series'
  // peers.)
  virtual StatusOr<std::vector<PeerRun>> NightPeerRuns(int64_t from_micros, int64_t to_micros) = 0;

  // The claimed run's schedule run's jobs: those not FAILED or CANCELLED (expected) and those
  // SUCCEEDED (finished); {0, 0} when its job is not of a schedule (or it has no job).
  virtual StatusOr<NightSize> ScheduledNightSize() = 0;

  // The good points (goodness as LoadSeries) of these series in exactly these runs, without
  // samples: result[run_id][series_id]. Runs or series without a good point are absent.
  virtual StatusOr<std::map<int64_t, std::map<std::string, detect::RunPoint>>> GoodPointsOfRuns(
      const std::vector<std::string>& series_ids, const std::vector<int64_t>& run_ids,
      double max_throttled_fraction) = 0;

  // Per series, the model-wide noise estimate (detect::SuccessiveDifferenceNoise over the newest
  // `points` good points of every device, SUCCEEDED non-confirmation runs), from series_noise
  // when computed less than `max_age` ago, else computed now and stored. Series without two runs
  // of one device get an unknown estimate. Runs still PENDING analysis (the claimed run too) are
  // left out, so a change never widens the noise that judges it, and an ACCEPTED finding's first
  // run is not paired with the run before it (a new level, not noise).
  virtual StatusOr<std::map<std::string, detect::NoiseEstimate>> LoadModelNoise(
      const std::vector<std::string>& series_ids, size_t points, std::chrono::seconds max_age,
      double max_throttled_fraction) = 0;

  // Stores each series' sensitivity on the claimed run's device (series_noise, replacing the row),
  // and the model row's minimum detectable change where given.
  virtual Status RecordSensitivity(const std::vector<SeriesSensitivity>& rows) = 0;

  // The active finding of each series on the claimed run's device (the newest when several),
  // among findings of runs that started before the claimed run.
  virtual StatusOr<std::map<std::string, ActiveFinding>> LoadActiveFindings(
      const std::vector<std::string>& series_ids) = 0;

  // The claimed run's point `measurement_id` joins finding `regression_id` at its level:
  // a regression_run row, last_run_id and runs_at_level updated. Idempotent per (finding, run).
  virtual Status AttachToFinding(int64_t regression_id, int64_t measurement_id, double change,
                                 std::optional<double> z) = 0;

  // The level of an OPEN or ACKNOWLEDGED finding returned in the claimed run: FIXED by the
  // detector, closed_run_id = the run, with an event (`note`). A finding in another state by now is
  // left alone.
  virtual Status CloseFinding(int64_t regression_id, const std::string& note) = 0;

  // Stores what the analysis judged (run.analysis_coverage).
  virtual Status RecordCoverage(const RunCoverage& coverage) = 0;

  // Per run of the night (any run, not only the claimed one), what the fleet view compared of
  // it: the row keeps the largest case count and the union of families written, so analyses of
  // one night in any order, on any replica, only ever add to it.
  virtual Status RecordFleetJudged(const std::map<int64_t, FleetJudged>& by_run) = 0;

  // Inserts the rows (run_id = the claimed run unless the finding names another; a measurement_id
  // of 0 is looked up by run and case) and a regression_event ('' -> state, actor kDetectorActor,
  // the finding's note) for each. A row of the same (run, case, kind) already stored is left alone
  // (its id 0 in the result), so analysing a run twice writes nothing twice. Returns the ids in
  // input order.
  virtual StatusOr<std::vector<int64_t>> InsertFindings(const std::vector<Finding>& findings) = 0;

  // The spec of the claimed run's job; NOT_FOUND for an uploaded run.
  virtual StatusOr<v1::JobSpec> JobSpecOfRun() = 0;

  // Queues `spec` as the claimed run's confirmation job (job.confirms_run_id = the run, selector
  // gpu_uuid = spec.selector().gpu_uuid(), submitted by kDetectorActor), wakes waiting workers at
  // commit, and sets confirmation_job_id on the given regressions. When the run already has a
  // confirmation job, that job is reused. Returns the job id.
  virtual StatusOr<int64_t> EnqueueConfirmationJob(const v1::JobSpec& spec, int64_t points_total,
                                                   const std::vector<int64_t>& regression_ids) = 0;

  // Of `case_canonicals` (the claimed run's), those with a measurement carrying counters (or a
  // counters_note: the counter pass was asked and cannot take them, e.g. a timed region with no
  // kernel, so another counter job would not help) on the run's GPU from a run started after the
  // case's series last changed level there: after the
  // run of its latest REGRESSION or IMPROVEMENT finding on that GPU that is not NOISE, or after
  // the time it was closed FIXED (counter_plan.h). Cases never flagged need any counter run.
  virtual StatusOr<std::set<std::string>> CasesWithLevelCounters(
      const std::vector<std::string>& case_canonicals) = 0;

  // Marks for a new explanation (unswept) the standing findings of `case_canonicals` on the
  // claimed run's GPU (REGRESSION or IMPROVEMENT, SUSPECTED, OPEN or ACKNOWLEDGED, from a run that
  // started no later than the claimed one) whose explanation has no counters yet: the claimed run
  // measured those cases with the counter pass (a counter job's run, or an uploaded counter run),
  // so the incident sweep can diff them now. Returns how many were marked.
  virtual StatusOr<int> ReexplainWithCounters(const std::vector<std::string>& case_canonicals) = 0;

  // Queues `spec` (CounterJobSpec, counter_plan.h) as a counter job for the claimed run's GPU
  // (selector gpu_uuid, submitted by kDetectorActor) and wakes waiting workers at commit, unless a
  // counter job for that GPU is already QUEUED or RUNNING (its cases cover the same series at the
  // same level: a GPU gets one counter job at a time). Returns the new job's id, 0 when none was
  // queued.
  virtual StatusOr<int64_t> EnqueueCounterJob(const v1::JobSpec& spec, int64_t points_total) = 0;

  // Replaces every change_point row of each key by its points (an empty list deletes them). For a
  // GPU-model key (device_uuid '') it also records the claimed run's start as the time the
  // model-wide change points were refreshed through (series_noise.change_points_through of the
  // model row, when that row exists: LoadModelNoise writes it).
  virtual Status ReplaceChangePoints(
      const std::map<SeriesKey, std::vector<StoredChangePoint>>& by_series) = 0;

  // The series whose GPU-model change points are due: never refreshed, or refreshed through a
  // run that started at least `interval` before the claimed run did (always, for a zero
  // interval). On a fleet every run of a night would otherwise recompute and rewrite the same
  // model-wide change points.
  virtual StatusOr<std::set<std::string>> ModelChangePointsDue(
      const std::vector<std::string>& series_ids, std::chrono::seconds interval) = 0;

  // SUSPECTED regressions whose confirmation job is `job_id`, locked for update.
  virtual StatusOr<std::vector<Suspect>> SuspectsOfConfirmationJob(int64_t job_id) = 0;

  // SUSPECTED -> `to_state` (kStateOpen or kStateNoise) with confirmation_run_id = the claimed run
  // and a regression_event (actor kDetectorActor, `note`). A regression no longer SUSPECTED (a
  // person triaged it meanwhile) is left alone.
  virtual Status ResolveSuspect(int64_t regression_id, const std::string& to_state,
                                const std::string& note) = 0;
};

// Thread-safe: one instance is shared by the loop (and by tests standing for several replicas,
// each with its own instance). Errors: UNAVAILABLE (database unreachable, retry later), ABORTED
// (serialization failure, retry), INTERNAL (anything else, with the SQL error).
class AnalysisStore {
 public:
  using Analyze = std::function<Status(AnalysisTx&)>;

  virtual ~AnalysisStore() = default;

  // Claims the oldest finished run whose analysis_state is PENDING, skipping runs another
  // transaction holds (FOR UPDATE SKIP LOCKED: each run is analysed by one replica, once).
  // A run that did not SUCCEED becomes SKIPPED without `analyze`; a SUCCEEDED run is handed to
  // `analyze` inside the claim's transaction and becomes DONE when it returns OK, all committed
  // together. When `analyze` fails with UNAVAILABLE or ABORTED everything rolls back and the run
  // stays PENDING (retried on a later pass); with another code the run is marked SKIPPED in a
  // new transaction, so a run that cannot be analysed never blocks the ones behind it, and the
  // error is returned. Returns the run's id, or nullopt when no run is pending.
  virtual StatusOr<std::optional<int64_t>> AnalyzeNextRun(const Analyze& analyze) = 0;

  // SUSPECTED regressions whose confirmation job ended FAILED or CANCELLED (so no confirmation
  // run will come) become OPEN, with an event saying they were not confirmed. Returns how many.
  virtual StatusOr<int> OpenSuspectsOfAbandonedConfirmations() = 0;

  // Confirmation jobs still QUEUED `max_queued` after they were created (their GPU never came
  // back to take them) end CANCELLED with an error saying so, and the next
  // OpenSuspectsOfAbandonedConfirmations opens their suspects. Returns how many were cancelled.
  virtual StatusOr<int> CancelStaleConfirmations(std::chrono::seconds max_queued) = 0;

  // Blocks until a run finishes (a NOTIFY from the database) or `timeout` passes; true when
  // notified. Also true after the listening connection was re-established (notifications may
  // have been missed). UNAVAILABLE, after at most `timeout`, while the database is unreachable.
  virtual StatusOr<bool> WaitForFinishedRun(std::chrono::milliseconds timeout) = 0;
};

}  // namespace warpwatch::server::analysis

#endif  // WARPWATCH_SERVER_ANALYSIS_ANALYSIS_STORE_H_
