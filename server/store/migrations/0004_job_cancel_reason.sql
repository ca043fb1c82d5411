-- 0004: a cancel request's reason is kept apart from Job.error until the job ends CANCELLED, so a
-- job that still ends SUCCEEDED (or FAILED for its own reason) does not carry it (issue 14).
ALTER TABLE job ADD COLUMN cancel_reason text NOT NULL DEFAULT '';
UPDATE job SET cancel_reason = error, error = '' WHERE state = 'RUNNING' AND cancel_requested;
