-- 0014 (issue 22): verdicts that hold at fleet scale. One finding per change (later runs at the
-- new level attach to it; it closes when the level returns or a person accepts the new level),
-- the noise model of each series and the minimum change it can detect, and how many cases each
-- analysed run judged. Series ids carry the measurement settings since this version
-- (common/series/comparable_series.h); rows stored before keep theirs.

-- ACCEPTED: a person accepted the new level; the GPU's baseline re-anchors at the finding's
-- first run and the detector raises nothing more for it.
ALTER TABLE regression
  DROP CONSTRAINT regression_state_check,
  ADD CONSTRAINT regression_state_check CHECK (state IN
    ('SUSPECTED', 'OPEN', 'ACKNOWLEDGED', 'DISMISSED', 'FIXED', 'NOISE', 'ACCEPTED')),
  ADD COLUMN last_run_id bigint REFERENCES run (id) ON DELETE SET NULL,  -- newest run at the level
  ADD COLUMN runs_at_level integer NOT NULL DEFAULT 1,
  ADD COLUMN closed_run_id bigint REFERENCES run (id) ON DELETE SET NULL,  -- the level returned
  ADD COLUMN min_detectable_change double precision,
  ADD COLUMN noise_sigma double precision;            -- the noise model's relative sigma used

-- Every run a finding's level was seen in: its first run, then each later run that attached.
-- These runs never serve as another run's baseline unless the finding was ACCEPTED (or turned
-- out NOISE, or was DISMISSED as the GPU's clock).
CREATE TABLE regression_run (
  regression_id  bigint NOT NULL REFERENCES regression (id) ON DELETE CASCADE,
  run_id         bigint NOT NULL REFERENCES run (id) ON DELETE CASCADE,
  measurement_id bigint REFERENCES measurement (id) ON DELETE SET NULL,
  change         double precision NOT NULL,   -- against the finding's baseline
  z              double precision,
  at             timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (regression_id, run_id)
);
CREATE INDEX regression_run_measurement_idx ON regression_run (measurement_id);
CREATE INDEX regression_run_run_idx ON regression_run (run_id);
-- The active finding of a series on a GPU is looked up on every analysis.
CREATE INDEX regression_series_device_idx ON regression (series_id, device_uuid, id)
  WHERE kind IN ('REGRESSION', 'IMPROVEMENT');

-- The noise model per series: device_uuid '' = the GPU model's estimate (successive differences
-- of each device's runs over the newest points of every device, recomputed when stale);
-- otherwise the sigma a GPU's last decision used and the smallest change it could detect.
CREATE TABLE series_noise (
  series_id             text NOT NULL,
  device_uuid           text NOT NULL DEFAULT '',
  sigma_relative        double precision,          -- NULL: no estimate (fewer than 2 runs)
  pairs                 integer NOT NULL DEFAULT 0,
  devices               integer NOT NULL DEFAULT 0,
  min_detectable_change double precision,          -- device rows (and model rows, for N runs)
  baseline_runs         integer NOT NULL DEFAULT 0,
  run_id                bigint REFERENCES run (id) ON DELETE SET NULL,  -- device rows: the run
  computed_at           timestamptz NOT NULL DEFAULT now(),
  -- Model rows: the start of the run the model-wide change points were last recomputed at; they
  -- are recomputed at most once per AnalysisConfig::model_change_points_interval of run starts.
  change_points_through timestamptz,
  PRIMARY KEY (series_id, device_uuid)
);

-- What the analysis of each run judged: {"cases": n, "judged": n, "unsure": {"reason": n}}.
ALTER TABLE run ADD COLUMN analysis_coverage jsonb;

-- The analysis reads a series' newest points by run id (the series indexes) and then looks for
-- runs that started since the oldest of them but have a lower id (a run uploaded late) among the
-- runs started since then: by this index for the GPU model's series (pg_analysis_reads.cc,
-- LoadSeries; bench/bench_analysis_scale.cc).
CREATE INDEX run_started_idx ON run (started_at);
