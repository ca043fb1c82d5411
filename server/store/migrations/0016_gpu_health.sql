-- 0016 (issue 27): GPU health verdicts (server/gpu_health/, docs/gpu_health.md). The verdict
-- itself is computed when it is read, from the fleet OUTLIER findings of each GPU's recent runs
-- and these two tables: what a person said about a GPU, and a small summary of each analysed run
-- (written once, the first time a health read meets the run) so that a read of the whole fleet
-- never aggregates measurements again.

-- A person overrules the verdict (admins only, MarkGpuHealth): REPAIRED drops the evidence of
-- the runs before it; EXCLUDED takes the GPU out of judging until a later INCLUDED.
CREATE TABLE gpu_health_mark (
  id          bigserial PRIMARY KEY,
  device_uuid text NOT NULL,
  action      text NOT NULL CHECK (action IN ('REPAIRED', 'EXCLUDED', 'INCLUDED')),
  actor       text NOT NULL,                    -- the caller's principal
  note        text NOT NULL DEFAULT '',
  at          timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX gpu_health_mark_device_idx ON gpu_health_mark (device_uuid, id);

-- One row per SUCCEEDED, analysed, non-confirmation run: which night it belongs to (its schedule
-- run, else its UTC day and software), and what the clocks-and-throttling fingerprint needs.
CREATE TABLE gpu_health_run (
  run_id          bigint PRIMARY KEY REFERENCES run (id) ON DELETE CASCADE,
  device_uuid     text NOT NULL,
  gpu_model       text NOT NULL,
  hostname        text NOT NULL DEFAULT '',
  night           text NOT NULL,                -- 'schedule:N' or 'day:YYYY-MM-DD:sha:driver:worker'
  started_at      timestamptz NOT NULL,
  sm_clock_mhz    double precision NOT NULL DEFAULT 0,  -- median over its OK cases; 0 = unknown
  throttled_share double precision NOT NULL DEFAULT 0,  -- OK cases with > 5 % throttled samples
  families        text[] NOT NULL DEFAULT '{}'          -- families it measured (OK cases)
);
CREATE INDEX gpu_health_run_started_idx ON gpu_health_run (started_at);
CREATE INDEX gpu_health_run_night_idx ON gpu_health_run (night, gpu_model);
