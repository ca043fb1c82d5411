-- 0015 (issue 26): incidents. Findings (regression rows) that start together (the same schedule
-- run, or the same UTC night without one; the same GPU model and direction) and share a cause
-- candidate (the same software difference, the same GPU, or the GPU's clocks) form one incident,
-- with a cause class and a lifecycle of its own. Each finding keeps its explanation, computed
-- from stored data (server/incidents/, docs/incidents.md).

CREATE TABLE incident (
  id              bigserial PRIMARY KEY,
  kind            text NOT NULL CHECK (kind IN ('SLOWDOWN', 'SPEEDUP')),
  gpu_model       text NOT NULL,
  window_key      text NOT NULL,             -- 'schedule_run:<id>' or 'night:<YYYY-MM-DD>'
  schedule_run_id bigint REFERENCES schedule_run (id) ON DELETE SET NULL,
  night           date NOT NULL,             -- UTC date of the first finding's run
  cause_key       text NOT NULL,             -- 'software:<diff>', 'environment:<uuid>', 'gpu:<uuid>'
  cause_class     text NOT NULL DEFAULT 'UNKNOWN'
                  CHECK (cause_class IN ('SOFTWARE', 'ONE_GPU', 'ENVIRONMENT', 'UNKNOWN')),
  cause           text NOT NULL DEFAULT '',
  ruled_out       text[] NOT NULL DEFAULT '{}',
  state           text NOT NULL DEFAULT 'OPEN' CHECK (state IN
                    ('OPEN', 'ACKNOWLEDGED', 'ACCEPTED', 'FIXED', 'DISMISSED', 'REOPENED')),
  -- Derived from its findings at every refresh (server/incidents/incident_sweep.h).
  findings        integer NOT NULL DEFAULT 0,
  confirmed       integer NOT NULL DEFAULT 0,   -- not SUSPECTED, not NOISE
  suspected       integer NOT NULL DEFAULT 0,
  cases           integer NOT NULL DEFAULT 0,
  device_uuids    text[] NOT NULL DEFAULT '{}',
  families        text[] NOT NULL DEFAULT '{}',
  min_change      double precision NOT NULL DEFAULT 0,
  median_change   double precision NOT NULL DEFAULT 0,
  max_change      double precision NOT NULL DEFAULT 0,
  peers           integer NOT NULL DEFAULT 0,   -- devices of the model measured in the window
  opened_at       timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  updated_by      text NOT NULL DEFAULT 'detector',
  UNIQUE (window_key, gpu_model, kind, cause_key)
);
CREATE INDEX incident_state_idx ON incident (state, gpu_model);

-- Every state change of an incident, with who made it (a principal, or 'detector').
CREATE TABLE incident_event (
  id          bigserial PRIMARY KEY,
  incident_id bigint NOT NULL REFERENCES incident (id) ON DELETE CASCADE,
  from_state  text NOT NULL,                  -- '' for the opening event
  to_state    text NOT NULL,
  actor       text NOT NULL,
  note        text NOT NULL DEFAULT '',
  at          timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX incident_event_incident_idx ON incident_event (incident_id, id);

ALTER TABLE regression
  ADD COLUMN incident_id bigint REFERENCES incident (id) ON DELETE SET NULL,
  ADD COLUMN explanation jsonb,                -- Explanation, protobuf JSON mapping
  -- Seen by the incident sweep (explained, and grouped when a REGRESSION or IMPROVEMENT).
  ADD COLUMN swept boolean NOT NULL DEFAULT false;
-- Findings stored before this migration are not grouped after the fact (old, mostly triaged
-- findings would open incidents and page now); their explanation is computed when asked for
-- (ExplainFinding, GetIncident).
UPDATE regression SET swept = true;
CREATE INDEX regression_unswept_idx ON regression (id) WHERE NOT swept;
CREATE INDEX regression_incident_idx ON regression (incident_id) WHERE incident_id IS NOT NULL;
