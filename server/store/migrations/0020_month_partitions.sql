-- 0020 (issue 25 item 5): measurement partitions span a month of runs, not a week.
--
-- Reads of a series walk one index per partition (GetSeries, the analysis' history read), and a
-- statement over measurement is planned over every partition: measured on a year of 96 GPUs in 36
-- partitions of 1,000 runs (docs/results/history_scale.md), a device's year took 5.8 ms to plan
-- and 6.5 ms to run under ingest. With 7 days of runs a partition, a year of retention is 52
-- partitions at any fleet size (7,000 runs each at 1,000 GPUs); with 30 days it is 13, and a
-- partition goes whole at most a month after its last run passes --summary-retention-days.
-- Partitions already made keep their ranges; the next ones take the new size. Only the function
-- changes: no table is touched.
CREATE OR REPLACE FUNCTION warpwatch_keep_measurement_partitions(min_runs bigint)
  RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  last_run bigint := (SELECT CASE WHEN is_called THEN last_value ELSE last_value - 1 END
                        FROM run_id_seq);
  size bigint := greatest(min_runs, (SELECT count(*) FROM run
                                      WHERE started_at > now() - interval '30 days'));
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
