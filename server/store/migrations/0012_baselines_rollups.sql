-- 0012 (issue 11): pinned baselines, and week rollups of old summaries.

-- A pin: these runs are the baseline of one series (series_id set) or of every series they
-- measured (series_id ''), e.g. the release build's nightly run. One pin holds a list of runs so a
-- schedule run (one run per GPU) is pinned and unpinned as one. The detector judges a series
-- against its newest pin whose runs measured it (server/analysis/run_analyzer.cc); unpinning
-- deletes the pin, and the series goes back to its rolling window.
CREATE TABLE baseline_pin (
  id         bigserial PRIMARY KEY,
  series_id  text NOT NULL DEFAULT '',   -- '' = every series its runs measured
  note       text NOT NULL DEFAULT '',
  pinned_by  text NOT NULL,              -- the caller's principal
  pinned_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX baseline_pin_series_idx ON baseline_pin (series_id, id);

CREATE TABLE baseline_pin_run (
  pin_id bigint NOT NULL REFERENCES baseline_pin (id) ON DELETE CASCADE,
  run_id bigint NOT NULL REFERENCES run (id) ON DELETE CASCADE,
  PRIMARY KEY (pin_id, run_id)
);
CREATE INDEX baseline_pin_run_run_idx ON baseline_pin_run (run_id);

-- Summaries (measurement rows) older than --summary-retention-days are folded into one row per
-- series, device and ISO week (of the run's start) and deleted (Store::DownsampleSummaries).
-- run_medians keeps the folded runs' medians, sorted, so that a later fold into the same week
-- (rows exempt until then, or a batch boundary) recomputes the percentiles exactly.
CREATE TABLE measurement_rollup (
  id                 bigserial PRIMARY KEY,
  series_id          text NOT NULL,
  device_uuid        text NOT NULL,
  case_canonical     text NOT NULL,
  week               date NOT NULL,               -- Monday of the ISO week, UTC
  run_medians        double precision[] NOT NULL, -- good points' medians, ascending
  failed_points      integer NOT NULL DEFAULT 0,  -- folded points that were not good (dropped)
  -- Of run_medians; NULL while it is empty (a week of failed points only).
  median_seconds     double precision,
  p10_seconds        double precision,
  p90_seconds        double precision,
  min_seconds        double precision,
  max_seconds        double precision,
  mean_sm_clock_mhz  double precision NOT NULL DEFAULT 0,  -- over points with a known clock
  clock_points       integer NOT NULL DEFAULT 0,
  throttled_fraction double precision NOT NULL DEFAULT 0,  -- mean over the good points
  first_at           timestamptz NOT NULL,        -- earliest folded run start
  last_at            timestamptz NOT NULL,
  UNIQUE (series_id, device_uuid, week)
);
CREATE INDEX measurement_rollup_device_idx ON measurement_rollup (series_id, device_uuid, first_at);
CREATE INDEX measurement_rollup_series_idx ON measurement_rollup (series_id, first_at);

-- percentile_cont over an array (NULL for an empty one).
CREATE FUNCTION warpwatch_percentile(medians double precision[], fraction double precision)
  RETURNS double precision LANGUAGE sql IMMUTABLE AS
  'SELECT percentile_cont(fraction) WITHIN GROUP (ORDER BY v) FROM unnest(medians) v';
