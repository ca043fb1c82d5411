-- 0011: schedules (issue 11). A schedule fires a job template on every matching GPU at the due
-- times of its cron expression; each fire is a schedule_run grouping one job per GPU, so "last
-- night on every H100" is one query. The schedule table of 0001 was never used; it is reshaped
-- here rather than dropped.

ALTER TABLE schedule RENAME COLUMN last_fire TO last_fire_at;
ALTER TABLE schedule RENAME COLUMN next_fire TO next_fire_at;
DROP INDEX schedule_next_fire_idx;
ALTER TABLE schedule
  -- SKIP: fires missed beyond --schedule-missed-grace-seconds are dropped (one SKIPPED run
  -- records the latest); RUN_ONCE: the latest missed due time fires once.
  ADD COLUMN missed_fire_policy text NOT NULL DEFAULT 'SKIP'
    CHECK (missed_fire_policy IN ('SKIP', 'RUN_ONCE')),
  ADD COLUMN allow_overlap boolean NOT NULL DEFAULT false,
  -- Points one job of the template expands to (validated when the schedule was written).
  ADD COLUMN points_total bigint NOT NULL DEFAULT 0,
  ADD COLUMN created_by text NOT NULL DEFAULT '',
  ADD COLUMN updated_by text NOT NULL DEFAULT '',
  ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now();
-- The scheduler's claim: enabled schedules by due time.
CREATE INDEX schedule_due_idx ON schedule (next_fire_at) WHERE enabled;

-- One fire of a schedule: by cron (due_at = the cron due time) or by TriggerSchedule (due_at =
-- the moment of the call). SKIPPED fires created no job; skipped_reason says why ("overlap",
-- "missed", "no matching GPU").
CREATE TABLE schedule_run (
  id             bigserial PRIMARY KEY,
  schedule_id    bigint NOT NULL REFERENCES schedule (id) ON DELETE CASCADE,
  due_at         timestamptz NOT NULL,
  trigger        text NOT NULL CHECK (trigger IN ('CRON', 'MANUAL')),
  state          text NOT NULL CHECK (state IN ('FIRED', 'SKIPPED')),
  skipped_reason text NOT NULL DEFAULT '',
  created_by     text NOT NULL DEFAULT '',
  created_at     timestamptz NOT NULL DEFAULT now(),
  CHECK ((state = 'SKIPPED') = (skipped_reason <> ''))
);
-- Exactly one fire per cron due time, whichever replica gets there first.
CREATE UNIQUE INDEX schedule_run_cron_due_idx ON schedule_run (schedule_id, due_at)
  WHERE trigger = 'CRON';
-- Latest runs of a schedule first (ListScheduleRuns, the overlap check).
CREATE INDEX schedule_run_schedule_idx ON schedule_run (schedule_id, id DESC);

ALTER TABLE job ADD COLUMN schedule_run_id bigint REFERENCES schedule_run (id) ON DELETE SET NULL;
CREATE INDEX job_schedule_run_idx ON job (schedule_run_id) WHERE schedule_run_id IS NOT NULL;
