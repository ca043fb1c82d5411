-- 0018 (issue 23, scoped roles): an uploaded run (UploadRun) records who uploaded it and which
-- history it belongs to. history_owner '' is the fleet's history: runs of worker jobs, and uploads
-- an admin put there (UploadRunRequest.fleet_history). Any other value is an uploader's own
-- history (their principal name): the analysis compares a run only with runs of the same
-- history_owner (server/store/pg_analysis_reads.cc), so an upload is a baseline only for its
-- uploader's later uploads of the same device and never enters a worker-registered device's
-- history without an admin's decision.
ALTER TABLE run
  ADD COLUMN uploaded_by text NOT NULL DEFAULT '',   -- '' for a worker's run
  ADD COLUMN history_owner text NOT NULL DEFAULT '';
-- Uploads stored before this migration have no known uploader: they leave the fleet's history
-- (where they could have been any device's history) and form one history of their own.
UPDATE run SET uploaded_by = '(before 0018)', history_owner = '(before 0018)'
  WHERE content_sha256 IS NOT NULL;
-- The same file uploaded by two principals is two runs, one in each uploader's history.
ALTER TABLE run DROP CONSTRAINT run_content_sha256_key;
CREATE UNIQUE INDEX run_upload_digest_idx ON run (uploaded_by, content_sha256);
