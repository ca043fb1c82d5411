-- 0008: QueryMeasurements by series pages in id order (keyset on measurement.id). Without an index
-- on (series_id, id) PostgreSQL walks the primary key and filters: on ten million measurements it
-- read 9,340 pages and dropped 90,825 rows to fill one page of 101 (EXPLAIN in
-- tests/server/store/history_scale_bench_results.md). measurement_series_idx (series_id, run_id)
-- serves GetSeries, whose order is the run's.
CREATE INDEX measurement_series_id_idx ON measurement (series_id, id);
