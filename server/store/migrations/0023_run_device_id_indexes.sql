-- warpwatch: statement_timeout=0
-- 0023 (issue 25 item 5): the analysis' history read starts from the newest runs of a GPU or of
-- its GPU model by id (server/store/pg_analysis_series.cc: the bound below which no series point
-- is read, so that the measurement partitions under it are pruned). run_device_uuid_idx and
-- run_device_name_idx order by start, which an upload late by days does not follow.
-- The statement_timeout above: each build reads the whole run table (~100k rows a year for 96
-- GPUs, ~10M for 10,000: seconds); writes to `run` wait for it (claims and uploads), reads do not.
CREATE INDEX run_device_id_idx ON run (device_uuid, id);
CREATE INDEX run_device_name_id_idx ON run (device_name, id);
