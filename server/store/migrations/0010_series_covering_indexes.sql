-- 0010: GetSeries reads its points from the index alone (issue 9 "Scale": p99 < 20 ms for one
-- year of nightly runs of a case in a database of ten million measurements). Measured with
-- bench/bench_history_scale.cc; plans and timings in docs/results/history_scale.md.
--
-- Before: a device's series started from the device's runs (run_device_uuid_idx) and probed
-- measurement_series_idx once per run; every one of the 365 points of a year sat on its own
-- measurement heap page (one night's runs are stored together), so a cold call read ~860 pages:
-- 48 ms executed, p99 1.2 s. A GPU model's latest 400 points walked measurement_series_idx
-- backwards but fetched 400 heap pages for the summary columns (391 read, 7 ms executed).
--
-- measurement.device_uuid: the run's device, copied onto its measurements (the store's
-- InsertMeasurements takes it from the run; a run's device never changes), so that one index
-- holds a device's series in run order. Backfilled here from run; on a large table this UPDATE
-- rewrites every row once (minutes on ten million measurements).
ALTER TABLE measurement ADD COLUMN device_uuid text NOT NULL DEFAULT '';
UPDATE measurement m SET device_uuid = r.device_uuid
  FROM run r WHERE r.id = m.run_id AND r.device_uuid <> '';

-- The summary columns GetSeries returns for a point (pg_store_series.cc), carried in both series
-- indexes so that a series is an index-only scan over a few adjacent leaf pages.
--   One device: (series_id, device_uuid, run_id). A year of one device's nights is 365 adjacent
--   entries (~6 leaf pages) instead of 365 heap pages.
CREATE INDEX measurement_device_series_idx
  ON measurement (series_id, device_uuid, run_id)
  INCLUDE (median_seconds, median_sm_clock_mhz, throttled_fraction, verified, p10_seconds,
           p90_seconds, theoretical_occupancy, achieved_occupancy, status);
--   One GPU model: (series_id, run_id), as before (the analysis loop's history reads use the same
--   key), now covering the same columns: the latest 400 points are ~7 leaf pages.
DROP INDEX measurement_series_idx;
CREATE INDEX measurement_series_idx
  ON measurement (series_id, run_id)
  INCLUDE (median_seconds, median_sm_clock_mhz, throttled_fraction, verified, p10_seconds,
           p90_seconds, theoretical_occupancy, achieved_occupancy, status);

-- An index-only scan skips the heap only for pages the visibility map marks all-visible, which
-- only VACUUM does. Measurements are inserted and never updated, so with PostgreSQL's defaults
-- autovacuum would visit this table only after 20 % of it is new (two million rows: ~70 nights of
-- a 96-GPU fleet), leaving exactly the newest, most-read points to heap fetches. Vacuum it after
-- every ~50,000 inserted rows instead (about two nights of that fleet); such a vacuum only scans
-- the pages not yet all-visible.
ALTER TABLE measurement SET (autovacuum_vacuum_insert_threshold = 50000,
                             autovacuum_vacuum_insert_scale_factor = 0);

-- Each measurement's document (the proto minus its sample arrays) as the proto's binary form in
-- doc_pb instead of JSON in doc. QueryMeasurements returns whole documents: a page of 100 real
-- H100 documents (~2.7 KB of JSON each) took ~7 ms to render as text on the server and ~20 ms to
-- parse with protobuf's JSON parser, far over the 20 ms target on its own; the binary form is
-- about a third of the size and parses in well under a millisecond. Rows stored before keep their
-- JSON (doc) and are read from it; new rows leave doc NULL. Checked for new rows only (NOT VALID:
-- no scan of the stored ones, which all have doc).
ALTER TABLE measurement ADD COLUMN doc_pb bytea;
ALTER TABLE measurement ALTER COLUMN doc DROP NOT NULL;
ALTER TABLE measurement ADD CONSTRAINT measurement_doc_present
  CHECK (doc IS NOT NULL OR doc_pb IS NOT NULL) NOT VALID;
