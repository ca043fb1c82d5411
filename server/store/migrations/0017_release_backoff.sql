-- 0017: who handed a job back last, and when (FinishJob RELEASED). For a short while after a
-- release, ClaimJob does not hand the job to the worker that released it: a worker looping
-- claim/release on a job any GPU may take would otherwise win it again on every poll (its poll's
-- own claim on arrival races the parked polls the release woke) and starve the others.
ALTER TABLE job ADD COLUMN released_by text;
ALTER TABLE job ADD COLUMN released_at timestamptz;
