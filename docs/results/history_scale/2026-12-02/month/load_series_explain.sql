-- The analysis' device history read (PgAnalysisTx::LoadSeries, its 'cand' part: 286 series x the
-- newest 180 good points of one GPU), as EXPLAIN (ANALYZE, BUFFERS) on a held bench database:
--   psql URL -f load_series_explain.sql      (run twice: cold, then warm)
\set dev 'GPU-7'
SELECT array_agg(DISTINCT series_id) AS ids FROM measurement WHERE run_id = (SELECT max(id) FROM run WHERE device_uuid = :'dev' AND id < 35000) \gset
EXPLAIN (ANALYZE, BUFFERS)
SELECT count(*) FROM (SELECT x.* FROM unnest(:'ids'::text[]) AS s(series_id)
  CROSS JOIN LATERAL (SELECT m.series_id, m.id AS mid, r.started_at, r.id, r.device_uuid, m.status, m.verified, m.throttled_fraction, m.median_seconds, m.median_sm_clock_mhz
  FROM measurement m JOIN run r ON r.id = m.run_id
  WHERE m.series_id = s.series_id AND (:'dev'::text = '' OR (m.device_uuid = :'dev'::text AND r.device_uuid = :'dev'::text))
  AND r.state = 'SUCCEEDED' AND r.history_owner = ''::text AND NOT coalesce((SELECT cj.confirms_run_id IS NOT NULL FROM job cj WHERE cj.id = r.job_id), false)
  AND m.status = 'OK' AND m.verified AND m.throttled_fraction <= 0.1::double precision AND m.median_seconds > 0 AND m.median_seconds < 'Infinity'::double precision
  ORDER BY m.run_id DESC LIMIT 180) x) q;
