-- 0019 (issue 25 item 1): measurement partitioned by RANGE (run_id) (docs/partitioning.md).
-- warpwatch: statement_timeout=0
--
-- The stored table becomes the first partition, measurement_runs_0, covering run ids up to
-- run_id_seq's last value (runs still uploading land in it too); the queue keeper adds the next
-- ones ahead of run_id_seq (warpwatch_keep_measurement_partitions) and retention drops whole old
-- partitions (Store::DropOldPartitions). One transaction, like every migration: measurement is
-- held ACCESS EXCLUSIVE from the first statement to the commit; the work under it is one scan of
-- the old table (ATTACH checking its bound) and one index build on it (the new primary key
-- (run_id, id)); regression and regression_run are held ACCESS EXCLUSIVE too (their foreign keys
-- are dropped and re-made), and run as well (attaching moves the partition's foreign key triggers
-- on run): reads and writes of these four tables wait until the commit. Measured locks and times
-- in docs/partitioning.md. The statement_timeout above: on a large database the scan and the build
-- run minutes.

LOCK TABLE measurement IN ACCESS EXCLUSIVE MODE;

-- The two keys that point at a measurement by id alone go; they come back as (run_id,
-- measurement_id) below. A pointer at a measurement of another run than the row's own cannot
-- satisfy that key: none is written (the analysis stores its claimed run's points), and one that
-- exists anyway is cleared rather than failing the upgrade.
ALTER TABLE regression DROP CONSTRAINT regression_measurement_id_fkey;
ALTER TABLE regression_run DROP CONSTRAINT regression_run_measurement_id_fkey;
UPDATE regression g SET measurement_id = NULL WHERE measurement_id IS NOT NULL AND NOT EXISTS
  (SELECT 1 FROM measurement m WHERE m.id = g.measurement_id AND m.run_id = g.run_id);
UPDATE regression_run g SET measurement_id = NULL WHERE measurement_id IS NOT NULL AND NOT EXISTS
  (SELECT 1 FROM measurement m WHERE m.id = g.measurement_id AND m.run_id = g.run_id);

-- The old table, renamed with its indexes (index names are per schema: the parent's take the
-- old names).
ALTER TABLE measurement RENAME TO measurement_runs_0;
ALTER INDEX measurement_run_id_case_canonical_key RENAME TO measurement_runs_0_run_case_key;
ALTER INDEX measurement_series_idx RENAME TO measurement_runs_0_series_idx;
ALTER INDEX measurement_device_series_idx RENAME TO measurement_runs_0_device_series_idx;
ALTER INDEX measurement_family_idx RENAME TO measurement_runs_0_family_idx;
ALTER INDEX measurement_series_id_idx RENAME TO measurement_runs_0_series_id_idx;
ALTER TABLE measurement_runs_0 RENAME CONSTRAINT measurement_run_id_fkey TO measurement_runs_0_run_fkey;
-- Its primary key becomes (run_id, id), the parent's; the index is built here.
ALTER TABLE measurement_runs_0 DROP CONSTRAINT measurement_pkey;
CREATE UNIQUE INDEX measurement_runs_0_pkey ON measurement_runs_0 (run_id, id);
ALTER TABLE measurement_runs_0 ADD PRIMARY KEY USING INDEX measurement_runs_0_pkey;

CREATE TABLE measurement (LIKE measurement_runs_0 INCLUDING DEFAULTS INCLUDING STORAGE)
  PARTITION BY RANGE (run_id);
-- The id sequence belongs to the parent, whose default uses it: dropping the first partition
-- must not drop it.
ALTER SEQUENCE measurement_id_seq OWNED BY measurement.id;
ALTER TABLE measurement
  ADD CONSTRAINT measurement_pkey PRIMARY KEY (run_id, id),
  -- the upload's idempotency key
  ADD CONSTRAINT measurement_run_id_case_canonical_key UNIQUE (run_id, case_canonical),
  ADD CONSTRAINT measurement_run_id_fkey FOREIGN KEY (run_id) REFERENCES run (id)
    ON DELETE CASCADE,
  ADD CONSTRAINT measurement_status_check
    CHECK (status IN ('UNSPECIFIED', 'OK', 'FAILED', 'SKIPPED')),
  ADD CONSTRAINT measurement_doc_present CHECK (doc IS NOT NULL OR doc_pb IS NOT NULL) NOT VALID;
CREATE INDEX measurement_series_idx ON measurement (series_id, run_id)
  INCLUDE (median_seconds, median_sm_clock_mhz, throttled_fraction, verified, p10_seconds,
           p90_seconds, theoretical_occupancy, achieved_occupancy, status);
CREATE INDEX measurement_device_series_idx ON measurement (series_id, device_uuid, run_id)
  INCLUDE (median_seconds, median_sm_clock_mhz, throttled_fraction, verified, p10_seconds,
           p90_seconds, theoretical_occupancy, achieved_occupancy, status);
CREATE INDEX measurement_family_idx ON measurement (family, variant);
CREATE INDEX measurement_series_id_idx ON measurement (series_id, id);
-- QueryMeasurements without a run or a series pages in id order: each partition's id index,
-- merged. A lookup by id alone probes every partition's; the store's statements carry run_id.
CREATE INDEX measurement_id_idx ON measurement (id);

-- ATTACH reuses the old table's run FK, its (run_id, case_canonical), primary key and series
-- indexes (same definitions) and builds its id index (the old unique one does not match a plain
-- one).

-- ATTACH scans the old table once to check its bound. A CHECK added NOT VALID and validated
-- first would be the same scan under the same lock: a migration is one transaction, and the
-- rename above already holds measurement ACCESS EXCLUSIVE (docs/partitioning.md).
DO $$
BEGIN
  EXECUTE format('ALTER TABLE measurement ATTACH PARTITION measurement_runs_0'
                 ' FOR VALUES FROM (0) TO (%s)',
                 (SELECT CASE WHEN is_called THEN last_value ELSE last_value - 1 END FROM run_id_seq)
                 + 1);
END $$;

-- Rows outside every range (a run id beyond the partitions made ahead): never refused, and
-- reported by the keeper (it should stay empty).
CREATE TABLE measurement_default PARTITION OF measurement DEFAULT
  WITH (toast_tuple_target = 8160, autovacuum_vacuum_insert_threshold = 50000,
        autovacuum_vacuum_insert_scale_factor = 0);

-- The keys that point at a measurement carry its run (the row's own run_id).
ALTER TABLE regression ADD CONSTRAINT regression_measurement_fkey
  FOREIGN KEY (run_id, measurement_id) REFERENCES measurement (run_id, id)
  ON DELETE SET NULL (measurement_id) NOT VALID;
ALTER TABLE regression VALIDATE CONSTRAINT regression_measurement_fkey;
ALTER TABLE regression_run ADD CONSTRAINT regression_run_measurement_fkey
  FOREIGN KEY (run_id, measurement_id) REFERENCES measurement (run_id, id)
  ON DELETE SET NULL (measurement_id) NOT VALID;
ALTER TABLE regression_run VALIDATE CONSTRAINT regression_run_measurement_fkey;
DROP INDEX regression_run_measurement_idx;
CREATE INDEX regression_run_measurement_idx ON regression_run (run_id, measurement_id);

-- The range partitions of measurement, [lo, hi) in run ids, lowest first (DEFAULT aside).
CREATE FUNCTION warpwatch_measurement_partitions()
  RETURNS TABLE (name text, lo bigint, hi bigint) LANGUAGE sql STABLE AS $$
  SELECT c.relname::text,
         substring(b FROM 'FROM \(''?(-?[0-9]+)''?\)')::bigint,
         substring(b FROM 'TO \(''?(-?[0-9]+)''?\)')::bigint
    FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid,
         LATERAL pg_get_expr(c.relpartbound, c.oid) AS b
   WHERE i.inhparent = 'measurement'::regclass AND b <> 'DEFAULT'
   ORDER BY 2 $$;

-- Keeps two partitions' worth of run ids ahead of run_id_seq: while the highest upper bound is
-- within 2 x size of the last run id handed out, adds [bound, bound + size), where size is the
-- number of runs started in the last 7 days, at least min_runs. A range starts above the highest
-- run id the DEFAULT partition holds (its rows stay there; the gap is the DEFAULT's). Each new
-- partition is created alone and attached (SHARE UPDATE EXCLUSIVE on measurement: reads and
-- writes go on; the DEFAULT partition is scanned, empty in the normal case). Serialized across
-- replicas by an advisory lock. Returns how many partitions it added.
CREATE FUNCTION warpwatch_keep_measurement_partitions(min_runs bigint)
  RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  last_run bigint := (SELECT CASE WHEN is_called THEN last_value ELSE last_value - 1 END
                        FROM run_id_seq);
  size bigint := greatest(min_runs, (SELECT count(*) FROM run
                                      WHERE started_at > now() - interval '7 days'));
  bound bigint := coalesce((SELECT max(hi) FROM warpwatch_measurement_partitions()), 0);
  name text;
  added integer := 0;
BEGIN
  PERFORM pg_advisory_xact_lock(8241990183427268978);  -- 'rangepar' in ASCII
  bound := greatest(bound, coalesce((SELECT max(run_id) + 1 FROM measurement_default), 0));
  WHILE bound <= last_run + 2 * size LOOP
    name := 'measurement_runs_' || bound;
    EXECUTE format('CREATE TABLE %I (LIKE measurement INCLUDING DEFAULTS INCLUDING CONSTRAINTS'
                   ' INCLUDING STORAGE) WITH (toast_tuple_target = 8160,'
                   ' autovacuum_vacuum_insert_threshold = 50000,'
                   ' autovacuum_vacuum_insert_scale_factor = 0)', name);
    EXECUTE format('ALTER TABLE measurement ATTACH PARTITION %I FOR VALUES FROM (%s) TO (%s)',
                   name, bound, bound + size);
    bound := bound + size;
    added := added + 1;
  END LOOP;
  RETURN added;
END $$;

SELECT warpwatch_keep_measurement_partitions(1000);
