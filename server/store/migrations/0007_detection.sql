-- 0007: what the detector finds on finished runs (issue 9): regressions (and improvements and
-- fleet outliers) with their evidence and triage history, change points per series, and which
-- runs have been analysed. Written by the server's analysis loop; read by ResultService.

-- Every finished run is analysed once. PENDING runs are claimed by one replica
-- (FOR UPDATE SKIP LOCKED); DONE when analysed; SKIPPED when the run is not judged (not SUCCEEDED).
ALTER TABLE run
  ADD COLUMN analysis_state text NOT NULL DEFAULT 'PENDING'
    CHECK (analysis_state IN ('PENDING', 'DONE', 'SKIPPED')),
  ADD COLUMN analyzed_at timestamptz,
  -- UploadRun: sha256 (hex) of the uploaded RunResult's canonical bytes; the same file twice
  -- finds this run instead of storing a second one. NULL for runs executed by workers.
  ADD COLUMN content_sha256 text UNIQUE;
-- Runs existing before this migration were never analysed and are not worth alerting on now.
UPDATE run SET analysis_state = 'SKIPPED';
CREATE INDEX run_analysis_pending_idx ON run (id) WHERE analysis_state = 'PENDING';

-- A confirmation job re-measures a run's suspect cases on the same device; its run decides
-- whether the suspects open (the same verdict again) or are recorded as NOISE.
ALTER TABLE job ADD COLUMN confirms_run_id bigint REFERENCES run (id) ON DELETE SET NULL;

ALTER TABLE regression
  DROP CONSTRAINT regression_state_check,
  ADD COLUMN kind text NOT NULL DEFAULT 'REGRESSION'
    CHECK (kind IN ('REGRESSION', 'IMPROVEMENT', 'OUTLIER')),
  ADD COLUMN variant text NOT NULL DEFAULT '',
  ADD COLUMN device_uuid text NOT NULL DEFAULT '',
  ADD COLUMN measurement_id bigint REFERENCES measurement (id) ON DELETE SET NULL,
  ADD COLUMN z double precision,                      -- robust z of the new median
  ADD COLUMN cycles_change double precision,          -- NULL when either clock is unknown
  ADD COLUMN baseline_sm_clock_mhz double precision NOT NULL DEFAULT 0,
  ADD COLUMN new_sm_clock_mhz double precision NOT NULL DEFAULT 0,
  ADD COLUMN blame text NOT NULL DEFAULT 'NONE' CHECK (blame IN ('NONE', 'CODE', 'ENVIRONMENT')),
  ADD COLUMN confirmation_job_id bigint REFERENCES job (id) ON DELETE SET NULL,
  ADD COLUMN updated_by text NOT NULL DEFAULT '',     -- principal of the last UpdateRegression
  -- SUSPECTED: flagged, its confirmation job not finished yet; NOISE: the confirmation disagreed.
  ADD CONSTRAINT regression_state_check CHECK (state IN
    ('SUSPECTED', 'OPEN', 'ACKNOWLEDGED', 'DISMISSED', 'FIXED', 'NOISE'));
ALTER TABLE regression ALTER COLUMN p_value DROP NOT NULL;   -- NULL: no samples to test
ALTER TABLE regression ALTER COLUMN p_value DROP DEFAULT;
-- p_value is the Mann-Whitney U test on raw samples (evidence only; the decision is `z`).
CREATE UNIQUE INDEX regression_run_case_kind_idx ON regression (run_id, case_canonical, kind);
CREATE INDEX regression_device_idx ON regression (device_uuid, detected_at);

-- Triage history: one row per state change, with who made it (the caller's principal).
CREATE TABLE regression_event (
  id            bigserial PRIMARY KEY,
  regression_id bigint NOT NULL REFERENCES regression (id) ON DELETE CASCADE,
  from_state    text NOT NULL,
  to_state      text NOT NULL,
  actor         text NOT NULL,                 -- principal, or 'detector'
  note          text NOT NULL DEFAULT '',
  at            timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX regression_event_regression_idx ON regression_event (regression_id, id);

-- Change points of a series (E-divisive means, server/detect/change_points.h), recomputed and
-- replaced as a whole each time a run touches the series. device_uuid '' = the GPU-model series
-- (every device of the model); otherwise the one-device series.
CREATE TABLE change_point (
  id              bigserial PRIMARY KEY,
  series_id       text NOT NULL,
  device_uuid     text NOT NULL DEFAULT '',
  run_id          bigint NOT NULL REFERENCES run (id) ON DELETE CASCADE,  -- first run at the new level
  at              timestamptz NOT NULL,                                    -- that run's start
  median_before   double precision NOT NULL,
  median_after    double precision NOT NULL,
  relative_change double precision NOT NULL,
  p_value         double precision NOT NULL,
  q_hat           double precision NOT NULL,
  detected_at     timestamptz NOT NULL DEFAULT now(),
  UNIQUE (series_id, device_uuid, run_id)
);
CREATE INDEX change_point_series_idx ON change_point (series_id, device_uuid, at);
