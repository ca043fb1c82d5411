\set dev 'GPU-7'
SELECT series_id AS sid FROM measurement m WHERE m.run_id = (SELECT max(id) FROM run WHERE device_uuid = :'dev') ORDER BY series_id OFFSET 100 LIMIT 1 \gset
PREPARE dev_points(text, text, boolean, bigint, boolean, bigint, int) AS
SELECT r.id, coalesce((extract(epoch from r.started_at) * 1000000)::bigint, 0), r.device_uuid, m.median_seconds, m.median_sm_clock_mhz, m.throttled_fraction, m.verified, r.labels::text, m.p10_seconds, m.p90_seconds, m.theoretical_occupancy, m.achieved_occupancy, m.status
FROM measurement m JOIN run r ON r.id = m.run_id WHERE m.series_id = $1 AND m.device_uuid = $2
   AND (NOT $3::boolean OR r.started_at >= 'epoch'::timestamptz + $4::bigint * interval '1 microsecond')
   AND (NOT $5::boolean OR r.started_at < 'epoch'::timestamptz + $6::bigint * interval '1 microsecond')
 ORDER BY m.run_id DESC LIMIT $7;
\o /dev/null
EXECUTE dev_points(:'sid', :'dev', false, 0, false, 0, 400);
EXECUTE dev_points(:'sid', :'dev', false, 0, false, 0, 400);
EXECUTE dev_points(:'sid', :'dev', false, 0, false, 0, 400);
EXECUTE dev_points(:'sid', :'dev', false, 0, false, 0, 400);
EXECUTE dev_points(:'sid', :'dev', false, 0, false, 0, 400);
EXECUTE dev_points(:'sid', :'dev', false, 0, false, 0, 400);
EXECUTE dev_points(:'sid', :'dev', false, 0, false, 0, 400);
\o
SELECT name, generic_plans, custom_plans FROM pg_prepared_statements;
EXPLAIN (ANALYZE, BUFFERS) EXECUTE dev_points(:'sid', :'dev', false, 0, false, 0, 400);
\timing on
\o /dev/null
EXECUTE dev_points(:'sid', :'dev', false, 0, false, 0, 400);
EXECUTE dev_points(:'sid', :'dev', false, 0, false, 0, 400);
EXECUTE dev_points(:'sid', :'dev', false, 0, false, 0, 400);
\o
\timing off
SELECT name, generic_plans, custom_plans FROM pg_prepared_statements;
