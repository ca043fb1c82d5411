-- The analysis' device history read before and after the bounded read (issue 25 item 5):
-- 286 series x the newest 180 good points of one GPU, as EXPLAIN (ANALYZE, BUFFERS) on a held
-- bench database (bench_history_scale --hold-seconds ...):
--   psql URL -v which=before -f load_series_explain.sql   (PgAnalysisTx::LoadSeries up to aab6db6)
--   psql URL -v which=after  -f load_series_explain.sql   (server/store/pg_analysis_series.cc)
-- Each statement is the whole LoadSeries statement with its parameters spelled out: $1 the
-- series of GPU-7's newest run below 35000, $2 'GPU-7', $3 0.1, $4 180, $5 '' (the fleet's
-- history), $6 the GPU model.
\set dev 'GPU-7'
SELECT array_agg(DISTINCT series_id) AS ids, min(r.device_name) AS model FROM measurement m
  JOIN run r ON r.id = m.run_id
  WHERE m.run_id = (SELECT max(id) FROM run WHERE device_uuid = :'dev' AND id < 35000) \gset
\if :{?which}
\else
\set which after
\endif
SELECT :'which' = 'before' AS before \gset
\if :before
EXPLAIN (ANALYZE, BUFFERS)
WITH cand AS MATERIALIZED (SELECT x.* FROM unnest(:'ids'::text[]) AS s(series_id)
  CROSS JOIN LATERAL (SELECT m.series_id, m.id AS mid, r.started_at, r.id, r.device_uuid, m.status,
  m.verified, m.throttled_fraction, m.median_seconds, m.median_sm_clock_mhz
  FROM measurement m JOIN run r ON r.id = m.run_id
  WHERE m.series_id = s.series_id AND (:'dev'::text = '' OR (m.device_uuid = :'dev'::text AND r.device_uuid = :'dev'::text))
  AND r.state = 'SUCCEEDED' AND r.history_owner = ''::text AND NOT coalesce((SELECT cj.confirms_run_id IS NOT NULL FROM job cj WHERE cj.id = r.job_id), false)
  AND m.status = 'OK' AND m.verified AND m.throttled_fraction <= 0.1::double precision AND m.median_seconds > 0 AND m.median_seconds < 'Infinity'::double precision
  ORDER BY m.run_id DESC LIMIT 180) x),
 full_series AS MATERIALIZED (SELECT series_id, min(started_at) AS oldest, min(id) AS lowest FROM cand GROUP BY series_id HAVING count(*) >= 180),
 late AS (SELECT m.series_id, m.id AS mid, r.started_at, r.id, r.device_uuid, m.status, m.verified, m.throttled_fraction, m.median_seconds, m.median_sm_clock_mhz
  FROM run r JOIN measurement m ON m.run_id = r.id JOIN full_series f ON f.series_id = m.series_id
  WHERE r.started_at >= (SELECT min(oldest) FROM full_series) AND r.id < (SELECT max(lowest) FROM full_series)
  AND r.started_at >= f.oldest AND r.id < f.lowest
  AND (:'dev'::text = '' OR (m.device_uuid = :'dev'::text AND r.device_uuid = :'dev'::text))
  AND r.state = 'SUCCEEDED' AND r.history_owner = ''::text AND NOT coalesce((SELECT cj.confirms_run_id IS NOT NULL FROM job cj WHERE cj.id = r.job_id), false)
  AND m.status = 'OK' AND m.verified AND m.throttled_fraction <= 0.1::double precision AND m.median_seconds > 0 AND m.median_seconds < 'Infinity'::double precision),
 ranked AS (SELECT p.*, row_number() OVER (PARTITION BY p.series_id ORDER BY p.started_at DESC, p.id DESC) AS k
  FROM (SELECT * FROM cand UNION ALL SELECT * FROM late) p)
SELECT count(*), count(*) FILTER (WHERE eligible) FROM (SELECT t.series_id,
 NOT EXISTS (SELECT 1 FROM regression_run rr JOIN regression g ON g.id = rr.regression_id WHERE rr.run_id = t.id AND rr.measurement_id = t.mid AND g.state NOT IN ('ACCEPTED', 'NOISE', 'DISMISSED'))
 AND t.started_at >= coalesce((SELECT max(fr.started_at) FROM regression g JOIN run fr ON fr.id = g.run_id WHERE g.series_id = t.series_id
   AND g.device_uuid = t.device_uuid AND g.kind IN ('REGRESSION', 'IMPROVEMENT') AND g.state = 'ACCEPTED'), '-infinity'::timestamptz) AS eligible
 FROM ranked t WHERE t.k <= 180) q;
