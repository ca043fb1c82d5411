// File: server/store/pg_analysis_reads.cc
// What the analysis of a claimed run reads: its measurements, the series' history, the fleet's
// latest runs, the pinned baselines, the job spec, the suspects of a confirmation job; and the
// series locks.
#include <algorithm>
#include <cstdlib>
#include <pqxx/pqxx>

#include "server/store/detail/conversions.h"
#include "server/store/detail/pg_analysis_tx.h"

namespace warpwatch::server::detail {
namespace {

using analysis::RunCase;

std::vector<std::string> Split(const std::string& literal) {
  std::vector<std::string> out;
  if (literal.size() < 3) return out;  // "{}"
  const std::string body = literal.substr(1, literal.size() - 2);
  size_t start = 0;
  while (true) {
    const size_t comma = body.find(',', start);
    out.push_back(
        body.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) return out;
    start = comma + 1;
  }
}

// "k=v&k=v" (params as the SQL below aggregates them) -> map.
std::map<std::string, int64_t> ParseParams(const std::string& text) {
  std::map<std::string, int64_t> params;
  size_t start = 0;
  while (start < text.size()) {
    size_t amp = text.find('&', start);
    if (amp == std::string::npos) amp = text.size();
    const std::string pair = text.substr(start, amp - start);
    const size_t eq = pair.find('=');
    if (eq != std::string::npos) {
      params[pair.substr(0, eq)] = std::strtoll(pair.c_str() + eq + 1, nullptr, 10);
    }
    start = amp + 1;
  }
  return params;
}

}  // namespace

detect::RunPoint AnalysisPointFromRow(const pqxx::row& row, int first) {
  detect::RunPoint p;
  p.run_id = row[first].as<int64_t>();
  p.device_uuid = row[first + 1].as<std::string>();
  p.ok = row[first + 2].as<std::string>() == "OK";
  p.verified = row[first + 3].as<bool>();
  p.throttled_fraction = row[first + 4].as<double>();
  p.median_seconds = row[first + 5].as<double>();
  p.sm_clock_mhz = row[first + 6].as<double>();
  return p;
}

// Runs whose points may serve as history: finished well, of the same history (an upload is
// compared only with its uploader's uploads unless an admin put it in the fleet's), and not a
// confirmation run (those measure only a night's suspects; counting them would weigh suspect
// nights double).
// The confirmation test is a scalar subquery of the run's one job (job.id is its key), not NOT
// EXISTS: PostgreSQL turns NOT EXISTS into an anti-join and, for runs without a job (uploads;
// every run of bench_history_scale's year), estimated it to keep under 1 % of the runs, so the
// series reads (LoadSeries' `cand`) walked every run and probed each partition's series index per
// run instead of walking the series index newest first: 27 s a call on a year of 96 GPUs, 2.3 ms
// with the subquery (docs/results/history_scale.md, 2026-12-02).
std::string HistoryRun(int owner) {
  return " r.state = 'SUCCEEDED' AND r.history_owner = $" + std::to_string(owner) +
         "::text AND NOT coalesce((SELECT cj.confirms_run_id IS NOT NULL FROM job cj"
         " WHERE cj.id = r.job_id), false)";
}

// NaN sorts above Infinity in PostgreSQL, so "< Infinity" also rejects NaN.
std::string GoodPoint(int n) {
  return " m.status = 'OK' AND m.verified AND m.throttled_fraction <= $" + std::to_string(n) +
         "::double precision AND m.median_seconds > 0"
         " AND m.median_seconds < 'Infinity'::double precision";
}

std::vector<double> ParseDoubleArray(const std::string& literal) {
  std::vector<double> out;
  for (const std::string& e : Split(literal)) out.push_back(std::strtod(e.c_str(), nullptr));
  return out;
}

std::vector<int64_t> ParseBigintArray(const std::string& literal) {
  std::vector<int64_t> out;
  for (const std::string& e : Split(literal)) out.push_back(std::strtoll(e.c_str(), nullptr, 10));
  return out;
}

StatusOr<std::vector<RunCase>> PgAnalysisTx::LoadRunCases() {
  return GuardPg<
      StatusOr<std::vector<RunCase>>>("LoadRunCases", [&]() -> StatusOr<std::vector<RunCase>> {
    pqxx::result rows = tx_.exec_params(
        std::string("SELECT m.id, m.case_canonical, m.family, m.variant,"
                    " coalesce((SELECT string_agg(key || '=' || value, '&') FROM"
                    "   jsonb_each_text(m.params)), ''),"
                    " m.series_id, m.samples_seconds::text, ") +
            kPointColumns +
            " FROM measurement m JOIN run r ON r.id = m.run_id WHERE m.run_id = $1 ORDER BY m.id",
        run_.run_id);
    std::vector<RunCase> cases;
    cases.reserve(rows.size());
    for (const pqxx::row& row : rows) {
      RunCase c;
      c.measurement_id = row[0].as<int64_t>();
      c.case_canonical = row[1].as<std::string>();
      c.family = row[2].as<std::string>();
      c.variant = row[3].as<std::string>();
      c.params = ParseParams(row[4].as<std::string>());
      c.series_id = row[5].as<std::string>();
      c.point = AnalysisPointFromRow(row, 7);
      c.point.samples_seconds = ParseDoubleArray(row[6].as<std::string>());
      cases.push_back(std::move(c));
    }
    return cases;
  });
}

Status PgAnalysisTx::LockSeries(const std::vector<analysis::SeriesKey>& keys) {
  return GuardPg<Status>("LockSeries", [&]() -> Status {
    std::vector<std::string> texts;
    for (const analysis::SeriesKey& k : keys) texts.push_back(k.series_id + '\x1f' + k.device_uuid);
    // One global order (the hash) so two analyses never wait on each other in a cycle: the
    // locks are taken row by row in the ordered subquery's order, in one round trip.
    tx_.exec_params(
        "SELECT pg_advisory_xact_lock(h) FROM (SELECT DISTINCT hashtextextended(k, 9) AS h"
        " FROM unnest($1::text[]) k ORDER BY h) ordered",
        TextArrayLiteral(texts));
    return OkStatus();
  });
}

StatusOr<std::vector<detect::RunPoint>> PgAnalysisTx::LoadPoints(
    const std::string& series_id, const std::vector<int64_t>& run_ids, bool with_samples) {
  using Result = std::vector<detect::RunPoint>;
  return GuardPg<StatusOr<Result>>("LoadPoints", [&]() -> StatusOr<Result> {
    pqxx::result rows =
        tx_.exec_params(std::string("SELECT ") + kPointColumns +
                            ", CASE WHEN $3::boolean THEN m.samples_seconds::text ELSE '{}' END"
                            " FROM measurement m JOIN run r ON r.id = m.run_id"
                            " WHERE m.series_id = $1 AND m.run_id = ANY($2::bigint[])"
                            " ORDER BY r.started_at, r.id",
                        series_id, BigintArrayLiteral(run_ids), with_samples);
    Result out;
    for (const pqxx::row& row : rows) {
      detect::RunPoint p = AnalysisPointFromRow(row, 0);
      p.samples_seconds = ParseDoubleArray(row[7].as<std::string>());
      out.push_back(std::move(p));
    }
    return out;
  });
}

StatusOr<std::map<std::string, analysis::PinnedBaseline>> PgAnalysisTx::LoadPinnedBaselines(
    const std::vector<std::string>& series_ids, double max_throttled_fraction) {
  using Result = std::map<std::string, analysis::PinnedBaseline>;
  return GuardPg<StatusOr<Result>>("LoadPinnedBaselines", [&]() -> StatusOr<Result> {
    // For each series the newest pin covering it, with its runs that have a good point of it and
    // are of the claimed run's history (a pinned upload is a baseline only where it would be one
    // unpinned).
    pqxx::result rows = tx_.exec_params(
        std::string("SELECT DISTINCT ON (t.series_id) t.series_id, t.pin_id, t.runs::text FROM ("
                    " SELECT s.series_id, p.id AS pin_id, ARRAY(SELECT pr.run_id"
                    "   FROM baseline_pin_run pr JOIN measurement m ON m.run_id = pr.run_id"
                    "   JOIN run hr ON hr.id = pr.run_id AND hr.history_owner = $3::text"
                    "   WHERE pr.pin_id = p.id AND m.series_id = s.series_id AND") +
            GoodPoint(2) +
            "   ORDER BY pr.run_id) AS runs"
            " FROM unnest($1::text[]) AS s(series_id)"
            " JOIN baseline_pin p ON p.series_id = s.series_id OR p.series_id = '') t"
            " WHERE cardinality(t.runs) > 0 ORDER BY t.series_id, t.pin_id DESC",
        TextArrayLiteral(series_ids), max_throttled_fraction, run_.history_owner);
    Result out;
    for (const pqxx::row& row : rows) {
      analysis::PinnedBaseline& pin = out[row[0].as<std::string>()];
      pin.pin_id = row[1].as<int64_t>();
      pin.run_ids = ParseBigintArray(row[2].as<std::string>());
    }
    return out;
  });
}

StatusOr<std::vector<analysis::PeerRun>> PgAnalysisTx::NightPeerRuns(int64_t from_micros,
                                                                     int64_t to_micros) {
  using Result = std::vector<analysis::PeerRun>;
  return GuardPg<StatusOr<Result>>("NightPeerRuns", [&]() -> StatusOr<Result> {
    // me: the claimed run's schedule run (NULL without one) and its software. A schedule run's
    // peers come through its jobs (job_schedule_run_idx); a window's are the runs that finished
    // in it. Either way only runs of the same software are peers: in a rolling driver upgrade
    // (one schedule run, some nodes upgraded) a driver that slows a family would otherwise make
    // every upgraded GPU an outlier of its night, and its health DEGRADED for a software change.
    pqxx::result rows = tx_.exec_params(
        std::string(
            "WITH me AS MATERIALIZED (SELECT j.schedule_run_id AS sr,"
            "  c.driver_version AS drv, c.cuda_runtime_version AS rt,"
            "  c.worker_version AS wv, coalesce(c.labels->>'git_sha', '') AS sha"
            "  FROM run c LEFT JOIN job j ON j.id = c.job_id WHERE c.id = $3),"
            " peer AS ("
            "  SELECT $3::bigint AS id"
            "  UNION"
            "  SELECT r.id FROM me, job pj"
            "  JOIN run r ON r.job_id = pj.id WHERE pj.schedule_run_id = me.sr"
            "  UNION"
            "  SELECT r.id FROM me, run r"
            "  WHERE me.sr IS NULL"
            "  AND r.finished_at > 'epoch'::timestamptz + $1::bigint * interval '1 microsecond'"
            "  AND r.finished_at <= 'epoch'::timestamptz + $2::bigint * interval '1 microsecond')"
            " SELECT r.id, r.device_uuid, ") +
            MicrosSql("r.finished_at") +
            " FROM me, peer p JOIN run r ON r.id = p.id WHERE r.device_uuid <> ''"
            " AND r.driver_version = me.drv AND r.cuda_runtime_version = me.rt"
            " AND r.worker_version = me.wv AND coalesce(r.labels->>'git_sha', '') = me.sha AND" +
            HistoryRun(4),
        from_micros, to_micros, run_.run_id, run_.history_owner);
    Result out;
    out.reserve(rows.size());
    for (const pqxx::row& row : rows) {
      analysis::PeerRun peer;
      peer.run_id = row[0].as<int64_t>();
      peer.device_uuid = row[1].as<std::string>();
      peer.finished_at_micros = row[2].is_null() ? 0 : row[2].as<int64_t>();
      out.push_back(std::move(peer));
    }
    return out;
  });
}

StatusOr<analysis::NightSize> PgAnalysisTx::ScheduledNightSize() {
  return GuardPg<StatusOr<analysis::NightSize>>(
      "ScheduledNightSize", [&]() -> StatusOr<analysis::NightSize> {
        // Through job_schedule_run_idx: one row per GPU of the night.
        pqxx::row r = tx_.exec_params1(
            "SELECT count(*) FILTER (WHERE j.state NOT IN ('FAILED', 'CANCELLED')),"
            " count(*) FILTER (WHERE j.state = 'SUCCEEDED')"
            " FROM job me JOIN job j ON j.schedule_run_id = me.schedule_run_id"
            " WHERE me.id = $1",
            run_.job_id);
        analysis::NightSize size;
        size.expected = r[0].as<int>();
        size.finished = r[1].as<int>();
        return size;
      });
}

StatusOr<std::map<int64_t, std::map<std::string, detect::RunPoint>>>
PgAnalysisTx::GoodPointsOfRuns(const std::vector<std::string>& series_ids,
                               const std::vector<int64_t>& run_ids,
                               double max_throttled_fraction) {
  using Result = std::map<int64_t, std::map<std::string, detect::RunPoint>>;
  return GuardPg<StatusOr<Result>>("GoodPointsOfRuns", [&]() -> StatusOr<Result> {
    Result out;
    if (run_ids.empty() || series_ids.empty()) return out;
    // Through measurement (run_id, case_canonical): NightPeerCache reads each run's points once.
    pqxx::result rows = tx_.exec_params(
        std::string("SELECT m.series_id, ") + kPointColumns +
            " FROM measurement m JOIN run r ON r.id = m.run_id"
            " WHERE m.run_id = ANY($1::bigint[]) AND m.series_id = ANY($2::text[]) AND" +
            GoodPoint(3),
        BigintArrayLiteral(run_ids), TextArrayLiteral(series_ids), max_throttled_fraction);
    for (const pqxx::row& row : rows) {
      detect::RunPoint p = AnalysisPointFromRow(row, 1);
      out[p.run_id][row[0].as<std::string>()] = std::move(p);
    }
    return out;
  });
}

StatusOr<v1::JobSpec> PgAnalysisTx::JobSpecOfRun() {
  return GuardPg<StatusOr<v1::JobSpec>>("JobSpecOfRun", [&]() -> StatusOr<v1::JobSpec> {
    pqxx::result r = tx_.exec_params("SELECT spec::text FROM job WHERE id = $1", run_.job_id);
    if (r.empty()) return NotFoundError("run " + std::to_string(run_.run_id) + " has no job");
    v1::JobSpec spec;
    RETURN_IF_ERROR(MessageFromJson(r[0][0].as<std::string>(), &spec));
    return spec;
  });
}

StatusOr<std::vector<analysis::Suspect>> PgAnalysisTx::SuspectsOfConfirmationJob(int64_t job_id) {
  using Result = std::vector<analysis::Suspect>;
  return GuardPg<StatusOr<Result>>("SuspectsOfConfirmationJob", [&]() -> StatusOr<Result> {
    pqxx::result rows = tx_.exec_params(
        "SELECT id, kind, case_canonical, series_id, baseline_run_ids::text,"
        " starts_with(method, $2) FROM regression"
        " WHERE confirmation_job_id = $1 AND state = 'SUSPECTED' ORDER BY id FOR UPDATE",
        job_id, std::string(analysis::kMethodPinnedPrefix));
    Result out;
    for (const pqxx::row& row : rows) {
      analysis::Suspect s;
      s.regression_id = row[0].as<int64_t>();
      s.kind = row[1].as<std::string>();
      s.case_canonical = row[2].as<std::string>();
      s.series_id = row[3].as<std::string>();
      s.baseline_run_ids = ParseBigintArray(row[4].as<std::string>());
      s.pinned = row[5].as<bool>();
      out.push_back(std::move(s));
    }
    return out;
  });
}

}  // namespace warpwatch::server::detail
