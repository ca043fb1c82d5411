-- 0005: SubmitJob idempotency (AIP-155). A retried submit with the same request_id from the same
-- principal returns the job the first one created instead of queueing a duplicate.
ALTER TABLE job ADD COLUMN request_id text;
CREATE UNIQUE INDEX job_request_id_idx ON job (submitted_by, request_id)
  WHERE request_id IS NOT NULL;