\else
EXPLAIN (ANALYZE, BUFFERS)
WITH bound AS MATERIALIZED (SELECT coalesce(min(b.id), 0) AS lo FROM (SELECT r.id FROM run r
  WHERE (:'dev'::text = '' OR r.device_uuid = :'dev'::text) AND (:'dev'::text <> '' OR r.device_name = :'model'::text)
  ORDER BY r.id DESC LIMIT 2 * 180) b),
 hist AS MATERIALIZED (SELECT r.id, r.started_at, r.device_uuid FROM run r
  WHERE (:'dev'::text = '' OR r.device_uuid = :'dev'::text) AND (:'dev'::text <> '' OR r.device_name = :'model'::text)
  AND r.id >= (SELECT lo FROM bound)
  AND r.state = 'SUCCEEDED' AND r.history_owner = ''::text AND NOT coalesce((SELECT cj.confirms_run_id IS NOT NULL FROM job cj WHERE cj.id = r.job_id), false)),
 near AS MATERIALIZED (SELECT x.* FROM unnest(:'ids'::text[]) AS s(series_id)
  CROSS JOIN LATERAL (SELECT m.series_id, m.run_id, m.status, m.verified, m.throttled_fraction, m.median_seconds, m.median_sm_clock_mhz
  FROM measurement m WHERE m.series_id = s.series_id AND (:'dev'::text = '' OR m.device_uuid = :'dev'::text)
  AND m.run_id >= (SELECT lo FROM bound) AND m.run_id IN (SELECT h.id FROM hist h)
  AND m.status = 'OK' AND m.verified AND m.throttled_fraction <= 0.1::double precision AND m.median_seconds > 0 AND m.median_seconds < 'Infinity'::double precision
  ORDER BY m.run_id DESC LIMIT 180) x),
 short AS MATERIALIZED (SELECT s.series_id FROM unnest(:'ids'::text[]) AS s(series_id)
  LEFT JOIN (SELECT series_id, count(*) AS c FROM near GROUP BY series_id) k USING (series_id) WHERE coalesce(k.c, 0) < 180),
 far AS MATERIALIZED (SELECT x.* FROM short s CROSS JOIN LATERAL (SELECT m.series_id, r.started_at, r.id, r.device_uuid, m.status,
  m.verified, m.throttled_fraction, m.median_seconds, m.median_sm_clock_mhz
  FROM measurement m JOIN run r ON r.id = m.run_id
  WHERE m.series_id = s.series_id AND (:'dev'::text = '' OR (m.device_uuid = :'dev'::text AND r.device_uuid = :'dev'::text))
  AND r.state = 'SUCCEEDED' AND r.history_owner = ''::text AND NOT coalesce((SELECT cj.confirms_run_id IS NOT NULL FROM job cj WHERE cj.id = r.job_id), false)
  AND m.status = 'OK' AND m.verified AND m.throttled_fraction <= 0.1::double precision AND m.median_seconds > 0 AND m.median_seconds < 'Infinity'::double precision
  ORDER BY m.run_id DESC LIMIT 180) x),
 cand AS MATERIALIZED (SELECT n.series_id, h.started_at, h.id, h.device_uuid, n.status, n.verified, n.throttled_fraction, n.median_seconds, n.median_sm_clock_mhz
  FROM near n JOIN hist h ON h.id = n.run_id WHERE n.series_id NOT IN (SELECT series_id FROM short) UNION ALL SELECT * FROM far),
 full_series AS MATERIALIZED (SELECT series_id, min(started_at) AS oldest, min(id) AS lowest FROM cand GROUP BY series_id HAVING count(*) >= 180),
 late_runs AS MATERIALIZED (SELECT r.id, r.started_at, r.device_uuid FROM run r
  WHERE r.started_at >= (SELECT min(oldest) FROM full_series) AND r.id < (SELECT max(lowest) FROM full_series)
  AND (:'dev'::text = '' OR r.device_uuid = :'dev'::text) AND (:'dev'::text <> '' OR r.device_name = :'model'::text)
  AND r.state = 'SUCCEEDED' AND r.history_owner = ''::text AND NOT coalesce((SELECT cj.confirms_run_id IS NOT NULL FROM job cj WHERE cj.id = r.job_id), false)),
 late AS (SELECT m.series_id, r.started_at, r.id, r.device_uuid, m.status, m.verified, m.throttled_fraction, m.median_seconds, m.median_sm_clock_mhz
  FROM late_runs r JOIN full_series f ON r.started_at >= f.oldest AND r.id < f.lowest
  JOIN measurement m ON m.run_id = r.id AND m.series_id = f.series_id
  WHERE (:'dev'::text = '' OR m.device_uuid = :'dev'::text)
  AND m.status = 'OK' AND m.verified AND m.throttled_fraction <= 0.1::double precision AND m.median_seconds > 0 AND m.median_seconds < 'Infinity'::double precision),
 ranked AS (SELECT p.*, row_number() OVER (PARTITION BY p.series_id ORDER BY p.started_at DESC, p.id DESC) AS k
  FROM (SELECT * FROM cand UNION ALL SELECT * FROM late) p),
 level AS MATERIALIZED (SELECT DISTINCT rr.run_id, g.series_id FROM regression g JOIN regression_run rr ON rr.regression_id = g.id
  WHERE g.series_id = ANY(:'ids'::text[]) AND (:'dev'::text = '' OR g.device_uuid = :'dev'::text)
  AND rr.measurement_id IS NOT NULL AND g.state NOT IN ('ACCEPTED', 'NOISE', 'DISMISSED')),
 accepted AS MATERIALIZED (SELECT g.series_id, g.device_uuid, max(fr.started_at) AS since FROM regression g JOIN run fr ON fr.id = g.run_id
  WHERE g.series_id = ANY(:'ids'::text[]) AND (:'dev'::text = '' OR g.device_uuid = :'dev'::text)
  AND g.kind IN ('REGRESSION', 'IMPROVEMENT') AND g.state = 'ACCEPTED' GROUP BY g.series_id, g.device_uuid)
SELECT count(*), count(*) FILTER (WHERE eligible) FROM (SELECT t.series_id,
 NOT EXISTS (SELECT 1 FROM level l WHERE l.run_id = t.id AND l.series_id = t.series_id)
 AND t.started_at >= coalesce(a.since, '-infinity'::timestamptz) AS eligible
 FROM ranked t LEFT JOIN accepted a ON a.series_id = t.series_id AND a.device_uuid = t.device_uuid WHERE t.k <= 180) q;
\endif
