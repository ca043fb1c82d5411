// File: server/store/pg_analysis_series.cc
// The analysis' history read (PgAnalysisTx::LoadSeries): each series' newest good points, of one
// GPU or of its model, read from the newest measurement partitions only.
#include <pqxx/pqxx>

#include "server/store/detail/conversions.h"
#include "server/store/detail/pg_analysis_tx.h"

namespace warpwatch::server::detail {
namespace {

using analysis::SeriesPoint;

// The run-id bound of the newest points: the lowest id among the newest 2 x `newest` runs of the
// GPU (or, for a model read, of its model), whatever they ran. A series measured in most of them
// has its newest `newest` points above the bound, which the partition keys prune to; the factor
// 2 leaves room for runs that measure other series (counter jobs, ad-hoc jobs, confirmations).
constexpr const char* kBoundRunsFactor = "2";

}  // namespace

StatusOr<std::map<std::string, std::vector<SeriesPoint>>> PgAnalysisTx::LoadSeries(
    const std::vector<std::string>& series_ids, const std::string& device_uuid, size_t newest,
    double max_throttled_fraction) {
  using Result = std::map<std::string, std::vector<SeriesPoint>>;
  return GuardPg<StatusOr<Result>>("LoadSeries", [&]() -> StatusOr<Result> {
    // `cand`: each series' newest `newest` good points by run id, in two parts:
    // - `near`: the points of runs at or above `bound` (run_device_id_idx / run_device_name_id_idx,
    //   migration 0023), read index-only from the series index ((series_id, device_uuid, run_id),
    //   or (series_id, run_id) for a model): the partitions below the bound are pruned, and the
    //   runs' eligibility is one hash of `hist` (at most 2 x `newest` runs), not a probe of `run`
    //   per point. A series with `newest` points there has exactly its newest `newest` among them
    //   (every point below the bound is older by id).
    // - `far`: the series with fewer (new series, or series few of those runs measured), read
    //   over every partition, joined to `run` per point.
    // Before the split one lateral did what `far` does for every series, with a heap fetch per
    // point for its id (the index covers the summary columns, not `id`): 1.9 s against 0.55 s for
    // 286 series of one GPU over a year of month partitions, warm, without JIT
    // (docs/results/history_scale.md, 2026-12-04).
    // The newest by start can differ only by runs that started no earlier than a series' oldest
    // candidate yet have a lower id than all its candidates (a run uploaded late): `late` adds
    // those, found through the runs that started since the oldest candidate of any full series
    // (`late_runs`, usually none; joined from the series side instead, PostgreSQL may read each
    // full series in every partition), and the ranking keeps the newest `newest` by start of
    // both. A series with fewer candidates than `newest` has all its points among them.
    // `eligible`: the point may serve as a baseline: not at the level of a finding still standing
    // (or closed by a fix or a return: those runs were abnormal), and not older than the GPU's
    // newest accepted level of the series (analysis_store.h). A finding's run rows name the
    // measurement of its series in that run (one per run and series), so "this point is at a
    // finding's level" is its run and series; the series' findings (`level`, `accepted`) are
    // read once, not per point.
    // The GPU's runs, or its model's for a model read ($2 ''); the parameters are planned as
    // constants, so one side of each OR folds away and the index of the other is used.
    const std::string run_scope =
        "($2::text = '' OR r.device_uuid = $2::text) AND ($2::text <> '' OR r.device_name = "
        "$6::text)";
    const std::string device_filter =
        " ($2::text = '' OR (m.device_uuid = $2::text AND r.device_uuid = $2::text))";
    const std::string point_columns = std::string("m.series_id, r.started_at, ") + kPointColumns;
    pqxx::result rows = tx_.exec_params(
        "WITH bound AS MATERIALIZED (SELECT coalesce(min(b.id), 0) AS lo FROM (SELECT r.id"
        "  FROM run r WHERE " +
            run_scope + " ORDER BY r.id DESC LIMIT " + kBoundRunsFactor +
            " * $4) b),"
            " hist AS MATERIALIZED (SELECT r.id, r.started_at, r.device_uuid FROM run r WHERE " +
            run_scope + " AND r.id >= (SELECT lo FROM bound) AND" + HistoryRun(5) +
            "),"
            " near AS MATERIALIZED (SELECT x.* FROM unnest($1::text[]) AS s(series_id)"
            "  CROSS JOIN LATERAL (SELECT m.series_id, m.run_id, m.status, m.verified,"
            "  m.throttled_fraction, m.median_seconds, m.median_sm_clock_mhz FROM measurement m"
            "  WHERE m.series_id = s.series_id AND ($2::text = '' OR m.device_uuid = $2::text)"
            "  AND m.run_id >= (SELECT lo FROM bound) AND m.run_id IN (SELECT h.id FROM hist h)"
            "  AND" +
            GoodPoint(3) +
            "  ORDER BY m.run_id DESC LIMIT $4) x),"
            " short AS MATERIALIZED (SELECT s.series_id FROM unnest($1::text[]) AS s(series_id)"
            "  LEFT JOIN (SELECT series_id, count(*) AS c FROM near GROUP BY series_id) k"
            "  USING (series_id) WHERE coalesce(k.c, 0) < $4),"
            " far AS MATERIALIZED (SELECT x.* FROM short s CROSS JOIN LATERAL (SELECT " +
            point_columns +
            "  FROM measurement m JOIN run r ON r.id = m.run_id"
            "  WHERE m.series_id = s.series_id AND" +
            device_filter + " AND" + HistoryRun(5) + " AND" + GoodPoint(3) +
            "  ORDER BY m.run_id DESC LIMIT $4) x),"
            " cand AS MATERIALIZED (SELECT n.series_id, h.started_at, h.id, h.device_uuid,"
            "  n.status, n.verified, n.throttled_fraction, n.median_seconds, n.median_sm_clock_mhz"
            "  FROM near n JOIN hist h ON h.id = n.run_id"
            "  WHERE n.series_id NOT IN (SELECT series_id FROM short)"
            "  UNION ALL SELECT * FROM far),"
            " full_series AS MATERIALIZED (SELECT series_id, min(started_at) AS oldest,"
            "  min(id) AS lowest FROM cand GROUP BY series_id HAVING count(*) >= $4),"
            " late_runs AS MATERIALIZED (SELECT r.id, r.started_at, r.device_uuid FROM run r"
            "  WHERE r.started_at >= (SELECT min(oldest) FROM full_series)"
            "  AND r.id < (SELECT max(lowest) FROM full_series) AND " +
            run_scope + " AND" + HistoryRun(5) +
            "),"
            " late AS (SELECT " +
            point_columns +
            "  FROM late_runs r JOIN full_series f ON r.started_at >= f.oldest AND r.id < f.lowest"
            "  JOIN measurement m ON m.run_id = r.id AND m.series_id = f.series_id"
            "  WHERE ($2::text = '' OR m.device_uuid = $2::text) AND" +
            GoodPoint(3) +
            "),"
            " ranked AS (SELECT p.*, row_number() OVER (PARTITION BY p.series_id"
            "  ORDER BY p.started_at DESC, p.id DESC) AS k"
            "  FROM (SELECT * FROM cand UNION ALL SELECT * FROM late) p),"
            // The series' findings, read once (regression_series_device_idx), not per point.
            " level AS MATERIALIZED (SELECT DISTINCT rr.run_id, g.series_id FROM regression g"
            "  JOIN regression_run rr ON rr.regression_id = g.id"
            "  WHERE g.series_id = ANY($1::text[]) AND ($2::text = '' OR g.device_uuid = $2::text)"
            "  AND rr.measurement_id IS NOT NULL"
            "  AND g.state NOT IN ('ACCEPTED', 'NOISE', 'DISMISSED')),"
            " accepted AS MATERIALIZED (SELECT g.series_id, g.device_uuid,"
            "  max(fr.started_at) AS since FROM regression g JOIN run fr ON fr.id = g.run_id"
            "  WHERE g.series_id = ANY($1::text[]) AND ($2::text = '' OR g.device_uuid = $2::text)"
            "  AND g.kind IN ('REGRESSION', 'IMPROVEMENT') AND g.state = 'ACCEPTED'"
            "  GROUP BY g.series_id, g.device_uuid)"
            " SELECT t.series_id, t.id, t.device_uuid, t.status, t.verified,"
            " t.throttled_fraction, t.median_seconds, t.median_sm_clock_mhz, " +
            MicrosSql("t.started_at") +
            ", NOT EXISTS (SELECT 1 FROM level l WHERE l.run_id = t.id"
            "   AND l.series_id = t.series_id)"
            " AND t.started_at >= coalesce(a.since, '-infinity'::timestamptz)"
            " FROM ranked t LEFT JOIN accepted a ON a.series_id = t.series_id"
            "  AND a.device_uuid = t.device_uuid"
            " WHERE t.k <= $4 ORDER BY t.series_id, t.started_at, t.id",
        TextArrayLiteral(series_ids), device_uuid, max_throttled_fraction,
        static_cast<int64_t>(newest), run_.history_owner, run_.gpu_model);
    Result out;
    for (const pqxx::row& row : rows) {
      SeriesPoint p;
      p.point = AnalysisPointFromRow(row, 1);
      p.started_at_micros = row[8].as<int64_t>();
      p.baseline_eligible = row[9].as<bool>();
      out[row[0].as<std::string>()].push_back(std::move(p));
    }
    return out;
  });
}

}  // namespace warpwatch::server::detail
