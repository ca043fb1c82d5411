-- GetSeries' point read (server/store/pg_store_series.cc), one device and one model, each form
-- as EXPLAIN (ANALYZE, BUFFERS) and then timed 20 times without EXPLAIN, on a held bench database:
--   psql URL -v dev=GPU-7 -f get_series_explain.sql
\if :{?dev}
\else
\set dev 'GPU-7'
\endif
SELECT series_id AS sid, r.device_name AS model FROM measurement m JOIN run r ON r.id = m.run_id
  WHERE m.run_id = (SELECT max(id) FROM run WHERE device_uuid = :'dev') ORDER BY series_id
  OFFSET 100 LIMIT 1 \gset
\echo series :sid model :model
\set cols 'r.id, coalesce((extract(epoch from r.started_at) * 1000000)::bigint, 0), r.device_uuid, m.median_seconds, m.median_sm_clock_mhz, m.throttled_fraction, m.verified, r.labels::text, m.p10_seconds, m.p90_seconds, m.theoretical_occupancy, m.achieved_occupancy, m.status'
\set pcols 'm.run_id, m.median_seconds, m.median_sm_clock_mhz, m.throttled_fraction, m.verified, m.p10_seconds, m.p90_seconds, m.theoretical_occupancy, m.achieved_occupancy, m.status'
\set qcols 'r.id, coalesce((extract(epoch from r.started_at) * 1000000)::bigint, 0), r.device_uuid, p.median_seconds, p.median_sm_clock_mhz, p.throttled_fraction, p.verified, r.labels::text, p.p10_seconds, p.p90_seconds, p.theoretical_occupancy, p.achieved_occupancy, p.status'
\echo '=== device, before (per-point join of run)'
\o /dev/null
EXPLAIN (ANALYZE, BUFFERS) SELECT :cols FROM measurement m JOIN run r ON r.id = m.run_id
  WHERE m.series_id = :'sid' AND m.device_uuid = :'dev' ORDER BY m.run_id DESC LIMIT 400;
\o
EXPLAIN (ANALYZE, BUFFERS) SELECT :cols FROM measurement m JOIN run r ON r.id = m.run_id
  WHERE m.series_id = :'sid' AND m.device_uuid = :'dev' ORDER BY m.run_id DESC LIMIT 400;
\echo '=== device, after (points index-only, then the device runs hashed once)'
\o /dev/null
EXPLAIN (ANALYZE, BUFFERS) WITH p AS MATERIALIZED (SELECT :pcols FROM measurement m
  WHERE m.series_id = :'sid' AND m.device_uuid = :'dev' ORDER BY m.run_id DESC LIMIT 400),
  r AS MATERIALIZED (SELECT id, started_at, device_uuid, labels FROM run WHERE device_uuid = :'dev'
  AND id >= (SELECT min(run_id) FROM p))
  SELECT :qcols FROM p JOIN r ON r.id = p.run_id ORDER BY p.run_id DESC;
\o
EXPLAIN (ANALYZE, BUFFERS) WITH p AS MATERIALIZED (SELECT :pcols FROM measurement m
  WHERE m.series_id = :'sid' AND m.device_uuid = :'dev' ORDER BY m.run_id DESC LIMIT 400),
  r AS MATERIALIZED (SELECT id, started_at, device_uuid, labels FROM run WHERE device_uuid = :'dev'
  AND id >= (SELECT min(run_id) FROM p))
  SELECT :qcols FROM p JOIN r ON r.id = p.run_id ORDER BY p.run_id DESC;
\echo '=== model, before'
\o /dev/null
EXPLAIN (ANALYZE, BUFFERS) SELECT :cols FROM measurement m JOIN run r ON r.id = m.run_id
  WHERE m.series_id = :'sid' AND :'dev'::text <> '' ORDER BY m.run_id DESC LIMIT 400;
\o
EXPLAIN (ANALYZE, BUFFERS) SELECT :cols FROM measurement m JOIN run r ON r.id = m.run_id
  WHERE m.series_id = :'sid' AND :'dev'::text <> '' ORDER BY m.run_id DESC LIMIT 400;
\echo '=== model, after'
\o /dev/null
EXPLAIN (ANALYZE, BUFFERS) WITH p AS MATERIALIZED (SELECT :pcols FROM measurement m
  WHERE m.series_id = :'sid' ORDER BY m.run_id DESC LIMIT 400),
  r AS MATERIALIZED (SELECT id, started_at, device_uuid, labels FROM run
  WHERE id >= (SELECT min(run_id) FROM p) AND id <= (SELECT max(run_id) FROM p))
  SELECT :qcols FROM p JOIN r ON r.id = p.run_id ORDER BY p.run_id DESC;
\o
EXPLAIN (ANALYZE, BUFFERS) WITH p AS MATERIALIZED (SELECT :pcols FROM measurement m
  WHERE m.series_id = :'sid' ORDER BY m.run_id DESC LIMIT 400),
  r AS MATERIALIZED (SELECT id, started_at, device_uuid, labels FROM run
  WHERE id >= (SELECT min(run_id) FROM p) AND id <= (SELECT max(run_id) FROM p))
  SELECT :qcols FROM p JOIN r ON r.id = p.run_id ORDER BY p.run_id DESC;
