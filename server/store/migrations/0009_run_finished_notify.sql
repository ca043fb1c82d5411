-- 0009: wake the analysis loops (server/analysis) when a run finishes. Every server replica
-- LISTENs on warpwatch_run_finished; a finished run that waits for analysis (analysis_state
-- PENDING) is announced at its transaction's commit, whoever finished it: a worker's FinishJob,
-- the lease reaper failing it, or an upload inserting it finished. The loops also poll slowly, so
-- a notification missed while a replica was reconnecting only delays an analysis.
CREATE FUNCTION ww_notify_run_finished() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.state <> 'RUNNING' AND NEW.analysis_state = 'PENDING' THEN
    PERFORM pg_notify('warpwatch_run_finished', NEW.id::text);
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER run_finished_notify
  AFTER INSERT OR UPDATE OF state ON run
  FOR EACH ROW EXECUTE FUNCTION ww_notify_run_finished();

-- The loops' history reads: the newest runs of a series first (LoadSeries' window per series).
-- measurement_series_idx (series_id, run_id) finds a series' rows; run order is by started_at.
-- Confirmation runs are excluded from history through job.confirms_run_id.
CREATE INDEX job_confirms_run_idx ON job (confirms_run_id) WHERE confirms_run_id IS NOT NULL;
-- Resolving suspects by their confirmation job, and finding those of abandoned ones.
CREATE INDEX regression_confirmation_job_idx ON regression (confirmation_job_id)
  WHERE state = 'SUSPECTED';
